// What an app is told of its host on ui/initialize, through the real AppBridge and an ext-apps App on the other end of
// the relay: the theme and display mode, and the tool call that made it (the spec's toolInfo).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import { App } from '@modelcontextprotocol/ext-apps';
import { AppSession, type AppHost } from '../../src/extension/apps/appSession';

/** The app's end of the relay: what the session posts arrives here, and what the app sends goes to the session. */
class AppEnd implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  constructor(private readonly toHost: (message: JSONRPCMessage) => void) {}
  async start(): Promise<void> {}
  async send(message: JSONRPCMessage): Promise<void> {
    this.toHost(message);
  }
  async close(): Promise<void> {
    this.onclose?.();
  }
}

test('an app learns on ui/initialize which tool call made it (toolInfo), and its theme and display mode', async () => {
  let session: AppSession | undefined;
  const end = new AppEnd((m) => session?.deliver(m));
  const host: AppHost = {
    callTool: async () => ({ content: [] }),
    readResource: async () => ({ contents: [] }),
    message: () => undefined,
    openLink: async () => false,
    updateContext: () => undefined,
    resize: () => undefined,
    requestDisplayMode: () => 'inline',
    post: (m) => queueMicrotask(() => end.onmessage?.(m)),
    record: () => undefined,
    log: () => undefined,
  };
  const tool = { name: 'show_chart', description: 'Shows a chart.', inputSchema: { type: 'object', properties: {} } };
  session = new AppSession({ tool, arguments: { values: [1, 2] } }, host, {
    theme: 'dark',
    variables: {},
    width: 400,
  });
  await session.start();
  // No autoResize: it measures a document, and there is none here.
  const app = new App({ name: 'test-app', version: '1.0.0' }, {}, { autoResize: false });
  await app.connect(end);
  const context = app.getHostContext();
  assert.equal(context?.toolInfo?.tool.name, 'show_chart');
  assert.equal(context?.toolInfo?.tool.description, 'Shows a chart.');
  assert.deepEqual([context?.theme, context?.displayMode], ['dark', 'inline']);
  session.dispose();
  await app.close();
});
