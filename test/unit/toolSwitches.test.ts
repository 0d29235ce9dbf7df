import assert from 'node:assert/strict';
import { test } from 'node:test';
import { measureRequest } from '../../src/core/budget/breakdown';
import { estimateCounter } from '../../src/core/budget/tokens';
import { ToolSwitches, type SwitchState } from '../../src/core/toolRegistry/toolSwitches';
import { ToolIndex } from '../../src/core/toolSearch/toolIndex';
import { ToolOffer } from '../../src/core/toolSearch/toolOffer';
import { ToolRegistry, type Tool } from '../../src/core/toolRegistry/toolRegistry';

function setup() {
  let stored: SwitchState | undefined;
  const switches = new ToolSwitches({ get: () => stored, set: async (s) => void (stored = s) });
  const registry = new ToolRegistry();
  const tool = (name: string, server: string, remoteName = name): Tool => ({
    name,
    server,
    remoteName,
    description: `${name} tool`,
    parameters: { type: 'object' },
    call: async () => 'ok',
  });
  registry.replaceAll([
    tool('echo', 'research'),
    tool('analytics.echo', 'analytics', 'echo'),
    tool('row_count', 'analytics'),
  ]);
  return { switches, registry, stored: () => stored };
}

test('a server or a tool switched off is not offered; the reason names it; the state is what is stored', async () => {
  const { switches, registry, stored } = setup();
  let changes = 0;
  switches.onDidChange(() => changes++);
  const offer = new ToolOffer({ registry, index: new ToolIndex(registry), isOn: (t) => switches.isOn(t) });
  const offered = () => offer.plan([], 100_000).tools.map((t) => t.name);
  await switches.setServer('analytics', false);
  assert.deepEqual(offered(), ['echo']);
  assert.match(switches.whyOff(registry.get('row_count')!)!, /server "analytics" is switched off/);
  await switches.setServer('analytics', true);
  await switches.setTool(registry.get('analytics.echo')!, false);
  assert.deepEqual(offered(), ['echo', 'row_count']);
  // Keyed by server and the server's own name: research's "echo" is not analytics' "echo".
  assert.deepEqual(stored(), { servers: [], tools: ['analytics/echo'] });
  assert.equal(switches.isOn(registry.get('echo')!), true);
  assert.equal(changes, 3);
});

test('a corrupt stored state switches nothing off', () => {
  const switches = new ToolSwitches({
    get: () => ({ servers: 'x', tools: [1, null] }) as unknown as SwitchState,
    set: async () => {},
  });
  assert.equal(switches.isOn({ name: 'a', server: 'x' }), true);
});

test('the budget breakdown: schemas by server, history and the new message add up to the total', async () => {
  const { registry } = setup();
  const tools = registry.list().map((t, i) => ({ server: t.server!, schema: registry.schemas()[i]! }));
  const b = await measureRequest({
    limits: { window: { tokens: 10_000, source: 'test' }, counter: estimateCounter },
    system: 'Be brief.',
    history: [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'hello' },
    ],
    draft: 'What is MCP?',
    tools,
  });
  assert.deepEqual(
    b.tools.map((t) => [t.server, t.count]),
    [
      ['research', 1],
      ['analytics', 2],
    ],
  );
  assert.equal(b.system, 4 + 3);
  assert.equal(b.message, 4 + 4);
  assert.equal(b.history, 4 + 1 + 4 + 2);
  assert.equal(b.total, b.system + b.message + b.history + b.tools.reduce((a, t) => a + t.tokens, 0));
  assert.equal(b.reserve, 2500);
  assert.equal(b.trimmed, undefined);
});
