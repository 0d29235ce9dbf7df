// The packaged extension in a real VS Code (code-server), driven through the UI.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe } from 'node:test';
import { isAlive, waitFor } from '../helpers';
import { startCodeServer } from './codeServer';
import { e2eTest } from './prereqs';
import { Workbench } from './workbench';

async function stage<T>(wb: Workbench, name: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    const shot = await wb.screenshot(`e2e-${name}`);
    throw new Error(`stage "${name}" failed (screenshot: ${shot}): ${(err as Error).message}`);
  }
}

describe('the extension in VS Code', () => {
  e2eTest(
    'tree, Try Tool, live settings (a server removed, servers of both protocol eras added), and nothing left after close',
    async () => {
      const cs = await startCodeServer({ workspace: 'e2e' });
      let wb: Workbench | undefined;
      let seen: number[] = [];
      try {
        wb = await Workbench.open(cs.url);
        const w = wb;
        await stage(w, '1-tree', async () => {
          await w.openMinAgent();
          const rows = await w.waitForRows('both servers running with their tools', (r) =>
            [
              'research 3 tools',
              'analytics 2 tools',
              'echo',
              'search_corpus',
              'word_count',
              'analytics.echo',
              'analytics.row_count',
            ].every((want) => r.some((row) => row.startsWith(want))),
          );
          assert.ok(
            rows.some((r) => /^broken invalid field "args"/.test(r)),
            `the broken entry names its field:\n${rows.join('\n')}`,
          );
          assert.ok(
            rows.some((r) => /^analytics\.echo renamed · analytics__echo/.test(r)),
            'the renamed tool shows its wire name and mark',
          );
        });

        await stage(w, '1b-chat-without-a-model', async () => {
          // code-server has no vscode.lm models and nothing is configured: the chat says how to get one.
          const chat = await w.webview();
          const banner = chat.locator('#banner');
          await banner.locator('button', { hasText: 'Set up a model' }).waitFor();
          assert.match(
            await banner.innerText(),
            /No model is available\. Use Copilot .* MinAgent: Set Up a Model to add one to "minagent\.chat\.models": an OpenAI-compatible endpoint \(for Ollama: http:\/\/localhost:11434\/v1;/s,
          );
          await chat.locator('#input').fill('hello?');
          await chat.locator('#input').press('Enter');
          await chat.locator('.notice.error', { hasText: 'No model is available' }).waitFor();
          // The message is kept (a wait: under load the notice can be drawn before the message's own update).
          await chat.locator('.msg.user', { hasText: 'hello?' }).waitFor({ timeout: 10_000 });
          assert.equal(await chat.locator('.msg.user').count(), 1, 'the message is kept, once');
        });

        await stage(w, '1c-pin-a-tool', async () => {
          // Pinned, a tool goes into every request while tools are deferred; its row says so, and Unpin takes it back.
          await w.contextMenu('word_count', 'Pin to Every Request');
          await w.waitForRows('word_count pinned', (r) => r.some((row) => /^word_count pinned\b/.test(row)));
          await w.contextMenu('word_count', 'Unpin');
          await w.waitForRows('word_count no longer pinned', (r) =>
            r.some((row) => /^word_count\b/.test(row) && !/pinned/.test(row)),
          );
        });

        await stage(w, '2-try-tool', async () => {
          await w.contextMenu('search_corpus', 'Try Tool');
          const input = w.page.locator('.quick-input-widget input');
          await input.waitFor();
          assert.equal(await input.inputValue(), '{"query":""}', 'pre-filled from the required properties');
          await input.fill('{"query": "mcp"}');
          await w.page.keyboard.press('Enter');
          await waitFor(
            'the result editor',
            async () => /open protocol that lets AI applications connect/.test(await w.editorText().catch(() => '')),
            30_000,
          );
        });

        await stage(w, '3-remove-server', async () => {
          const before = await waitFor('a report with pids', () => {
            const r = cs.report();
            return r?.servers.every((s) => s.pid) ? r : undefined;
          });
          const researchPid = before.servers.find((s) => s.name === 'research')!.pid!;
          const analyticsPid = before.servers.find((s) => s.name === 'analytics')!.pid!;
          const settingsFile = join(cs.workspace, '.vscode', 'settings.json');
          const text = readFileSync(settingsFile, 'utf8').replace(/\n\s*"analytics": \{[^\n]*\},/, '');
          assert.doesNotMatch(text, /analytics/);
          writeFileSync(settingsFile, text);
          const rows = await w.waitForRows(
            'analytics and its tools gone',
            (r) => !r.some((row) => row.startsWith('analytics')),
          );
          assert.ok(rows.some((r) => r.startsWith('research 3 tools')));
          await waitFor('the analytics process to end', () => !isAlive(analyticsPid), 10_000);
          const after = cs.report()!;
          assert.equal(
            after.servers.find((s) => s.name === 'research')?.pid,
            researchPid,
            'research was not restarted',
          );
        });

        await stage(w, '4-add-servers-of-both-eras', async () => {
          // Two servers added while VS Code runs: one that speaks only 2026-07-28, one only 2025-06-18
          // (it exits on any request it does not know). Both start, side by side, and each one's tooltip
          // says which revision it speaks.
          const settingsFile = join(cs.workspace, '.vscode', 'settings.json');
          const eras =
            '"modern": { "command": "node", "args": ["${env:MINAGENT_FIXTURES}/modern-only.mjs"] },\n    "legacy": { "command": "node", "args": ["${env:MINAGENT_FIXTURES}/legacy-only.mjs", "--unknown", "exit"] },\n    "research":';
          writeFileSync(settingsFile, readFileSync(settingsFile, 'utf8').replace('"research":', eras));
          const rows = await w.waitForRows(
            'both servers running',
            (r) => r.includes('modern 2 tools') && r.includes('legacy 1 tool'),
          );
          assert.ok(
            rows.some((x) => x.startsWith('modern_echo')),
            rows.join('\n'),
          );
          assert.match((await w.hoverRow('modern', 'MCP 2026-07-28')).text, /MCP 2026-07-28 \(stateless/);
          await w.page.mouse.move(0, 0);
          assert.match((await w.hoverRow('legacy', 'MCP 2025-06-18')).text, /MCP 2025-06-18 \(initialize handshake\)/);
          await w.screenshot('eras-tree');
        });
        seen = cs.report()?.everSeenPids ?? [];
      } finally {
        seen = cs.report()?.everSeenPids ?? seen;
        await wb?.close();
        await cs.stop();
      }
      assert.ok(seen.length >= 2, 'the report listed server processes');
      await waitFor('every server process to end', () => seen.every((pid) => !isAlive(pid)), 10_000).catch(() => {
        throw new Error(`still alive after code-server stopped: ${seen.filter(isAlive).join(', ')}`);
      });
    },
  );
});
