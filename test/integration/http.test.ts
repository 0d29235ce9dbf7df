// Streamable HTTP servers: headers reach the server; 401, 500 and an unreachable host are clear errors.
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { after, describe, test } from 'node:test';
import { McpToolSource } from '../../src/core/mcp/connection/source';
import { freePort, httpConfig, httpMcpServer, listeningFixture, stopFixtures } from '../helpers';

const children: ChildProcess[] = [];
after(() => {
  stopFixtures();
  children.forEach((c) => c.stdin?.end());
});
const httpFixture = httpMcpServer;

describe('Streamable HTTP', () => {
  test('connects, lists, calls, and sends the entry headers', async () => {
    const url = await httpFixture('--token', 's3cret');
    const s = new McpToolSource(httpConfig('remote', url, { Authorization: 'Bearer s3cret' }));
    await s.connect();
    assert.deepEqual(
      (await s.listTools()).map((t) => t.name),
      ['echo', 'whoami'],
    );
    assert.equal(await s.call('echo', { text: 'hi' }), '[http] hi');
    // The server got the header (it answers 401 otherwise); echoed back, a header value is redacted before any model
    // sees it.
    assert.equal(await s.call('whoami', {}), '[redacted]');
    await s.close();
    assert.equal(await s.call('echo', { text: 'x' }), '{"error":"mcp server not connected"}');
  });

  test('401 says so and points at the headers', async () => {
    const s = new McpToolSource(
      httpConfig('remote', await httpFixture('--token', 's3cret'), { Authorization: 'Bearer wrong' }),
    );
    await assert.rejects(
      s.connect(),
      /HTTP 401 Unauthorized from http:\/\/127\.0\.0\.1:\d+\/mcp \(check the credentials in the entry's "headers"\)/,
    );
    assert.equal(s.state.kind, 'error');
  });

  test('500 is shown with its status', async () => {
    const s = new McpToolSource(httpConfig('remote', await httpFixture('--fail-status', '500')));
    await assert.rejects(s.connect(), /HTTP 500 Internal Server Error from .*: fixture failure/);
  });

  test('a server that is down is named with the reason', async () => {
    const url = `http://127.0.0.1:${await freePort()}/mcp`;
    const s = new McpToolSource(httpConfig('remote', url));
    await assert.rejects(s.connect(), new RegExp(`cannot reach ${url.replace(/[./]/g, '\\$&')}: ECONNREFUSED`));
  });

  test('an old server that only speaks HTTP+SSE is reached through the fallback', async () => {
    const { port, child } = await listeningFixture('fixtures/servers/legacy-sse.mjs');
    children.push(child);
    const s = new McpToolSource(httpConfig('old', `http://127.0.0.1:${port}/sse`));
    await s.connect();
    assert.deepEqual(
      (await s.listTools()).map((t) => t.name),
      ['legacy_echo'],
    );
    assert.equal(await s.call('legacy_echo', { text: 'hi' }), '[sse] hi');
    await s.close();
    const direct = new McpToolSource({ ...httpConfig('old2', `http://127.0.0.1:${port}/sse`), type: 'sse' });
    await direct.connect();
    assert.equal(await direct.call('legacy_echo', { text: 'direct' }), '[sse] direct');
    await direct.close();
  });
});
