// Bounded input from HTTP MCP servers: a huge JSON reply, a huge SSE event and a tool schema nested
// thousands deep each give a clear error or a per-tool problem; the server's other tools keep working.
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { after, describe, test } from 'node:test';
import { ServerHub } from '../../src/core/mcp/hub/serverHub';
import { McpToolSource } from '../../src/core/mcp/connection/source';
import { httpConfig, listeningFixture } from '../helpers';

const children: ChildProcess[] = [];
after(() => children.forEach((c) => c.stdin?.end()));

async function hostile(...args: string[]): Promise<string> {
  const { port, child } = await listeningFixture('fixtures/servers/hostile-http.mjs', args);
  children.push(child);
  return `http://127.0.0.1:${port}/mcp`;
}

describe('bounded input over HTTP', { timeout: 60_000 }, () => {
  test('a tool schema nested 5000 deep is a problem naming the tool; the other tools register and the registry stays sendable', async () => {
    const hub = new ServerHub();
    try {
      hub.reconcile([httpConfig('hostile', await hostile('--deep', '5000'))]);
      await hub.whenIdle();
      const server = hub.servers().find((s) => s.name === 'hostile')!;
      assert.equal(server.state.kind, 'running');
      assert.deepEqual(hub.registry.names().sort(), ['big_event', 'big_json', 'fine']);
      const problems = hub.problems().tools;
      assert.deepEqual(
        problems.map((p) => [p.server, p.tool]),
        [['hostile', 'deep']],
      );
      assert.match(
        problems[0]!.message,
        /tool "deep" of server "hostile" has an inputSchema nested deeper than 64 levels; the tool was skipped/,
      );
      // What a model request does with the tool list: it must serialize.
      assert.doesNotThrow(() => JSON.stringify(hub.registry.list().map((t) => t.parameters)));
      assert.equal(await hub.registry.call('fine', {}), 'fine');
    } finally {
      await hub.closeAll();
    }
  });

  test('a JSON reply over the cap fails that call with a message naming the cap; the server keeps answering', async () => {
    const s = new McpToolSource(httpConfig('hostile', await hostile('--big-bytes', String(3 * 1024 * 1024))), {
      httpLimits: { bodyBytes: 1024 * 1024 },
      callTimeoutMs: 20_000,
    });
    try {
      await s.connect();
      const result = await s.call('big_json', {});
      assert.match(result, /^\{"error":/);
      assert.match(result, /the reply of server \\"hostile\\" is larger than the 1 MB limit/);
      assert.equal(await s.call('fine', {}), 'fine');
    } finally {
      await s.close();
    }
  });

  test('one SSE event over the cap fails that call with a message naming the cap; the server keeps answering', async () => {
    const s = new McpToolSource(httpConfig('hostile', await hostile('--big-bytes', String(3 * 1024 * 1024))), {
      httpLimits: { eventBytes: 1024 * 1024 },
      callTimeoutMs: 20_000,
    });
    try {
      await s.connect();
      const result = await s.call('big_event', {});
      assert.match(result, /^\{"error":/);
      assert.match(result, /one event of the reply of server \\"hostile\\" is larger than the 1 MB limit/);
      assert.equal(await s.call('fine', {}), 'fine');
    } finally {
      await s.close();
    }
  });
});
