// code-server on the demo workspace with its chat on the mock model server (OpenAI-compatible).
import type { Frame } from 'playwright-core';
import { listeningFixture } from '../helpers';
import { startCodeServer } from './codeServer';
import { Workbench } from './workbench';

/** `extensions` (of fixtures/extensions) and `userSettings` come beside the demo's own. */
export async function startDemoWithMockModel(options: { extensions?: string[]; userSettings?: Record<string, unknown> } = {}): Promise<{ mock: Awaited<ReturnType<typeof listeningFixture>>; cs: Awaited<ReturnType<typeof startCodeServer>> }> {
  const mock = await listeningFixture('fixtures/models/mock-model.mjs');
  // The demo workspace itself, as `npm run demo` opens it.
  const cs = await startCodeServer({
    workspace: 'demo',
    inPlace: true,
    extensions: options.extensions,
    userSettings: { 'minagent.chat.provider': 'openai', 'minagent.chat.baseUrl': `http://127.0.0.1:${mock.port}/v1`, 'minagent.chat.model': 'mock-model', ...options.userSettings },
  });
  return { mock, cs };
}

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
 * code-server on the e2e workspace with these servers, its chat on the mock model: waits until the
 * servers' rows say they run (`running`) and the model is in the picker, runs `body`, and on a
 * failure names the screenshot `name-failed`. Everything started is stopped after.
 */
export async function inMockChat(name: string, workspaceSettings: Record<string, unknown>, running: (rows: string[]) => boolean, body: (t: MockChat) => Promise<void>): Promise<void> {
  const mock = await listeningFixture('fixtures/models/mock-model.mjs');
  const cs = await startCodeServer({
    workspace: 'e2e',
    workspaceSettings,
    userSettings: { 'minagent.chat.provider': 'openai', 'minagent.chat.baseUrl': `http://127.0.0.1:${mock.port}/v1`, 'minagent.chat.model': 'mock-model' },
  });
  let w: Workbench | undefined;
  try {
    w = await Workbench.open(cs.url);
    await w.openMinAgent();
    await w.waitForRows('the servers running', running, 120_000);
    const chat = await w.webview();
    try {
      await chat.locator('#model option', { hasText: 'mock-model' }).waitFor({ state: 'attached' });
      await body({ w, chat, cs, mock });
    } catch (err) {
      throw new Error(`${name} e2e failed (screenshot: ${await w.screenshot(`${name}-failed`)}): ${(err as Error).message}`);
    }
  } finally {
    await w?.close();
    await cs.stop();
    mock.child.stdin!.end();
  }
}
