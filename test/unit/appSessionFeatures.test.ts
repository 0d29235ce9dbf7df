// MCP Apps through the real AppBridge, with an ext-apps App on the relay's other end: what an app is told of its
// host on ui/initialize (toolInfo), and in each place an app is shown (its card, an editor tab, pinned) the tools a
// view offers, sampling, a download, teardown before a view goes, only the display modes an app declared, fonts, and
// a call the app renders while it runs.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { App } from '@modelcontextprotocol/ext-apps';
import { AppSession, type AppCall, type AppHost, type DisplayMode } from '../../src/extension/apps/appSession';
import { RelayTransport } from '../../src/extension/apps/relayTransport';

const LOOK = {
  theme: 'dark' as const,
  width: 400,
  variables: { '--font-sans': '"Segoe UI", Ubuntu, sans-serif', '--font-mono': 'Droid Sans Mono, monospace' },
};
const TOOL = { name: 'show_kit', description: 'Shows the kit.', inputSchema: { type: 'object', properties: {} } };

interface Pair {
  session: AppSession;
  app: App;
  calls: Record<string, unknown[]>;
}

/** A session in `mode` and a connected App declaring `capabilities`; `hooks` set on the App before it connects. */
async function pair(
  mode: DisplayMode,
  capabilities: ConstructorParameters<typeof App>[1] = {},
  call: Partial<AppCall> = {},
  hooks: (app: App) => void = () => {},
): Promise<Pair> {
  const calls: Record<string, unknown[]> = {};
  const note = (name: string, value: unknown) => (calls[name] ??= []).push(value);
  let session: AppSession | undefined;
  // The app's end of the relay: what the session posts arrives there, and what the app sends goes to the session.
  const end = new RelayTransport((m) => session?.deliver(m));
  const host: AppHost = {
    callTool: async () => ({ content: [] }),
    readResource: async () => ({ contents: [] }),
    message: () => undefined,
    openLink: async () => false,
    updateContext: () => undefined,
    resize: () => undefined,
    requestDisplayMode: (m) => (note('requestDisplayMode', m), m as DisplayMode),
    post: (m) => queueMicrotask(() => end.receive(m)),
    record: () => undefined,
    log: () => undefined,
    sample: async (params) => {
      note('sample', params);
      return { role: 'assistant', model: 'mock', content: { type: 'text', text: 'hello, kit' } };
    },
    download: async (contents) => (note('download', contents), true),
    ready: (modes, offersTools) => note('ready', { modes, offersTools }),
    toolsChanged: () => note('toolsChanged', true),
    requestTeardown: () => note('requestTeardown', true),
  };
  session = new AppSession({ tool: TOOL, arguments: { label: 'k' }, ...call }, host, LOOK, mode);
  await session.start();
  // No autoResize: it measures a document, and there is none here.
  const app = new App({ name: 'kit', version: '1.0.0' }, capabilities, { autoResize: false });
  hooks(app);
  await app.connect(end);
  return { session, app, calls };
}

const until = async (what: string, ok: () => boolean) => {
  for (let i = 0; i < 200 && !ok(); i++) await new Promise((r) => setTimeout(r, 10));
  assert.ok(ok(), what);
};

test('an app learns on ui/initialize which tool call made it (toolInfo), and its theme and display mode', async () => {
  const tool = { name: 'show_chart', description: 'Shows a chart.', inputSchema: { type: 'object', properties: {} } };
  const { session, app } = await pair('inline', {}, { tool, arguments: { values: [1, 2] } });
  const context = app.getHostContext();
  assert.equal(context?.toolInfo?.tool.name, 'show_chart');
  assert.equal(context?.toolInfo?.tool.description, 'Shows a chart.');
  assert.deepEqual([context?.theme, context?.displayMode], ['dark', 'inline']);
  session.dispose();
  await app.close();
});

for (const mode of ['inline', 'fullscreen', 'pip'] as const) {
  describe(`an app shown ${mode === 'inline' ? 'in its card' : mode === 'fullscreen' ? 'in an editor tab' : 'pinned'}`, () => {
    test('the tools it offers are listed and called through the bridge; it is told when they change', async () => {
      const { session, app, calls } = await pair(mode, { tools: { listChanged: true } }, {}, (a) =>
        a.registerTool('kit_pick', { description: 'What was picked.' }, async () => ({
          content: [{ type: 'text', text: 'picked: blue' }],
        })),
      );
      await until('ready', () => !!calls.ready);
      assert.deepEqual(calls.ready, [{ modes: ['inline', 'fullscreen', 'pip'], offersTools: true }]);
      const listed = (await session.listTools(5_000)) as { tools: Array<{ name: string }> };
      assert.deepEqual(
        listed.tools.map((t) => t.name),
        ['kit_pick'],
      );
      const result = await session.callTool('kit_pick', {}, 5_000);
      assert.equal((result.content[0] as { text: string }).text, 'picked: blue');
      app.registerTool('kit_more', { description: 'Another.' }, async () => ({ content: [] }));
      await until('toolsChanged', () => !!calls.toolsChanged);
      session.dispose();
      await app.close();
    });

    test('sampling and a download go to the host, which answers the app', async () => {
      const { session, app, calls } = await pair(mode);
      assert.ok(app.getHostCapabilities()?.sampling, 'the host says it samples for apps');
      assert.ok(app.getHostCapabilities()?.downloadFile, 'the host says it saves files for apps');
      const sampled = await app.createSamplingMessage({
        messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }],
        maxTokens: 16,
      });
      assert.deepEqual(sampled.content, { type: 'text', text: 'hello, kit' });
      assert.equal((calls.sample![0] as { maxTokens: number }).maxTokens, 16);
      const file = { type: 'resource' as const, resource: { uri: 'file:///r.csv', text: 'a,b' } };
      const saved = await app.downloadFile({ contents: [file] });
      assert.ok(!saved.isError);
      assert.deepEqual(calls.download, [[file]]);
      session.dispose();
      await app.close();
    });

    test('teardown: the app is told before it goes, and may tidy up; one that never answers is not waited for', async () => {
      const order: string[] = [];
      const tidy = await pair(mode, {}, {}, (a) => {
        a.onteardown = async () => {
          await new Promise((r) => setTimeout(r, 50));
          order.push('app tidied');
          return {};
        };
      });
      await tidy.session.teardown();
      order.push('host went on');
      assert.deepEqual(order, ['app tidied', 'host went on']);
      const stuck = await pair(mode, {}, {}, (a) => {
        a.onteardown = () => new Promise(() => {});
      });
      const started = Date.now();
      await stuck.session.teardown(300);
      assert.ok(Date.now() - started < 2_000, 'bounded');
      await tidy.app.close();
      await stuck.app.close();
    });

    test('only the display modes it declared: the context says so, and another ask leaves it where it is', async () => {
      const declared: DisplayMode[] = mode === 'fullscreen' ? ['fullscreen'] : [mode, 'inline'];
      const { session, app, calls } = await pair(mode, { availableDisplayModes: declared });
      await until('the narrowed modes', () => (app.getHostContext()?.availableDisplayModes ?? []).length < 3);
      assert.deepEqual([...(app.getHostContext()?.availableDisplayModes ?? [])].sort(), [...new Set(declared)].sort());
      const other = mode === 'pip' ? 'fullscreen' : 'pip';
      const answer = await app.requestDisplayMode({ mode: other });
      assert.equal(answer.mode, mode, 'an undeclared mode is not granted');
      assert.equal(calls.requestDisplayMode, undefined, 'the host was not even asked');
      session.dispose();
      await app.close();
    });

    test("fonts: the editor's font families as local faces; generic names are left out", async () => {
      const { session, app } = await pair(mode);
      const fonts = app.getHostContext()?.styles?.css?.fonts ?? '';
      assert.match(fonts, /@font-face \{ font-family: "Segoe UI"; src: local\("Segoe UI"\); \}/);
      assert.match(fonts, /"Droid Sans Mono"/);
      assert.doesNotMatch(fonts, /sans-serif|monospace"/);
      session.dispose();
      await app.close();
    });

    test('a call still running: the app gets its input at once, then the result, or the reason it was cancelled', async () => {
      for (const ending of ['result', 'cancelled'] as const) {
        const seen: string[] = [];
        const { session, app } = await pair(mode, {}, { result: undefined }, (a) => {
          a.ontoolinput = (p) => seen.push(`input ${JSON.stringify(p.arguments)}`);
          a.ontoolresult = (r: CallToolResult) => seen.push(`result ${(r.content[0] as { text: string }).text}`);
          a.ontoolcancelled = (p) => seen.push(`cancelled ${p.reason}`);
        });
        await until('the input', () => seen.length === 1);
        if (ending === 'result') session.toolResult({ content: [{ type: 'text', text: 'done' }] });
        else session.toolCancelled('user action');
        await until('the end', () => seen.length === 2);
        assert.deepEqual(seen, ['input {"label":"k"}', ending === 'result' ? 'result done' : 'cancelled user action']);
        session.dispose();
        await app.close();
      }
    });

    test('while the model writes the call: partial inputs, then the whole input once, then nothing partial', async () => {
      const seen: string[] = [];
      const { session, app } = await pair(mode, {}, { arguments: { label: 'wr' }, partial: true }, (a) => {
        a.ontoolinputpartial = (p) => seen.push(`partial ${JSON.stringify(p.arguments)}`);
        a.ontoolinput = (p) => seen.push(`input ${JSON.stringify(p.arguments)}`);
      });
      await until('the first partial', () => seen.length === 1);
      session.toolInputPartial({ label: 'writ' });
      session.toolInput({ label: 'written' });
      session.toolInputPartial({ label: 'late' });
      session.toolInput({ label: 'again' });
      await until('the input', () => seen.length === 3);
      await new Promise((r) => setTimeout(r, 50));
      assert.deepEqual(seen, ['partial {"label":"wr"}', 'partial {"label":"writ"}', 'input {"label":"written"}']);
      session.dispose();
      await app.close();
    });

    test('an app that asks to be closed is heard', async () => {
      const { session, app, calls } = await pair(mode);
      await app.requestTeardown();
      await until('requestTeardown', () => !!calls.requestTeardown);
      session.dispose();
      await app.close();
    });
  });
}
