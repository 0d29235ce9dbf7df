// Streamable HTTP servers: headers reach the server; 401, 500 and an unreachable host are clear errors.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { McpToolSource } from '../../src/core/mcp/source';
import type { HttpServerConfig } from '../../src/core/mcp/config';
import { SERVERS } from '../helpers';

const children: ChildProcess[] = [];
after(() => children.forEach((c) => c.stdin?.end()));

async function httpFixture(...args: string[]): Promise<string> {
  const child = spawn(process.execPath, [join(SERVERS, 'http.mjs'), ...args], { stdio: ['pipe', 'pipe', 'inherit'] });
  children.push(child);
  const port = await new Promise<string>((resolve) => child.stdout!.once('data', (d: Buffer) => resolve(String(d).trim().split(' ')[1]!)));
  return `http://127.0.0.1:${port}/mcp`;
}

async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as { port: number }).port;
  await new Promise((r) => srv.close(r));
  return port;
}

const http = (name: string, url: string, headers: Record<string, string> = {}): HttpServerConfig => ({ name, type: 'http', url, headers, autoApprove: [] });

describe('Streamable HTTP', () => {
  test('connects, lists, calls, and sends the entry headers', async () => {
    const url = await httpFixture('--token', 's3cret');
    const s = new McpToolSource(http('remote', url, { Authorization: 'Bearer s3cret' }));
    await s.connect();
    assert.deepEqual(s.tools.map((t) => t.name), ['echo', 'whoami']);
    assert.equal(await s.call('echo', { text: 'hi' }), '[http] hi');
    assert.equal(await s.call('whoami', {}), 'Bearer s3cret');
    await s.close();
    assert.equal(await s.call('echo', { text: 'x' }), '{"error":"mcp server not connected"}');
  });

  test('401 says so and points at the headers', async () => {
    const s = new McpToolSource(http('remote', await httpFixture('--token', 's3cret'), { Authorization: 'Bearer wrong' }));
    await assert.rejects(s.connect(), /HTTP 401 Unauthorized from http:\/\/127\.0\.0\.1:\d+\/mcp \(check the credentials in the entry's "headers"\)/);
    assert.equal(s.state.kind, 'error');
  });

  test('500 is shown with its status', async () => {
    const s = new McpToolSource(http('remote', await httpFixture('--fail-status', '500')));
    await assert.rejects(s.connect(), /HTTP 500 Internal Server Error from .*: fixture failure/);
  });

  test('a server that is down is named with the reason', async () => {
    const url = `http://127.0.0.1:${await freePort()}/mcp`;
    const s = new McpToolSource(http('remote', url));
    await assert.rejects(s.connect(), new RegExp(`cannot reach ${url.replace(/[./]/g, '\\$&')}: ECONNREFUSED`));
  });
});
