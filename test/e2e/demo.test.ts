// The demo's first minute, as `npm run demo` starts it (the script itself, on a free port and a
// profile of its own): MinAgent's chat open with the caret in its input, nothing competing for the
// first look (no VS Code Chat, no git notice), every feature there to try without editing a file
// (prompts, resources, a server's form, sign-in), and a fresh profile each run.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, type Dirent } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe } from 'node:test';
import { freePort, ROOT, waitFor } from '../helpers';
import { e2eTest } from './prereqs';
import { Workbench } from './workbench';

/** Starts scripts/demo.mjs; resolves with the URL it prints and a stop function. */
async function startDemo(
  home: string,
  port: number,
  extra: string[] = [],
): Promise<{ url: string; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, ['scripts/demo.mjs', ...extra], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), MINAGENT_DEMO_HOME: home, MINAGENT_DEMO_SKIP_PACKAGE: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const url = await waitFor(
    () => `the demo's URL; it printed: ${out.slice(-800)}`,
    () => /http:\/\/127\.0\.0\.1:\d+\/\?folder=\S+/.exec(out)?.[0],
    240_000,
  );
  return {
    url,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** The files under `dir` whose text holds `needle`. */
function filesHolding(dir: string, needle: string): string[] {
  if (!existsSync(dir)) return [];
  return (readdirSync(dir, { recursive: true, withFileTypes: true }) as Dirent[])
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath ?? e.path, e.name))
    .filter((f) => readFileSync(f).includes(needle));
}

describe('the demo', () => {
  e2eTest(
    "opens on MinAgent's chat, focused, with every feature there to try; a fresh profile each run",
    async () => {
      const home = mkdtempSync(join(tmpdir(), 'minagent-e2e-demo-'));
      const port = await freePort();
      let demo = await startDemo(home, port);
      let w: Workbench | undefined;
      try {
        w = await Workbench.open(demo.url);
        // No click: the chat is open and the caret is in its input.
        const chat = await w.webview();
        const focused = () =>
          chat.evaluate('document.hasFocus() && document.activeElement ? document.activeElement.id : ""');
        try {
          await waitFor('the caret in the chat input on arrival', async () => (await focused()) === 'input', 120_000);
        } catch (err) {
          const screenshot = await w.screenshot('demo-arrival-failed');
          const page = await chat
            .evaluate(
              'JSON.stringify({ hasFocus: document.hasFocus(), active: document.activeElement && document.activeElement.tagName + "#" + document.activeElement.id })',
            )
            .catch((e: Error) => e.message);
          const workbench = await w.page.evaluate('document.activeElement && document.activeElement.className');
          throw new Error(
            `${(err as Error).message} (screenshot: ${screenshot}; page: ${page}, workbench focus: ${workbench})`,
          );
        }
        // Nothing else competes: VS Code's own Chat is not open, and no git notice.
        assert.equal(
          await w.page.locator('.part.auxiliarybar:visible').count(),
          0,
          "VS Code's Chat is not open beside it",
        );
        await w.waitForRows(
          'the demo servers running',
          (r) =>
            ['research', 'library', 'asker'].every((s) => r.some((x) => x.startsWith(`${s} `) && /tools?/.test(x))),
          180_000,
        );
        assert.equal(
          await w.page.locator('.notifications-toasts', { hasText: /git repository/i }).count(),
          0,
          'no git notice',
        );
        await w.screenshot('demo-first-look');
        // At the default sidebar width a server's row says all it has (tools, tokens) without an ellipsis.
        await waitFor(
          'no server row cut at the default width',
          async () => (await w!.cutServerRows()).length === 0,
          10_000,
        ).catch(async () => {
          throw new Error(`server rows cut at the default width: ${(await w!.cutServerRows()).join(' | ')}`);
        });

        // The first message is answered.
        await w.page.keyboard.type('hello');
        await w.page.keyboard.press('Enter');
        await chat.locator('.msg.assistant', { hasText: 'You said: hello' }).waitFor();
        // Prompts: / lists the library's.
        await chat.locator('#input').fill('');
        await chat.locator('#input').pressSequentially('/');
        await chat
          .locator('.slash-menu:not([hidden]) .slash-name', { hasText: '/summarize' })
          .waitFor({ timeout: 60_000 });
        await chat.locator('#input').press('Escape');
        await chat.locator('#input').fill('');
        // Resources: the view is there (collapsed until opened).
        await w.page.locator('.pane-header', { hasText: /^Resources/ }).waitFor();
        // A server's form.
        await chat.locator('#input').fill('please fill in my profile');
        await chat.locator('#input').press('Enter');
        const form = chat.locator('.ask-card.ask-form');
        const approval = chat.locator('.card.status-waiting button', { hasText: 'Allow once' });
        await form.or(approval).first().waitFor({ timeout: 60_000 });
        if (await approval.count()) await approval.click();
        await form.waitFor({ timeout: 60_000 });
        await w.screenshot('demo-form');
        // Sign-in: the OAuth server waits for the user.
        await w.waitForRows(
          'the sign-in server asking for a sign-in',
          (r) => r.some((x) => x.startsWith('sign-in') && /sign in needed/i.test(x)),
          120_000,
        );
      } finally {
        await w?.close();
        await demo.stop();
      }

      // A second run starts fresh: the first run's chat, stored in its profile, is gone before VS Code opens.
      const userData = join(home, 'user-data');
      assert.ok(filesHolding(userData, 'You said: hello').length, "the first run's chat is stored in its profile");
      demo = await startDemo(home, port);
      try {
        assert.deepEqual(filesHolding(userData, 'You said: hello'), [], 'no chat from the last run');
      } finally {
        await demo.stop();
      }
    },
    { timeout: 900_000 },
  );
});
