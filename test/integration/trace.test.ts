// The per-server JSON-RPC trace, against real servers over stdio and Streamable HTTP.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { ServerHub } from '../../src/core/mcp/hub/serverHub';
import { fixture, httpMcpServer, stopFixtures } from '../helpers';

describe('MCP trace', { timeout: 60_000 }, () => {
  const hub = new ServerHub();
  after(async () => {
    await hub.closeAll();
    stopFixtures();
  });

  test('off by default; on, it records calls both ways with method, id, size and timing, redacted; kept across a restart', async () => {
    hub.reconcile([fixture('alpha', 'library.mjs', [], { env: { LIBRARY_LABEL: 'alpha' } })]);
    await hub.whenIdle();
    await hub.registry.call('cite', { id: 'readme' });
    assert.deepEqual(hub.trace('alpha').entries(), [], 'nothing is recorded while off');

    hub.trace('alpha').setEnabled(true);
    assert.equal(await hub.registry.call('login', { user: 'ada', token: 'tok-SECRET-123456789' }), 'hello ada');
    const entries = hub.trace('alpha').entries();
    const request = entries.find((e) => e.direction === 'out' && e.method === 'tools/call')!;
    const response = entries.find((e) => e.direction === 'in' && e.id === request.id)!;
    assert.equal(request.kind, 'request');
    assert.deepEqual([response.kind, response.method], ['response', 'tools/call']);
    assert.ok(response.durationMs! >= 0 && request.size > 50 && response.size > 20);
    assert.match(request.text, /"token":"\[redacted\]"/);
    assert.ok(!entries.some((e) => e.text.includes('tok-SECRET')), 'the token never reaches the trace');

    hub.restart('alpha');
    await hub.whenIdle();
    const afterRestart = hub.trace('alpha').entries();
    // The library fixture speaks both eras: the session opens with server/discover (2026-07-28).
    assert.ok(
      afterRestart.some((e) => e.method === 'server/discover' && e.direction === 'out'),
      'the new session is traced too',
    );
    assert.ok(
      afterRestart.some((e) => e.seq === request.seq),
      'the earlier entries are still there',
    );
  });

  test('over Streamable HTTP as well', async () => {
    const url = await httpMcpServer();
    hub.reconcile([{ name: 'remote', type: 'http', url, headers: {}, autoApprove: [] }]);
    hub.trace('remote').setEnabled(true);
    await hub.whenIdle();
    assert.equal(await hub.registry.call('echo', { text: 'hi' }), '[http] hi');
    const methods = hub
      .trace('remote')
      .entries()
      .map((e) => `${e.direction} ${e.method ?? e.kind}`);
    assert.deepEqual(
      methods.filter((m) => /^(out|in) (initialize|server\/discover|tools\/call)$/.test(m)),
      ['out server/discover', 'in server/discover', 'out tools/call', 'in tools/call'],
    );
  });
});
