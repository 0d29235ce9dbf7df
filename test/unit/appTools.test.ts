// The tools a live app view offers: checked and bounded (THREATS class 9), named under the app's server, in the hub's
// registry only while the view lives, and each call answered as a string that never throws.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ServerHub } from '../../src/core/mcp/hub/serverHub';
import { checkAppTools, MAX_DESCRIPTION_CHARS, MAX_TOOLS_PER_VIEW } from '../../src/core/mcp/tools/appTools';
import type { AppToolView } from '../../src/core/mcp/tools/appTools';

const view = (over: Partial<AppToolView> = {}): AppToolView => ({
  server: 'apps',
  serverIdentity: 'id-apps',
  appOf: 'show_chart',
  resourceUri: 'ui://apps/chart.html',
  call: async (name, args) => ({ content: [{ type: 'text', text: `${name} ${JSON.stringify(args)}` }] }),
  maxChars: () => 50_000,
  ...over,
});

test('a hostile tools/list: bad names, duplicates, huge schemas and descriptions, too many tools', () => {
  const many = Array.from({ length: 40 }, (_, i) => ({ name: `t${i}`, inputSchema: { type: 'object' } }));
  const { tools, problems } = checkAppTools(
    {
      tools: [
        { name: 'ok', description: 'x'.repeat(5_000), inputSchema: { type: 'object' } },
        { name: 'ok', inputSchema: { type: 'object' } },
        { name: 'has space', inputSchema: { type: 'object' } },
        { name: 'no_schema' },
        { name: 'huge', inputSchema: { type: 'object', description: 'y'.repeat(20_000) } },
        { name: 'annotated', inputSchema: { type: 'object' }, annotations: { readOnlyHint: 'yes' } },
        ...many,
      ],
    },
    { appOf: 'show_chart', server: 'apps' },
  );
  assert.equal(tools.length, MAX_TOOLS_PER_VIEW);
  assert.equal(tools[0]!.name, 'ok');
  assert.ok(tools[0]!.description.length < MAX_DESCRIPTION_CHARS + 80);
  assert.match(tools[0]!.description, /description cut at 1000 characters/);
  assert.equal(tools.find((t) => t.name === 'annotated')!.annotations, undefined, 'annotations that are not booleans');
  const said = problems.join('\n');
  assert.match(said, /the app of tool "show_chart" \(server "apps"\) offered tool "ok" twice; it was left out/);
  assert.match(said, /offered tool #3 without a name of letters/);
  assert.match(said, /tool "no_schema" with an inputSchema that is not an object/);
  assert.match(said, /tool "huge" with an inputSchema too large/);
  assert.match(said, /past the first 20/);
  assert.deepEqual(checkAppTools('nonsense', { appOf: 'a', server: 's' }).tools, []);
});

test("a view's tools are in the registry, under its server, only while it lives; a call after it closed says so", async () => {
  const hub = new ServerHub();
  try {
    const { tools } = checkAppTools(
      { tools: [{ name: 'pick', description: 'What was picked', inputSchema: { type: 'object' } }] },
      { appOf: 'show_chart', server: 'apps' },
    );
    const first = hub.appTools.offer(view(), tools);
    const second = hub.appTools.offer(view(), tools);
    assert.deepEqual(hub.registry.names(), ['apps.app.pick', 'apps.app2.pick']);
    const tool = hub.registry.get('apps.app.pick')!;
    assert.equal(tool.server, 'apps');
    assert.equal(tool.remoteName, 'app:ui://apps/chart.html#pick', 'its approvals are per app and tool');
    assert.match(tool.describeCall!({})!, /a tool of the app of tool "show_chart" of server "apps"/);
    assert.equal(await hub.registry.call('apps.app.pick', { a: 1 }), 'pick {"a":1}');
    const stale = tool;
    assert.equal(
      hub.registry.get('apps.app2.pick')!.remoteName,
      'app2:ui://apps/chart.html#pick',
      'an approval of one view never runs the other',
    );
    first.dispose();
    assert.deepEqual(hub.registry.names(), ['apps.app2.pick'], 'the other view keeps its names');
    const third = hub.appTools.offer(view(), tools);
    assert.deepEqual(
      hub.registry.names().sort(),
      ['apps.app.pick', 'apps.app2.pick'],
      'a new view takes the free place',
    );
    third.dispose();
    assert.match(await stale.call({}).then((r) => (typeof r === 'string' ? r : r.text)), /was closed; nothing was run/);
    second.update([]);
    assert.deepEqual(hub.registry.names(), []);
    second.dispose();
  } finally {
    await hub.closeAll();
  }
});

test('a view that fails or hangs gives the model an error, never a throw', async () => {
  const hub = new ServerHub();
  try {
    const { tools } = checkAppTools({ tools: [{ name: 'boom', inputSchema: { type: 'object' } }] }, view());
    const offered = hub.appTools.offer(
      view({
        call: async () => {
          throw new Error('Request timed out');
        },
      }),
      tools,
    );
    const text = await hub.registry.call('apps.app.boom', {});
    assert.match(JSON.parse(text).error, /the app of tool "show_chart" did not answer tool "boom": Request timed out/);
    offered.dispose();
  } finally {
    await hub.closeAll();
  }
});
