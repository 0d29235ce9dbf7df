import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ToolRegistry, type Tool } from '../../src/core/toolRegistry/toolRegistry';

const tool = (name: string, call: Tool['call']): Tool => ({
  name,
  description: name,
  parameters: { type: 'object', properties: {} },
  call,
});

test('call always resolves to a string, whatever the tool does', async () => {
  const r = new ToolRegistry();
  r.add(tool('ok', async () => 'fine'));
  r.add(
    tool('throws', async () => {
      throw new Error('boom');
    }),
  );
  r.add(tool('object', async () => ({ a: 1 }) as unknown as string));
  assert.equal(await r.call('ok', {}), 'fine');
  assert.equal(await r.call('throws', {}), '{"error":"tool \\"throws\\" failed: boom"}');
  assert.equal(await r.call('object', {}), '{"a":1}');
  assert.equal(await r.call('ok', [1, 2]), '{"error":"arguments for tool \\"ok\\" must be a JSON object"}');
  const aborted = AbortSignal.abort();
  assert.equal(await r.call('ok', {}, { signal: aborted }), '{"error":"cancelled"}');
});

test('unknown names get an error listing what exists', async () => {
  const r = new ToolRegistry();
  assert.equal(await r.call('x', {}), '{"error":"unknown tool \\"x\\"; available tools: (none)"}');
  r.add(tool('a.b', async () => 'ab'));
  r.add(tool('c', async () => 'c'));
  assert.equal(JSON.parse(await r.call('x', {})).error, 'unknown tool "x"; available tools: a.b, c');
  assert.equal(await r.call('a__b', {}), 'ab', 'wire names resolve');
});

test('add never overwrites silently', () => {
  const r = new ToolRegistry();
  r.add(tool('echo', async () => '1'));
  assert.throws(() => r.add(tool('echo', async () => '2')), /already registered/);
  assert.throws(() => r.replaceAll([tool('x', async () => ''), tool('x', async () => '')]), /appears twice/);
});

test('schemas use wire names; changes fire one event', () => {
  const r = new ToolRegistry();
  let changes = 0;
  r.onDidChange(() => changes++);
  r.replaceAll([tool('analytics.echo', async () => ''), tool('echo', async () => '')]);
  assert.equal(changes, 1);
  assert.deepEqual(
    r.schemas().map((s) => s.name),
    ['analytics__echo', 'echo'],
  );
  assert.equal(r.resolve('analytics__echo'), 'analytics.echo');
});
