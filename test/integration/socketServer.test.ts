// A server that listens on a Unix socket (VS Code's `unix:///path#/subpath` URLs): Streamable HTTP over the socket.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { parseServers } from '../../src/core/mcp/config/parseServers';
import { McpToolSource } from '../../src/core/mcp/connection/source';
import { listeningFixture, stopFixtures } from '../helpers';

const dir = mkdtempSync(join(tmpdir(), 'minagent-socket-'));
after(() => {
  stopFixtures();
  rmSync(dir, { recursive: true, force: true });
});

async function socketServer(...args: string[]): Promise<string> {
  const socket = join(dir, `s${Math.random().toString(36).slice(2, 8)}.sock`);
  const { child } = await listeningFixture('fixtures/servers/http.mjs', ['--socket', socket, ...args]);
  after(() => child.stdin?.end());
  return socket;
}

function entry(url: string) {
  const parsed = parseServers({ local: { type: 'http', url, headers: { Authorization: 'Bearer s3cret' } } });
  assert.deepEqual(parsed.problems, []);
  return parsed.servers[0]!;
}

describe('a server on a Unix socket', () => {
  test('connects over the socket to the path after "#", lists and calls', async () => {
    const socket = await socketServer('--path', '/mcp/v1', '--token', 's3cret');
    const s = new McpToolSource(entry(`unix://${socket}#/mcp/v1`));
    await s.connect();
    assert.deepEqual(
      (await s.listTools()).map((t) => t.name),
      ['echo', 'whoami'],
    );
    assert.equal(await s.call('echo', { text: 'over a socket' }), '[http] over a socket');
    await s.close();
  });

  test('without "#", the socket\'s root is asked; a wrong path is the server\'s 404, named', async () => {
    const socket = await socketServer('--path', '/mcp');
    const s = new McpToolSource(entry(`unix://${socket}`));
    await assert.rejects(s.connect(), /404/);
    assert.equal(s.state.kind, 'error');
  });

  test('a socket nobody listens on fails with the reason, not a hang', async () => {
    const s = new McpToolSource(entry(`unix://${join(dir, 'nobody.sock')}#/mcp`));
    await assert.rejects(s.connect(), /ENOENT|ECONNREFUSED/);
  });

  test('a socket URL with a host, or without a path, is refused by field', () => {
    for (const url of ['unix://host/tmp/x.sock', 'unix:///']) {
      const parsed = parseServers({ bad: { type: 'http', url } });
      assert.equal(parsed.servers.length, 0);
      assert.equal(parsed.problems[0]?.field, 'url', url);
    }
  });
});
