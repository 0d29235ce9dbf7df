// One report per final failure: at once for a server that never started, after the automatic
// restarts for one that crashed, never once per restart attempt.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { DEFAULT_HUB_SETTINGS } from '../../src/core/mcp/config/hubSettings';
import { FailureWatch, type FinalFailure } from '../../src/core/mcp/hub/failureWatch';
import { ServerHub } from '../../src/core/mcp/hub/serverHub';
import { fixture } from '../helpers';

function watched(hub: ServerHub): FinalFailure[] {
  const watch = new FailureWatch();
  const reports: FinalFailure[] = [];
  hub.onDidChangeServers(() => reports.push(...watch.next(hub.servers())));
  return reports;
}

/** Waits on the hub's events (never on time) until `check` holds. */
async function until(hub: ServerHub, check: () => boolean): Promise<void> {
  while (!check()) {
    await new Promise<void>((resolve) => {
      const sub = hub.onDidChangeServers(() => (sub.dispose(), resolve()));
    });
  }
}

describe('final failures', () => {
  test('a server that never starts is reported once, and again once per failed restart', {
    timeout: 30_000,
  }, async () => {
    const hub = new ServerHub({ settings: DEFAULT_HUB_SETTINGS });
    try {
      const reports = watched(hub);
      hub.reconcile([fixture('nokey', 'faulty.mjs', ['exit-at-start']), fixture('fine', 'faulty.mjs', ['ok'])]);
      await hub.whenIdle();
      assert.deepEqual(
        reports.map((r) => [r.server, r.crashed]),
        [['nokey', false]],
      );
      assert.match(reports[0]!.stderrTail, /fatal: FIXTURE_API_KEY is not set/);
      hub.reconcile([fixture('nokey', 'faulty.mjs', ['exit-at-start']), fixture('fine', 'faulty.mjs', ['ok'])]);
      await hub.whenIdle();
      assert.equal(reports.length, 1, 'an unchanged failure is not reported again');
      hub.restart('nokey');
      await hub.whenIdle();
      assert.deepEqual(
        reports.map((r) => r.server),
        ['nokey', 'nokey'],
        'a restart that fails again is a new failure',
      );
    } finally {
      await hub.closeAll();
    }
  });

  test('a crashing server is reported once, when its automatic restarts give up', { timeout: 30_000 }, async () => {
    const hub = new ServerHub({
      settings: DEFAULT_HUB_SETTINGS,
      restart: { delaysMs: [50, 50], healthyAfterMs: 60_000 },
    });
    try {
      const reports = watched(hub);
      hub.reconcile([fixture('crashy', 'faulty.mjs', ['crash-always'], { env: { FIXTURE_CRASH_AFTER_MS: '100' } })]);
      await until(hub, () => /gave up after 2 automatic restarts/.test(hub.server('crashy')?.restartNote ?? ''));
      assert.deepEqual(
        reports.map((r) => [r.server, r.crashed]),
        [['crashy', true]],
      );
      assert.match(reports[0]!.message, /gave up/);
    } finally {
      await hub.closeAll();
    }
  });

  test('a crashed server whose automatic restart cannot start at all (its folder is gone) gives up at once, reported once', {
    timeout: 30_000,
  }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'minagent-gone-'));
    const hub = new ServerHub({
      settings: DEFAULT_HUB_SETTINGS,
      restart: { delaysMs: [50, 50, 50], healthyAfterMs: 60_000 },
    });
    try {
      const reports = watched(hub);
      const notes: string[] = [];
      hub.onDidChangeServers(() => {
        const note = hub.server('moved')?.restartNote;
        if (note && note !== notes.at(-1)) notes.push(note);
      });
      hub.reconcile([
        fixture('moved', 'faulty.mjs', ['crash-always'], { cwd: dir, env: { FIXTURE_CRASH_AFTER_MS: '1000' } }),
      ]);
      await until(hub, () => hub.server('moved')?.state.kind === 'running');
      rmSync(dir, { recursive: true, force: true });
      await until(hub, () => /gave up/.test(hub.server('moved')?.restartNote ?? ''));
      const server = hub.server('moved')!;
      assert.equal(
        server.restartNote,
        'gave up: it cannot be started as it is (its error says why); restart it when it is fixed',
      );
      assert.match(server.state.kind === 'error' ? server.state.message : '', /working directory does not exist/);
      assert.deepEqual(
        notes.filter((n) => n.startsWith('restarting')),
        ['restarting in 50 ms (attempt 1 of 3)'],
        `one attempt, not three: ${notes.join(' | ')}`,
      );
      assert.deepEqual(
        reports.map((r) => [r.server, r.crashed]),
        [['moved', true]],
      );
    } finally {
      await hub.closeAll();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
