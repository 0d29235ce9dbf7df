// Issue 53 item 15, on the demo's charts server (a chart tool and a tool kept for its app): the Tools
// view, the status bar and the context meter count the same tools (what the model can be sent) and
// say the app-only one apart; and an app's ui:// page is not a document to attach to a message.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { estimateCounter } from '../../src/core/budget/tokens';
import { measureRequest } from '../../src/core/budget/breakdown';
import { attachableResources, Attachments } from '../../src/core/chat/attachments';
import { ServerHub } from '../../src/core/mcp/hub/serverHub';
import { countTools, toolCountText, uncountedNote } from '../../src/core/toolRegistry/toolCounts';
import { fixture, offerOf } from '../helpers';

describe("apps' tools and pages, counted and listed", { timeout: 60_000 }, () => {
  const hub = new ServerHub();
  before(async () => {
    hub.reconcile([
      fixture('charts', 'apps.mjs', [], { env: { APPS_DEMO: '1' } }),
      fixture('research', 'research.mjs'),
    ]);
    await hub.whenIdle();
  });
  after(() => hub.closeAll());

  test('the tree row, the status bar and the meter agree on what the model is sent; the app-only tool is said apart', async () => {
    const charts = hub.registry.list().filter((t) => t.server === 'charts');
    assert.deepEqual(charts.map((t) => t.name).sort(), ['refresh_data', 'show_chart'], 'the tree lists both');
    // The meter: the tools the next request carries, by server.
    const sent = offerOf(hub.registry)
      .enabled()
      .map((t) => ({ server: t.tool.server ?? '', schema: t.schema }));
    const meter = await measureRequest({
      limits: { window: { tokens: 100_000, source: 'test' }, counter: estimateCounter },
      system: '',
      history: [],
      draft: '',
      tools: sent,
    });
    const meterCharts = meter.tools.find((t) => t.server === 'charts')!.count;
    assert.equal(meterCharts, 1);
    // The tree row: the same number (short: the row is read at the sidebar's default width); the app-only
    // tool is said in the row's tooltip, and on its own row ("apps only").
    assert.equal(toolCountText(countTools(charts)), '1 tool');
    assert.match(uncountedNote(countTools(charts)) ?? '', /^1 app-only tool is kept by its server for its apps/);
    assert.equal(countTools(charts).model, meterCharts);
    // The status bar: every tool the model can be sent, as the meter's total.
    const all = countTools(hub.registry.list());
    assert.equal(
      all.model,
      meter.tools.reduce((a, t) => a + t.count, 0),
    );
    assert.equal(all.appOnly, 1);
    // Switched off one by one, a tool leaves the first number, as it leaves the meter.
    const research = hub.registry.list().filter((t) => t.server === 'research');
    assert.equal(
      toolCountText(countTools(research, (t) => t.name !== 'echo')),
      `${research.length - 1} of ${research.length} tools`,
    );
  });

  test("Add to Chat leaves out an app's ui:// page; attaching one anyway is refused, saying why", async () => {
    const listed = hub.catalog.resources().map((r) => r.uri);
    assert.ok(listed.includes('ui://apps/chart.html'), 'the server lists its app page');
    assert.deepEqual(
      attachableResources(hub.catalog.resources()).map((r) => r.uri),
      listed.filter((u) => !u.startsWith('ui://')),
    );
    const attachments = new Attachments({
      read: (s, u) => hub.catalog.readResource(s, u),
      counter: async () => estimateCounter,
      maxChars: () => 50_000,
    });
    const failed = await attachments.add('charts', 'UI://apps/chart.html', 'chart-app');
    assert.match(failed?.error ?? '', /is an app's page \(MCP Apps\), not a document/);
    assert.deepEqual(attachments.chips(), []);
  });
});
