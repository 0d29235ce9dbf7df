// code-server on the demo workspace with its chat on the mock model server (OpenAI-compatible).
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { dirname, join } from 'node:path';
import { after } from 'node:test';
import type { Frame } from 'playwright-core';
import { listeningFixture, waitFor } from '../helpers';
import { NPX_FROM_CACHE } from '../npxPackages';
import { QUIET_EDITOR, startCodeServer } from './codeServer';
import { Workbench } from './workbench';

/** The user settings that put the chat on the mock model listening on `port`. */
const onMockModel = (port: string) => ({
  'minagent.chat.provider': 'openai',
  'minagent.chat.baseUrl': `http://127.0.0.1:${port}/v1`,
  'minagent.chat.model': 'mock-model',
});

/** `extensions` (of fixtures/extensions) and `userSettings` come beside the demo's own. */
export async function startDemoWithMockModel(
  options: { extensions?: string[]; userSettings?: Record<string, unknown> } = {},
): Promise<{ mock: Awaited<ReturnType<typeof listeningFixture>>; cs: Awaited<ReturnType<typeof startCodeServer>> }> {
  const mock = await listeningFixture('fixtures/models/mock-model.mjs');
  return { mock, cs: await startCodeServer(demoOptions(mock.port, options)) };
}

/** The demo workspace itself, as `npm run demo` opens it, its chat on the mock model at `port`. */
const demoOptions = (port: string, options: { extensions?: string[]; userSettings?: Record<string, unknown> }) => ({
  workspace: 'demo',
  inPlace: true,
  extensions: options.extensions,
  userSettings: { ...onMockModel(port), ...options.userSettings },
});

export interface SeenRequest {
  /** Whether the client closed the request (a turn that ended mid-stream closes it). */
  closed: boolean;
  body: {
    messages: Array<{ role: string; content: unknown }>;
    max_tokens?: number;
    tools?: Array<{ function: { name: string } }>;
  };
}

/** The requests the mock model server has seen, oldest first. */
export async function requests(port: string): Promise<SeenRequest[]> {
  return (await (await fetch(`http://127.0.0.1:${port}/requests`)).json()) as SeenRequest[];
}

/**
 * What a test run in a chat on the mock model gets: the editor, its chat page, the editor's process and the model's.
 */
export interface MockChat {
  w: Workbench;
  chat: Frame;
  cs: Awaited<ReturnType<typeof startCodeServer>>;
  mock: Awaited<ReturnType<typeof listeningFixture>>;
}

/**
 * Which editor: the e2e workspace with the servers a test writes in its settings (`inMockChat`), or the
 * demo workspace as `npm run demo` opens it (`inDemoChat`).
 */
type EditorKind = 'e2e' | 'demo';

/** What a test asks of its editor besides its workspace's servers. */
export interface EditorNeeds {
  /** User settings beside the chat's mock model; a shared editor takes them in VS Code's settings editor. */
  userSettings?: Record<string, unknown>;
  /** Variables of the editor's environment (`${env:}` in an entry): fixed when it opens (`shareOneEditor`). */
  env?: Record<string, string>;
  /** Files of the e2e workspace (a path in it: JSON content), e.g. `.vscode/mcp.json`; gone for the next test. */
  workspaceFiles?: Record<string, unknown>;
  /** What code-server runs under (`CodeServerOptions.launcher`): an editor of its own, never a shared one. */
  launcher?: string[];
}

/** An editor with its chat on the mock model, kept for the next test of a file that shares one. */
type SharedEditor = Omit<MockChat, 'chat'> & {
  kind: EditorKind;
  env: Record<string, string>;
  /** What the test it serves asked for. */
  needs: EditorNeeds;
  /** The values the user settings had before that test's own (put back after it). */
  overwritten: Record<string, unknown>;
};

/** Whether this process's tests share one editor (`shareOneEditor`), and the one open now. */
let sharing: { open?: SharedEditor } | undefined;

/**
 * The environment a shared editor opens with: every variable the tests that share one ask for (a test
 * that asks for another value gets a fresh editor): the vault server's secret (test/e2e/secrets.test.ts)
 * and the one the trace must not show (test/e2e/prompts.test.ts); npm reading its cache alone for the real
 * npm servers the registry's test starts by `npx -y` (fetched in its `before`, test/npxPackages.ts).
 */
export const SHARED_EDITOR_ENV: Record<string, string> = {
  VAULT_TOKEN: 'vault-token-e2e-5f3a9c',
  TRACE_E2E_TOKEN: 'e2e-trace-Tok3n-5f1c2a9d',
  ...NPX_FROM_CACHE,
};

/**
 * Makes the `inMockChat` (or `inDemoChat`) tests of this process share one editor (code-server, its browser
 * and the mock model): each workbench costs ~12 CPU-seconds before a test acts, and the e2e stage is CPU-bound. A file
 * that imports several test files calls it (test/e2e/sharedMockChat.test.ts, sharedSecurityChat.test.ts,
 * sharedDemoChat.test.ts); each of those files run alone still opens its own. Between tests the editor is
 * put back as a user would (`reuseEditor`): the user settings a test asks for typed into VS Code's settings
 * editor (VS Code does not take up a change made to that file behind its back once it has written the file
 * itself, as the chat does on its first activation), the workspace's servers and files rewritten, browser
 * windows, notices and editors closed, a new chat; the mock model forgets its requests and script. A test
 * that fails leaves its editor closed, and the next one opens a fresh one. It opens with `SHARED_EDITOR_ENV`.
 */
export function shareOneEditor(): void {
  sharing = {};
  after(async () => {
    if (sharing?.open) await closeEditor(sharing.open);
    sharing = undefined;
  });
}

async function openEditor(
  kind: EditorKind,
  workspaceSettings: Record<string, unknown>,
  needs: EditorNeeds,
  env: Record<string, string>,
): Promise<SharedEditor> {
  const mock = await listeningFixture('fixtures/models/mock-model.mjs');
  let cs: SharedEditor['cs'] | undefined;
  const userSettings = needs.userSettings ?? {};
  try {
    // The e2e workspace a copy, its servers the test's.
    cs = await startCodeServer(
      kind === 'demo'
        ? { ...demoOptions(mock.port, { userSettings }), env }
        : {
            workspace: 'e2e',
            workspaceSettings,
            workspaceFiles: needs.workspaceFiles,
            userSettings: { ...onMockModel(mock.port), ...userSettings },
            env,
            launcher: needs.launcher,
          },
    );
    const w = await Workbench.open(cs.url);
    // On a loaded machine the extensions' activity bar items can take minutes to show.
    if (kind === 'demo')
      await w.page
        .locator('.activitybar .action-item:has([aria-label^="MinAgent"])')
        .first()
        .waitFor({ timeout: 240_000 });
    else await w.openMinAgent();
    // What the test's own settings took the place of, for the next test (the editor's and the chat's own settings).
    const base: Record<string, unknown> = { ...QUIET_EDITOR, ...onMockModel(mock.port) };
    return {
      w,
      cs,
      mock,
      kind,
      env,
      needs,
      overwritten: Object.fromEntries(
        Object.keys(userSettings)
          .filter((key) => key in base)
          .map((key) => [key, base[key]]),
      ),
    };
  } catch (err) {
    await cs?.stop();
    mock.child.stdin!.end();
    throw err;
  }
}

async function closeEditor({ w, cs, mock }: SharedEditor): Promise<void> {
  await w.close();
  await cs.stop();
  mock.child.stdin!.end();
}

/**
 * The shared editor made ready for the next test: its user settings as the test asks (first: a workspace
 * server must not start under the test before's rules), its servers and files `workspaceSettings`'s and
 * `needs`' (the e2e workspace's; the demo's are its own), nothing open, no notices, a new chat.
 */
async function reuseEditor(
  editor: SharedEditor,
  workspaceSettings: Record<string, unknown>,
  needs: EditorNeeds,
): Promise<void> {
  const { w, cs, mock, kind } = editor;
  // Browser windows a test opened (a sign-in page) closed, and the editor's in front with the keyboard.
  for (const page of w.context.pages()) if (page !== w.page) await page.close();
  await w.page.bringToFront();
  for (let i = 0; i < 3; i++) await w.page.keyboard.press('Escape'); // a menu, quick input or dialog left open
  await fetch(`http://127.0.0.1:${mock.port}/reset`, { method: 'POST' });
  await w.command('View: Close All Editors');
  // The notices a test left (a failure, a sign-in), which a test that counts notices would find.
  await w.command('Notifications: Clear All Notifications');
  if (!isDeepStrictEqual(editor.needs.userSettings ?? {}, needs.userSettings ?? {}))
    await changeUserSettings(editor, needs.userSettings ?? {});
  if (kind === 'e2e') {
    for (const file of Object.keys(editor.needs.workspaceFiles ?? {}))
      rmSync(join(cs.workspace, file), { force: true });
    for (const [file, content] of Object.entries(needs.workspaceFiles ?? {})) {
      mkdirSync(dirname(join(cs.workspace, file)), { recursive: true });
      writeFileSync(join(cs.workspace, file), JSON.stringify(content, null, 2));
    }
    writeFileSync(join(cs.workspace, '.vscode', 'settings.json'), JSON.stringify(workspaceSettings, null, 2));
  }
  editor.needs = needs;
  // The views as a new window shows them: Chat and Tools open, Resources collapsed (open, it takes the chat's room).
  for (const [view, open] of [
    ['Chat', true],
    ['Tools', true],
    ['Resources', false],
  ] as const) {
    const header = w.page.locator('.pane-header', { hasText: new RegExp(`^${view}`) }).first();
    const expanded = await header.getAttribute('aria-expanded', { timeout: 1_000 }).catch(() => null);
    if (expanded !== null && (expanded === 'true') !== open) await header.click();
  }
  await w.command('MinAgent: New Chat');
  const chat = await w.webview();
  await waitFor('an empty chat', async () => (await chat.locator('.card, .msg').count()) === 0, 30_000);
}

/**
 * The user settings as they are, with what the test before set put back as it was, without user servers
 * (a test's own), and with `userSettings`: typed into Preferences: Open User Settings (JSON) and saved,
 * as a user edits them.
 */
async function changeUserSettings(editor: SharedEditor, userSettings: Record<string, unknown>): Promise<void> {
  const { w, cs } = editor;
  const next = { ...(await cs.settings('user')) };
  for (const key of [...Object.keys(editor.needs.userSettings ?? {}), 'minagent.servers']) {
    if (key in editor.overwritten) next[key] = editor.overwritten[key];
    else delete next[key];
  }
  editor.overwritten = Object.fromEntries(
    Object.keys(userSettings)
      .filter((key) => key in next)
      .map((key) => [key, next[key]]),
  );
  Object.assign(next, userSettings);
  await w.command('Preferences: Open User Settings (JSON)');
  // The settings file's editor (VS Code opens it over the workbench), not the Output panel a test left open.
  await w.page.locator('.editor-instance .monaco-editor .view-lines').first().click();
  await w.page.keyboard.press('Control+A');
  await w.page.keyboard.press('Backspace');
  await waitFor('the user settings editor emptied', async () => (await w.editorText()).trim() === '', 10_000);
  // One line: typed line by line, the editor would indent what follows a newline itself.
  await w.page.keyboard.insertText(JSON.stringify(next));
  await w.page.keyboard.press('Control+S');
  await waitFor(
    'the user settings saved',
    async () => isDeepStrictEqual(await cs.settings('user').catch(() => undefined), next),
    20_000,
  );
  // VS Code shows the file in an editor over the workbench, which keeps the keyboard (no command palette) until
  // it is closed: Escape closes it, once whatever the JSON editor popped up (a hover, a suggestion) is gone.
  const modal = w.page.locator('.monaco-modal-editor-block');
  await waitFor(
    'the settings editor closed',
    async () => {
      if ((await modal.count()) === 0) return true;
      await w.page.keyboard.press('Escape');
      return false;
    },
    10_000,
  );
  await w.command('View: Close All Editors');
}

/**
 * The shared editor put back for this test, or (none shared, of another kind, opened with another value
 * of a variable the test asks for, or it cannot be put back) a fresh one.
 */
async function editorFor(
  name: string,
  kind: EditorKind,
  workspaceSettings: Record<string, unknown>,
  needs: EditorNeeds = {},
): Promise<SharedEditor> {
  const shared = sharing?.open;
  const env = { ...(sharing ? SHARED_EDITOR_ENV : {}), ...needs.env };
  if (!shared) return openEditor(kind, workspaceSettings, needs, env);
  if (
    shared.kind !== kind ||
    needs.launcher ||
    shared.needs.launcher ||
    Object.entries(needs.env ?? {}).some(([k, v]) => shared.env[k] !== v)
  ) {
    sharing!.open = undefined;
    await closeEditor(shared);
    return openEditor(kind, workspaceSettings, needs, env);
  }
  try {
    await reuseEditor(shared, workspaceSettings, needs);
    return shared;
  } catch (err) {
    // Not this test's failure: it gets a fresh editor, and the log says why.
    console.error(
      `${name}: the shared editor could not be reused (${(err as Error).message}; screenshot: ${await shared.w.screenshot(`${name}-reuse-failed`)}); opening a fresh one`,
    );
    sharing!.open = undefined;
    await closeEditor(shared);
    return openEditor(kind, workspaceSettings, needs, env);
  }
}

/**
 * code-server on the e2e workspace with these servers, its chat on the mock model: waits until the
 * servers' rows say they run (`running`) and the model is in the picker, runs `body`, and on a
 * failure names the screenshot `name-failed`. Everything started is stopped after, unless the
 * process shares one editor (`shareOneEditor`) and the test passed. `needs`: the user settings,
 * environment variables and workspace files the test asks for besides.
 */
export async function inMockChat(
  name: string,
  workspaceSettings: Record<string, unknown>,
  running: (rows: string[]) => boolean,
  body: (t: MockChat) => Promise<void>,
  needs: EditorNeeds = {},
): Promise<void> {
  await inEditor(await editorFor(name, 'e2e', workspaceSettings, needs), async ({ w, cs, mock }) => {
    try {
      await w.waitForRows('the servers running', running, 120_000);
      const chat = await w.webview();
      await chat.locator('#model option', { hasText: 'mock-model' }).waitFor({ state: 'attached' });
      await body({ w, chat, cs, mock });
    } catch (err) {
      throw new Error(
        `${name} e2e failed (screenshot: ${await w.screenshot(`${name}-failed`)}): ${(err as Error).message}`,
      );
    }
  });
}

/**
 * code-server on the demo workspace (as `npm run demo` opens it), its chat on the mock model with
 * `userSettings` beside it, once its MinAgent item shows: runs `body`. Shared as `inMockChat`'s editors are
 * (test/e2e/sharedDemoChat.test.ts): a shared editor comes with every editor closed and a new chat; the
 * chat history, the models the tests before added and what they switched off in the tree stay.
 */
export async function inDemoChat(
  body: (t: Omit<MockChat, 'chat'>) => Promise<void>,
  userSettings: Record<string, unknown> = {},
): Promise<void> {
  await inEditor(await editorFor('demo', 'demo', {}, { userSettings }), body);
}

/**
 * Runs `body` in `editor`, kept open for the next test only when this process shares one and `body`
 * passed; otherwise it is closed (everything it started stopped).
 */
async function inEditor(editor: SharedEditor, body: (editor: SharedEditor) => Promise<void>): Promise<void> {
  if (sharing) sharing.open = editor;
  let passed = false;
  try {
    await body(editor);
    passed = true;
  } finally {
    if (!sharing || !passed) {
      if (sharing) sharing.open = undefined;
      await closeEditor(editor);
    }
  }
}
