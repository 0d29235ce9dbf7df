import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { Agent } from '../../src/core/agent/agent';
import { ScriptedModel } from '../../src/core/agent/model';
import { DEFAULT_HUB_SETTINGS } from '../../src/core/mcp/config/hubSettings';
import { parseServers } from '../../src/core/mcp/config/parseServers';
import { ServerHub } from '../../src/core/mcp/hub/serverHub';
import { fixture, isAlive, parseError, waitFor } from '../helpers';

const research = () => fixture('research', 'research.mjs');
const analytics = () => fixture('analytics', 'analytics.mjs');

async function withHub(fn: (hub: ServerHub) => Promise<void>, policy = DEFAULT_HUB_SETTINGS.conflictPolicy) {
  const hub = new ServerHub({ settings: { ...DEFAULT_HUB_SETTINGS, conflictPolicy: policy } });
  try {
    await fn(hub);
  } finally {
    await hub.closeAll();
  }
}

describe('ServerHub', () => {
  test('reconcile returns at once and connects in the background', () =>
    withHub(async (hub) => {
      hub.reconcile([research(), analytics()]);
      assert.deepEqual(
        hub.servers().map((s) => s.state.kind),
        ['starting', 'starting'],
      );
      await hub.whenIdle();
      assert.deepEqual(
        hub.servers().map((s) => s.state.kind),
        ['running', 'running'],
      );
    }));

  test('reconcile restarts only changed servers and drops removed ones with their tools', () =>
    withHub(async (hub) => {
      hub.reconcile([research(), analytics()]);
      await hub.whenIdle();
      const pid = (name: string) => hub.server(name)!.pid!;
      const [r1, a1] = [pid('research'), pid('analytics')];

      hub.reconcile([research(), { ...analytics(), env: { CHANGED: '1' } }]);
      await hub.whenIdle();
      assert.equal(pid('research'), r1, 'the unchanged server kept running');
      assert.notEqual(pid('analytics'), a1, 'the changed server restarted');
      await waitFor('the old analytics process to end', () => !isAlive(a1));

      const a2 = pid('analytics');
      hub.reconcile([research()]);
      assert.deepEqual(hub.registry.names(), ['echo', 'search_corpus', 'word_count']);
      await waitFor('the removed server to end', () => !isAlive(a2));
      assert.equal(pid('research'), r1);
    }));

  test('prefixAll prefixes every server; a namespace overrides the prefix', () =>
    withHub(async (hub) => {
      hub.reconcile([research(), { ...analytics(), namespace: 'stats' }]);
      await hub.whenIdle();
      assert.deepEqual(hub.registry.names(), [
        'research.echo',
        'research.search_corpus',
        'research.word_count',
        'stats.echo',
        'stats.row_count',
      ]);
    }, 'prefixAll'));

  test('the error policy refuses clashing tools visibly and keeps the rest', () =>
    withHub(async (hub) => {
      hub.reconcile([research(), analytics()]);
      await hub.whenIdle();
      assert.deepEqual(hub.registry.names(), ['echo', 'search_corpus', 'word_count', 'row_count']);
      const [problem] = hub.problems().naming;
      assert.equal(problem?.server, 'analytics');
      assert.match(problem!.message, /"echo" of server "analytics" clashes .* refused/);
    }, 'error'));

  test('stop, start and restart one server while the other keeps running', () =>
    withHub(async (hub) => {
      hub.reconcile([research(), analytics()]);
      await hub.whenIdle();
      const r1 = hub.server('research')!.pid!;
      await hub.stop('analytics');
      assert.equal(hub.server('analytics')?.state.kind, 'stopped');
      assert.deepEqual(hub.registry.names(), ['echo', 'search_corpus', 'word_count']);
      assert.equal(
        parseError(await hub.registry.call('analytics.echo', { text: 'x' })).startsWith(
          'unknown tool "analytics.echo"',
        ),
        true,
      );
      hub.start('analytics');
      await hub.whenIdle();
      assert.equal(await hub.registry.call('analytics.echo', { text: 'x' }), '[analytics] x');
      hub.restart('research');
      await hub.whenIdle();
      assert.notEqual(hub.server('research')!.pid, r1);
      assert.equal(await hub.registry.call('echo', { text: 'back' }), 'back');
    }));

  test('stopping or closing while servers start is not reported as a failure and leaves no process', async () => {
    const errors: string[] = [];
    const logger = { trace() {}, info() {}, warn() {}, error: (m: string) => errors.push(m) };
    const hub = new ServerHub({ settings: DEFAULT_HUB_SETTINGS, logger });
    hub.reconcile([research(), analytics()]);
    // Past the deferred spawn, so both processes exist and are mid-handshake.
    const pids = await waitFor('both servers to spawn', () => {
      const p = ['research', 'analytics'].map((n) => hub.server(n)?.pid);
      return p.every((x) => x !== undefined) && (p as number[]);
    });
    await hub.stop('analytics');
    assert.equal(hub.server('analytics')?.state.kind, 'stopped');
    await hub.closeAll();
    await hub.whenIdle();
    assert.deepEqual(errors, []);
    assert.ok(
      pids.every((p) => !isAlive(p)),
      'no server process outlives the hub',
    );
  });

  test('a bad entry becomes a problem naming server and field; the others start', () =>
    withHub(async (hub) => {
      const parsed = parseServers(
        {
          research: { command: process.execPath, args: [research().args[0]!] },
          broken: { command: 42 },
          nourl: { type: 'http' },
        },
        { workspaceFolder: process.cwd() },
      );
      hub.reconcile(parsed.servers, parsed.problems);
      await hub.whenIdle();
      assert.deepEqual(
        hub.servers().map((s) => [s.name, s.state.kind]),
        [['research', 'running']],
      );
      assert.deepEqual(
        hub.problems().config.map((p) => [p.server, p.field]),
        [
          ['broken', 'command'],
          ['nourl', 'url'],
        ],
      );
    }));

  test('an agent turn runs its tool calls concurrently and Stop reaches the server', () =>
    withHub(async (hub) => {
      const log = join(mkdtempSync(join(tmpdir(), 'minagent-agent-')), 'cancel.log');
      hub.reconcile([fixture('slow', 'faulty.mjs', ['slow'], { env: { FIXTURE_CANCEL_LOG: log } })]);
      await hub.whenIdle();
      const model = new ScriptedModel([
        {
          toolCalls: [
            { name: 'slow', arguments: { ms: 10_000 } },
            { name: 'slow', arguments: { ms: 10_000 } },
          ],
        },
        { final: 'never reached' },
      ]);
      const controller = new AbortController();
      const started: string[] = [];
      const run = new Agent(model, hub.registry).run('go', {
        signal: controller.signal,
        onEvent: (e) => {
          if (e.type === 'tool_start') started.push(e.callId);
          if (started.length === 2 && e.type === 'tool_progress') controller.abort();
        },
      });
      const result = await run;
      assert.equal(started.length, 2, 'both calls were running at once');
      assert.equal(result.stopped, 'cancelled');
      assert.deepEqual(
        result.steps.map((s) => s.kind),
        ['tool_call', 'tool_call', 'error'],
      );
      assert.ok(result.steps.slice(0, 2).every((s) => s.tool?.result === '{"error":"cancelled"}'));
      await waitFor('the server to see both cancellations', () => {
        try {
          return readFileSync(log, 'utf8').trim().split('\n').length === 2;
        } catch {
          return false;
        }
      });
    }));
});
