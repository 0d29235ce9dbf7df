// The host never freezes: servers started together are spawned one per event-loop iteration, and
// closing reads the process table asynchronously, once per close, whatever the server does.
// Stall times are measured in bench/loopDelay.ts, not asserted here.
import assert from 'node:assert/strict';
import childProcess from 'node:child_process';
import fs from 'node:fs';
import { afterEach, describe, mock, test } from 'node:test';
import { ServerHub } from '../../src/core/mcp/hub/serverHub';
import { McpToolSource } from '../../src/core/mcp/connection/source';
import { enableOrphanGuard, guardPid } from '../../src/core/mcp/transport/orphanGuard';
import { fixture, isAlive } from '../helpers';

/** Counts event-loop iterations: an immediate that re-arms itself runs once per check phase. */
function iterationCounter(): { now: () => number; stop: () => void } {
  let n = 0;
  let timer = setImmediate(function tick() {
    n++;
    timer = setImmediate(tick);
  });
  return { now: () => n, stop: () => clearImmediate(timer) };
}

/** Calls to the synchronous fs functions that touch /proc, and to readdir('/proc'). */
function watchProcReads(): { sync: string[]; scans: () => number } {
  const sync: string[] = [];
  let scans = 0;
  for (const name of ['readFileSync', 'readdirSync', 'openSync', 'readSync', 'existsSync'] as const) {
    const original = fs[name] as (...a: unknown[]) => unknown;
    mock.method(fs, name, (...args: unknown[]) => {
      if (String(args[0]).startsWith('/proc')) sync.push(`${name}(${String(args[0])})`);
      return original.apply(fs, args);
    });
  }
  const readdir = fs.readdir as (...a: unknown[]) => unknown;
  mock.method(fs, 'readdir', (...args: unknown[]) => {
    if (args[0] === '/proc') scans++;
    return readdir.apply(fs, args);
  });
  return { sync, scans: () => scans };
}

afterEach(() => mock.restoreAll());

describe('the host event loop', () => {
  test('servers started together are spawned one per event-loop iteration, the orphan guard first', {
    timeout: 60_000,
  }, async () => {
    enableOrphanGuard();
    const loop = iterationCounter();
    const spawns: Array<{ iteration: number; file: string }> = [];
    const spawn = childProcess.spawn as (...a: unknown[]) => childProcess.ChildProcess;
    mock.method(childProcess, 'spawn', (...args: unknown[]) => {
      const argv = args[1] as string[];
      spawns.push({ iteration: loop.now(), file: argv[0] === '-e' ? 'guard' : String(argv[0]).split('/').pop()! });
      return spawn.apply(childProcess, args);
    });
    const hub = new ServerHub();
    try {
      hub.reconcile(Array.from({ length: 8 }, (_, i) => fixture(`r${i}`, 'research.mjs')));
      await hub.whenIdle();
      assert.deepEqual(
        hub.servers().map((s) => s.state.kind),
        Array(8).fill('running'),
      );
      // Each server is started once: its era is found on its own process (src/core/mcp/connection/era.ts).
      assert.equal(spawns.length, 9, 'eight servers and the guard');
      assert.equal(spawns[0]!.file, 'guard', 'the guard runs before the first server');
      assert.ok(guardPid() !== undefined && isAlive(guardPid()!));
      const iterations = spawns.map((s) => s.iteration);
      assert.equal(
        new Set(iterations).size,
        iterations.length,
        `two spawns shared an event-loop iteration: ${iterations.join(', ')}`,
      );
    } finally {
      loop.stop();
      mock.restoreAll();
      await hub.closeAll();
    }
  });

  test('closing a server that ignores SIGTERM reads /proc once and never synchronously; its grandchildren still end', {
    timeout: 60_000,
  }, async () => {
    const stubborn = new McpToolSource(fixture('stubborn', 'faulty.mjs', ['ignore-sigterm']));
    const parent = new McpToolSource(fixture('parent', 'faulty.mjs', ['grandchild']));
    await Promise.all([stubborn.connect(), parent.connect()]);
    const { grandchildren } = JSON.parse(await parent.call('pids', {})) as { grandchildren: number[] };
    const pids = [stubborn.pid!, parent.pid!, ...grandchildren];
    for (const p of pids) assert.ok(isAlive(p));
    const reads = watchProcReads();
    await stubborn.close();
    assert.equal(reads.scans(), 1, 'one scan for the whole close, SIGTERM wait and SIGKILL included');
    await parent.close();
    assert.equal(reads.scans(), 2);
    assert.deepEqual(reads.sync, [], 'no synchronous read of /proc while closing');
    for (const p of pids) assert.equal(isAlive(p), false, `process ${p} is gone after close`);
  });

  test('servers closed together share their scans of the process table', { timeout: 60_000 }, async () => {
    const hub = new ServerHub();
    try {
      hub.reconcile(Array.from({ length: 6 }, (_, i) => fixture(`r${i}`, 'faulty.mjs', ['ignore-eof'])));
      await hub.whenIdle();
      const pids = hub.servers().map((s) => (s.state.kind === 'running' ? s.state.pid! : 0));
      const reads = watchProcReads();
      await hub.closeAll();
      assert.ok(reads.scans() >= 1 && reads.scans() <= 6, `at most one scan per close, ${reads.scans()} for 6`);
      assert.deepEqual(reads.sync, []);
      for (const p of pids) assert.equal(isAlive(p), false);
    } finally {
      await hub.closeAll();
    }
  });
});
