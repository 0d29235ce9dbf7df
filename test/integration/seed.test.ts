// The seed chapter's scenario, end to end against the real fixture servers over stdio.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { Agent } from '../../src/core/agent/agent';
import { ScriptedModel } from '../scriptedModel';
import { ServerHub } from '../../src/core/mcp/hub/serverHub';
import { McpToolSource } from '../../src/core/mcp/connection/source';
import { ToolRegistry } from '../../src/core/toolRegistry/toolRegistry';
import { fixture, parseError } from '../helpers';

const SEED_NAMES = ['echo', 'search_corpus', 'word_count', 'analytics.echo', 'analytics.row_count'];

describe('the seed scenario', () => {
  const hubs: ServerHub[] = [];
  after(() => Promise.all(hubs.map((h) => h.closeAll())));

  for (const first of ['research', 'analytics'] as const) {
    test(`research + analytics give the seed's names when ${first} connects first`, async () => {
      // The other server starts only once the first is running: an ordering by events, not by delay.
      const gate = join(mkdtempSync(join(tmpdir(), 'minagent-gate-')), 'open');
      const held = { env: { FIXTURE_START_GATE: gate } };
      const hub = new ServerHub();
      hubs.push(hub);
      const connectedOrder: string[] = [];
      hub.onDidChangeServers(() => {
        for (const s of hub.servers())
          if (s.state.kind === 'running' && !connectedOrder.includes(s.name)) connectedOrder.push(s.name);
        if (connectedOrder.length === 1) writeFileSync(gate, '');
      });
      hub.reconcile([
        fixture('research', 'research.mjs', [], first === 'analytics' ? held : {}),
        fixture('analytics', 'analytics.mjs', [], first === 'research' ? held : {}),
      ]);
      await hub.whenIdle();
      assert.deepEqual(connectedOrder, first === 'research' ? ['research', 'analytics'] : ['analytics', 'research']);
      assert.deepEqual(hub.registry.names(), SEED_NAMES);
      assert.equal(await hub.registry.call('echo', { text: 'hi' }), 'hi');
      assert.equal(await hub.registry.call('analytics.echo', { text: 'hi' }), '[analytics] hi');
      assert.equal(await hub.registry.call('analytics.row_count', { table: 'papers' }), '128');
      assert.equal(
        parseError(await hub.registry.call('analytics.row_count', { table: 'nope' })),
        'unknown table: nope',
      );
      await hub.closeAll();
    });
  }

  test('the adapter: register with a namespace, unknown remote tool, call after close', async () => {
    const registry = new ToolRegistry();
    const research = new McpToolSource(fixture('research', 'research.mjs'));
    const analytics = new McpToolSource(fixture('analytics', 'analytics.mjs'));
    try {
      await Promise.all([research.connect(), analytics.connect()]);
      assert.deepEqual(await research.register(registry), ['echo', 'search_corpus', 'word_count']);
      assert.deepEqual(await analytics.register(registry, { namespace: 'analytics' }), [
        'analytics.echo',
        'analytics.row_count',
      ]);
      assert.deepEqual(registry.names(), SEED_NAMES);
      const first = (await research.listTools())[0]!;
      assert.throws(
        () => registry.add(research.toTool(first)),
        /already registered/,
        'a clash is never a silent overwrite',
      );

      // The chapter's pitfall: the schema must come from inputSchema, never be empty.
      const schema = registry.schemas().find((s) => s.name === 'search_corpus')!.parameters as {
        properties: Record<string, unknown>;
        required: string[];
      };
      assert.deepEqual(Object.keys(schema.properties).sort(), ['limit', 'query']);
      assert.deepEqual(schema.required, ['query']);

      // The server's own text for an unknown tool, inside {"error": ...}.
      const unknown = parseError(await research.call('no_such_tool', {}));
      assert.match(unknown, /no_such_tool/);
      assert.match(unknown, /not found|unknown tool/i);
    } finally {
      await research.close();
      await analytics.close();
    }
    assert.equal(await registry.call('echo', { text: 'x' }), '{"error":"mcp server not connected"}');
    assert.equal(await research.call('echo', { text: 'x' }), '{"error":"mcp server not connected"}');
  });

  test('a ScriptedModel-driven agent answers "what is MCP?" through search_corpus over MCP', async () => {
    const hub = new ServerHub();
    hubs.push(hub);
    hub.reconcile([fixture('research', 'research.mjs'), fixture('analytics', 'analytics.mjs')]);
    await hub.whenIdle();
    const model = new ScriptedModel([
      { toolCalls: [{ name: 'search_corpus', arguments: { query: 'mcp' } }] },
      { final: 'MCP is an open protocol for connecting tools.' },
    ]);
    const agent = new Agent(model, hub.registry, { system: 'You answer from the corpus.' });
    const result = await agent.run('what is MCP?');

    assert.deepEqual(
      result.steps.map((s) => s.kind),
      ['tool_call', 'final'],
    );
    assert.match(result.steps[0]!.detail, /^search_corpus -> mcp: MCP \(Model Context Protocol\) is an open protocol/);
    assert.equal(result.steps[0]!.tool?.server, 'research');
    assert.equal(result.final, 'MCP is an open protocol for connecting tools.');
    // The model saw the same tools a local registry would show, under wire names, with real schemas.
    assert.deepEqual(
      model.calls[0]!.tools.map((t) => t.name),
      ['echo', 'search_corpus', 'word_count', 'analytics__echo', 'analytics__row_count'],
    );
    const toolMessage = model.calls[1]!.messages.find((m) => m.role === 'tool');
    assert.ok(toolMessage?.content.includes('open protocol'), 'the second model turn saw the corpus text');
    assert.deepEqual(
      model.calls[0]!.messages.map((m) => m.role),
      ['system', 'user'],
    );
    await hub.closeAll();
  });
});
