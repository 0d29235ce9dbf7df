// code-server on the demo workspace with its chat on the mock model server (OpenAI-compatible).
import { writeFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { join } from 'node:path';
import { after } from 'node:test';
import type { Frame } from 'playwright-core';
import { listeningFixture, waitFor } from '../helpers';
import { startCodeServer } from './codeServer';
import { Workbench } from './workbench';

/** The user settings that put the chat on the mock model listening on `port`. */
const onMockModel = (port: string) => ({ 'minagent.chat.provider': 'openai', 'minagent.chat.baseUrl': `http://127.0.0.1:${port}/v1`, 'minagent.chat.model': 'mock-model' });

/** `extensions` (of fixtures/extensions) and `userSettings` come beside the demo's own. */
export async function startDemoWithMockModel(options: { extensions?: string[]; userSettings?: Record<string, unknown> } = {}): Promise<{ mock: Awaited<ReturnType<typeof listeningFixture>>; cs: Awaited<ReturnType<typeof startCodeServer>> }> {
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
  body: { messages: Array<{ role: string; content: unknown }>; max_tokens?: number; tools?: Array<{ function: { name: string } }> };
}

/** The requests the mock model server has seen, oldest first. */
export async function requests(port: string): Promise<SeenRequest[]> {
  return (await (await fetch(`http://127.0.0.1:${port}/requests`)).json()) as SeenRequest[];
}

/** What a test run in a chat on the mock model gets: the editor, its chat page, the editor's process and the model's. */
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

/** An editor with its chat on the mock model, kept for the next test of a file that shares one. */
type SharedEditor = Omit<MockChat, 'chat'> & { kind: EditorKind; userSettings: Record<string, unknown> };

/**
 * Whether this process's tests share one editor (`shareOneEditor`), the one open now, and the user
 * settings a shared demo editor opens with.
 */
let sharing: { open?: SharedEditor; demoSettings: Record<string, unknown> } | undefined;

/**
 * Makes the `inMockChat` (or `inDemoChat`) tests of this process share one editor (code-server, its browser
 * and the mock model): each workbench costs ~12 CPU-seconds before a test acts, and the e2e stage is CPU-bound. A file
 * that imports several test files calls it (test/e2e/sharedMockChat.test.ts, sharedDemoChat.test.ts); each of those files run
 * alone still opens its own. Between tests the editor is put back as a user would: the workspace's
 * servers rewritten in its settings, every editor closed, a new chat; the mock model forgets its requests.
 * A test that fails leaves its editor closed, and the next one opens a fresh one. `demoSettings`: the user
 * settings the demo editor opens with, those its `inDemoChat` tests ask for together (VS Code does not
 * take up a change made to the user's settings file once it has written the file itself, as the chat does
 * on its first activation, so they cannot be changed between tests).
 */
export function shareOneEditor(demoSettings: Record<string, unknown> = {}): void {
  sharing = { demoSettings };
  after(async () => {
    if (sharing?.open) await closeEditor(sharing.open);
    sharing = undefined;
  });
}

async function openEditor(kind: EditorKind, workspaceSettings: Record<string, unknown>, userSettings: Record<string, unknown> = {}): Promise<SharedEditor> {
  const mock = await listeningFixture('fixtures/models/mock-model.mjs');
  let cs: SharedEditor['cs'] | undefined;
  try {
    // The e2e workspace a copy, its servers the test's.
    cs = await startCodeServer(kind === 'demo' ? demoOptions(mock.port, { userSettings }) : { workspace: 'e2e', workspaceSettings, userSettings: { ...onMockModel(mock.port), ...userSettings } });
    const w = await Workbench.open(cs.url);
    // On a loaded machine the extensions' activity bar items can take minutes to show.
    if (kind === 'demo') await w.page.locator('.activitybar .action-item:has([aria-label^="MinAgent"])').first().waitFor({ timeout: 240_000 });
    else await w.openMinAgent();
    return { w, cs, mock, kind, userSettings };
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
 * The shared editor made ready for the next test: its servers are `workspaceSettings`'s (the e2e
 * workspace's; the demo's are its own), nothing open, a new chat.
 */
async function reuseEditor({ w, cs, mock, kind }: SharedEditor, workspaceSettings: Record<string, unknown>): Promise<void> {
  for (let i = 0; i < 3; i++) await w.page.keyboard.press('Escape'); // a menu, quick input or dialog left open
  await fetch(`http://127.0.0.1:${mock.port}/reset`, { method: 'POST' });
  if (kind === 'e2e') writeFileSync(join(cs.workspace, '.vscode', 'settings.json'), JSON.stringify(workspaceSettings, null, 2));
  await w.command('View: Close All Editors');
  // The views as a new window shows them: Tools open, Resources collapsed (open, it takes the chat's room).
  for (const [view, open] of [['Tools', true], ['Resources', false]] as const) {
    const header = w.page.locator('.pane-header', { hasText: new RegExp(`^${view}`) }).first();
    const expanded = await header.getAttribute('aria-expanded', { timeout: 1_000 }).catch(() => null);
    if (expanded !== null && (expanded === 'true') !== open) await header.click();
  }
  await w.command('MinAgent: New Chat');
  const chat = await w.webview();
  await waitFor('an empty chat', async () => (await chat.locator('.card, .msg').count()) === 0, 30_000);
}

/**
 * The shared editor put back for this test, or (none shared, of another kind, opened with other user
 * settings than `userSettings`, or it cannot be put back) a fresh one.
 */
async function editorFor(name: string, kind: EditorKind, workspaceSettings: Record<string, unknown>, userSettings: Record<string, unknown> = {}): Promise<SharedEditor> {
  const shared = sharing?.open;
  const opening = { ...(kind === 'demo' ? sharing?.demoSettings : {}), ...userSettings };
  if (!shared) return openEditor(kind, workspaceSettings, opening);
  if (shared.kind !== kind || !isDeepStrictEqual(shared.userSettings, opening)) {
    sharing!.open = undefined;
    await closeEditor(shared);
    return openEditor(kind, workspaceSettings, opening);
  }
  try {
    await reuseEditor(shared, workspaceSettings);
    return shared;
  } catch (err) {
    // Not this test's failure: it gets a fresh editor, and the log says why.
    console.error(`${name}: the shared editor could not be reused (${(err as Error).message}); opening a fresh one`);
    sharing!.open = undefined;
    await closeEditor(shared);
    return openEditor(kind, workspaceSettings, opening);
  }
}

/**
 * code-server on the e2e workspace with these servers, its chat on the mock model: waits until the
 * servers' rows say they run (`running`) and the model is in the picker, runs `body`, and on a
 * failure names the screenshot `name-failed`. Everything started is stopped after, unless the
 * process shares one editor (`shareOneEditor`) and the test passed.
 */
export async function inMockChat(name: string, workspaceSettings: Record<string, unknown>, running: (rows: string[]) => boolean, body: (t: MockChat) => Promise<void>): Promise<void> {
  await inEditor(await editorFor(name, 'e2e', workspaceSettings), async ({ w, cs, mock }) => {
    try {
      await w.waitForRows('the servers running', running, 120_000);
      const chat = await w.webview();
      await chat.locator('#model option', { hasText: 'mock-model' }).waitFor({ state: 'attached' });
      await body({ w, chat, cs, mock });
    } catch (err) {
      throw new Error(`${name} e2e failed (screenshot: ${await w.screenshot(`${name}-failed`)}): ${(err as Error).message}`);
    }
  });
}

/**
 * code-server on the demo workspace (as `npm run demo` opens it), its chat on the mock model with
 * `userSettings` beside it, once its MinAgent item shows: runs `body`. Shared as `inMockChat`'s editors are
 * (test/e2e/sharedDemoChat.test.ts): a shared editor comes with every editor closed and a new chat; the
 * chat history, the models the tests before added and what they switched off in the tree stay.
 */
export async function inDemoChat(body: (t: Omit<MockChat, 'chat'>) => Promise<void>, userSettings: Record<string, unknown> = {}): Promise<void> {
  await inEditor(await editorFor('demo', 'demo', {}, userSettings), body);
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
