// The trace as the editor shows it (the list and each message), against real servers: off by
// default, on for servers that start later too, and no secret in any of its text, whether the
// server echoes back a header token or an env value.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { parseServers } from '../../src/core/mcp/config/parseServers';
import { ServerHub } from '../../src/core/mcp/hub/serverHub';
import { traceDetail, traceLinks, traceSummary } from '../../src/core/mcp/trace/traceText';
import { fixture, httpMcpServer, SERVERS, stopFixtures } from '../helpers';

const HEADER_TOKEN = 'hdr-Tok3n-0123456789abcdef';
const ENV_TOKEN = 'env-Tok3n-fedcba9876543210';

/** Every text the editor can show of a server's trace. */
function allText(hub: ServerHub, server: string): string {
  const trace = hub.trace(server);
  return [traceSummary(server, trace), ...trace.entries().map((e) => traceDetail(server, e))].join('\n');
}

describe('the trace in the editor', { timeout: 60_000 }, () => {
  const hub = new ServerHub();
  after(async () => {
    await hub.closeAll();
    stopFixtures();
  });

  test('off by default: nothing is kept and the list says how to turn it on', async () => {
    hub.reconcile([fixture('research', 'research.mjs')]);
    await hub.whenIdle();
    await hub.registry.call('echo', { text: 'hello' });
    assert.deepEqual(hub.trace('research').entries(), []);
    assert.match(
      traceSummary('research', hub.trace('research')),
      /^MCP trace of server "research": 0 messages kept \(0 bytes, oldest dropped first\)\nNot recording: the setting minagent\.trace is off/,
    );
  });

  test('on: servers that start later are traced from their first message; each line links to its message, shown whole', async () => {
    hub.setTracing(true);
    hub.reconcile([fixture('research', 'research.mjs'), fixture('library', 'library.mjs')]);
    await hub.whenIdle();
    assert.equal(await hub.registry.call('echo', { text: 'hello' }), 'hello');
    const library = hub.trace('library').entries();
    assert.deepEqual(
      library.slice(0, 2).map((e) => [e.direction, e.kind, e.method]),
      [
        ['out', 'request', 'server/discover'],
        ['in', 'response', 'server/discover'],
      ],
      'the new server was traced from its first message',
    );
    const summary = traceSummary('research', hub.trace('research'));
    const lines = summary.split('\n');
    const call = lines.find((l) => / → out +request +tools\/call /.test(l));
    const reply = lines.find((l) => / ← in +response +tools\/call /.test(l));
    assert.ok(call && reply, summary);
    assert.match(reply, /\d+ bytes +\d+ ms$/, 'the response says its size and how long it took');
    const links = traceLinks(summary);
    const entries = hub.trace('research').entries();
    assert.deepEqual(
      links.map((l) => l.seq),
      entries.map((e) => e.seq),
      'one link per kept message',
    );
    const callEntry = entries.find((e) => e.method === 'tools/call' && e.direction === 'out')!;
    const detail = traceDetail('research', callEntry);
    assert.match(
      detail,
      /^\/\/ sent to server "research" at .+: request tools\/call \(id \d+\), \d+ bytes\n\{\n {2}"method": "tools\/call",\n {2}"params": \{\n/,
    );
    assert.deepEqual(JSON.parse(detail.split('\n').slice(1).join('\n')).params, {
      name: 'echo',
      arguments: { text: 'hello' },
      _meta: JSON.parse(callEntry.text).params._meta,
    });
  });

  test('a header token and an env value that servers echo back never appear in the list or in any message', async () => {
    const url = await httpMcpServer('--token', HEADER_TOKEN);
    const parsed = parseServers(
      {
        remote: { type: 'http', url, headers: { Authorization: `Bearer ${HEADER_TOKEN}` } },
        local: {
          command: 'node',
          args: [join(SERVERS, 'research.mjs')],
          env: { API_TOKEN: '${env:TRACE_TEST_TOKEN}' },
        },
      },
      { env: { ...process.env, TRACE_TEST_TOKEN: ENV_TOKEN } },
    );
    assert.deepEqual(parsed.problems, []);
    hub.setTracing(true);
    hub.reconcile(parsed.servers);
    await hub.whenIdle();
    // The HTTP server echoes the Authorization header; the stdio one echoes the env value it was given.
    assert.equal(await hub.registry.call('whoami', {}), '[redacted]');
    // research's echo clashes with the HTTP server's: it is local.echo.
    assert.equal(await hub.registry.call('local.echo', { text: `token is ${ENV_TOKEN}` }), 'token is [redacted]');
    const remote = allText(hub, 'remote');
    const local = allText(hub, 'local');
    assert.match(remote, /tools\/call/);
    assert.match(local, /tools\/call/);
    for (const [where, text] of [
      ['remote', remote],
      ['local', local],
    ] as const) {
      assert.ok(!text.includes(HEADER_TOKEN), `${where} shows the header token`);
      assert.ok(!text.includes(ENV_TOKEN), `${where} shows the env token`);
    }
    assert.match(remote, /\[redacted\]/, 'the echoed header was redacted, not dropped');
    assert.match(local, /token is \[redacted\]/);
  });
});
