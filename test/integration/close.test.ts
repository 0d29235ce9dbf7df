// close() ends the server and everything it spawned, escalating to a kill, leaving no orphan.
// Close times are measured in bench/, not asserted here.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ClosedWhileStarting, McpToolSource } from '../../src/core/mcp/connection/source';
import { ProcessTransport } from '../../src/core/mcp/transport/processTransport';
import { processTree } from '../../src/core/mcp/transport/processTree';
import type { ServerConfig } from '../../src/core/mcp/config/serverConfig';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixture, isAlive, ppidOf, processesNaming, reference, ROOT, SERVERS, waitFor } from '../helpers';

async function connected(config: ServerConfig) {
  const s = new McpToolSource(config);
  await s.connect();
  const pid = s.pid!;
  assert.ok(isAlive(pid));
  return { s, pid };
}

function exitOf(s: McpToolSource) {
  const t = (s as unknown as { connector: { transport: unknown } }).connector.transport;
  assert.ok(t instanceof ProcessTransport);
  return t.exit;
}

describe('close', () => {
  test('a server that exits on stdin EOF exits by itself, no signal needed', async () => {
    const { s, pid } = await connected(fixture('research', 'research.mjs'));
    await s.close();
    assert.equal(isAlive(pid), false);
    assert.deepEqual(exitOf(s), { code: 0, signal: null });
    assert.equal(s.state.kind, 'stopped');
  });

  test('a closed server leaves no timer behind: a CLI run exits when its servers have, not after their grace', async () => {
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const before = timers();
    const { s } = await connected(fixture('research', 'research.mjs'));
    await s.close();
    await new Promise((r) => setImmediate(r));
    assert.equal(timers(), before, 'the 2 s grace for stdin EOF is not left running once the server has exited');
    // The same through a crash diagnosis (it waits up to 1 s for the exit status of a server that died).
    const crashed = new McpToolSource(fixture('crashy', 'faulty.mjs', ['exit-at-start']));
    await assert.rejects(crashed.connect());
    await crashed.close();
    await new Promise((r) => setImmediate(r));
    assert.equal(timers(), before, 'no wait of the crash diagnosis is left running');
  });

  test("a server that saves its state on stdin EOF gets the time to finish (the SDK client's 2 s), no signal", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'minagent-flush-'));
    const file = join(dir, 'state');
    try {
      const { s, pid } = await connected(
        fixture('saver', 'faulty.mjs', ['flush-on-exit'], {
          env: { FIXTURE_FLUSH_FILE: file, FIXTURE_FLUSH_MS: '800' },
        }),
      );
      await s.close();
      assert.equal(isAlive(pid), false);
      assert.deepEqual(exitOf(s), { code: 0, signal: null }, 'it exited by itself');
      assert.equal(readFileSync(file, 'utf8'), 'flushed');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a server that ignores stdin EOF is ended with SIGTERM', async () => {
    const { s, pid } = await connected(fixture('busy', 'faulty.mjs', ['ignore-eof']));
    await s.close();
    assert.equal(isAlive(pid), false);
    assert.equal(exitOf(s)?.signal, 'SIGTERM');
  });

  test('a server that ignores SIGTERM too is killed', async () => {
    const { s, pid } = await connected(fixture('stubborn', 'faulty.mjs', ['ignore-sigterm']));
    await s.close();
    assert.equal(isAlive(pid), false);
    assert.equal(exitOf(s)?.signal, 'SIGKILL');
  });

  test('grandchildren die with the server, even one that left the process group', async () => {
    const { s, pid } = await connected(fixture('parent', 'faulty.mjs', ['grandchild']));
    const { grandchildren } = JSON.parse(await s.call('pids', {})) as { grandchildren: number[] };
    assert.equal(grandchildren.length, 2);
    for (const g of grandchildren) assert.ok(isAlive(g), `grandchild ${g} runs before close`);
    await s.close();
    assert.equal(isAlive(pid), false);
    for (const g of grandchildren) assert.equal(isAlive(g), false, `grandchild ${g} is gone after close`);
  });

  test("an npx-style wrapper's child is ended too", async () => {
    const { s, pid } = await connected(fixture('wrapped', 'wrapper.mjs', [`${SERVERS}/faulty.mjs`, 'ignore-eof']));
    const children = await processTree(pid);
    assert.equal(children.size, 2, 'the wrapper and its server');
    await s.close();
    for (const p of children) assert.equal(isAlive(p), false, `process ${p} is gone`);
  });

  test('server-everything (a busy reference server) closes with nothing left', async () => {
    const { s, pid } = await connected(reference('everything', 'server-everything', ['stdio']));
    await s.close();
    assert.equal(isAlive(pid), false);
  });

  test('if the host is killed outright, the orphan guard ends its servers', async () => {
    const host = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'fixtures', 'hosts', 'guarded-host.ts')], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const line = await new Promise<string>((r) => host.stdout!.once('data', (d: Buffer) => r(String(d))));
    const { server, guard } = JSON.parse(line) as { server: number; guard: number };
    assert.ok(isAlive(server) && isAlive(guard));
    host.kill('SIGKILL');
    await waitFor('the guarded server to end', () => !isAlive(server), 5_000);
    await waitFor('the guard to exit', () => !isAlive(guard), 5_000);
  });

  test('if the host of a sandboxed server is killed outright, nothing of its sandbox is left (bwrap, its bridges, the server)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'minagent-guarded-sandbox-'));
    const host = spawn(
      process.execPath,
      ['--import', 'tsx', join(ROOT, 'fixtures', 'hosts', 'guarded-host.ts'), '--sandbox', dir],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const line = await new Promise<string>((r) => host.stdout!.once('data', (d: Buffer) => r(String(d))));
    const { server } = JSON.parse(line) as { server: number };
    assert.ok(isAlive(server));
    assert.ok(
      processesNaming(dir).some((l) => l.includes('bwrap')),
      `the server runs in bubblewrap:\n${processesNaming(dir).join('\n')}`,
    );
    // The library's own bridges on the host side are children of the host, named by their sockets.
    const bridges = processesNaming('claude-http-')
      .filter((l) => l.includes('socat UNIX-LISTEN'))
      .map((l) => Number(l.trim().split(' ')[0]))
      .filter((pid) => ppidOf(pid) === host.pid);
    assert.ok(bridges.length > 0, 'the host runs the sandbox proxy bridges');
    host.kill('SIGKILL');
    await waitFor(
      () => `nothing of the sandbox left:\n${processesNaming(dir).join('\n')}`,
      () => processesNaming(dir).length === 0,
      10_000,
    );
    await waitFor('the bridges of the killed host to end', () => bridges.every((pid) => !isAlive(pid)), 10_000);
  });

  test('close is idempotent and safe before connect', async () => {
    const never = new McpToolSource(fixture('never', 'research.mjs'));
    await never.close();
    await never.close();
    await assert.rejects(never.connect(), ClosedWhileStarting);
    const { s } = await connected(fixture('twice', 'research.mjs'));
    await Promise.all([s.close(), s.close()]);
  });
});
