// A call that its server's restart or stop ends says so, and a refresh that changed nothing ends no call.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DEFAULT_HUB_SETTINGS } from '../../src/core/mcp/config/hubSettings';
import { ServerHub } from '../../src/core/mcp/hub/serverHub';
import { fixture, parseError } from '../helpers';

const slow = () => fixture('slow', 'faulty.mjs', ['slow']);

async function withHub(fn: (hub: ServerHub) => Promise<void>) {
  const hub = new ServerHub({ settings: DEFAULT_HUB_SETTINGS });
  try {
    hub.reconcile([slow()]);
    await hub.whenIdle();
    await fn(hub);
  } finally {
    await hub.closeAll();
  }
}

/** Starts a long call and resolves once the server is working on it (its first progress). */
async function callInProgress(hub: ServerHub, ms: number): Promise<{ result: Promise<string> }> {
  let working!: () => void;
  const started = new Promise<void>((r) => (working = r));
  const result = hub.registry.call('slow', { ms }, { onProgress: () => working() });
  await started;
  return { result }; // wrapped: an async function would otherwise wait for the call itself
}

describe('a call when its server restarts or stops', () => {
  test('a restart cancels it with "cancelled: the server was restarted", not "exited"', { timeout: 30_000 }, () =>
    withHub(async (hub) => {
      const { result } = await callInProgress(hub, 30_000);
      assert.equal(hub.runningCalls(), 1);
      hub.restart('slow');
      assert.equal(parseError(await result), 'cancelled: the server was restarted');
      assert.equal(hub.runningCalls(), 0);
    }),
  );

  test('a stop cancels it with "cancelled: the server was stopped"', { timeout: 30_000 }, () =>
    withHub(async (hub) => {
      const { result } = await callInProgress(hub, 30_000);
      await hub.stop('slow');
      assert.equal(parseError(await result), 'cancelled: the server was stopped');
    }),
  );

  test(
    'a call asked for in the same tick as a stop waits for its send turn, then finds the server stopped: never made, never thrown',
    { timeout: 30_000 },
    () =>
      withHub(async (hub) => {
        const result = hub.registry.call('slow', { ms: 10 });
        const stopped = hub.stop('slow');
        assert.equal(parseError(await result), 'mcp server not connected');
        await stopped;
        assert.equal(hub.runningCalls(), 0);
      }),
  );

  test('a settings change that restarts the server says restarted; removing it says stopped', { timeout: 30_000 }, () =>
    withHub(async (hub) => {
      const { result: first } = await callInProgress(hub, 30_000);
      hub.reconcile([{ ...slow(), env: { CHANGED: '1' } }]);
      assert.equal(parseError(await first), 'cancelled: the server was restarted');
      await hub.whenIdle();
      const { result: second } = await callInProgress(hub, 30_000);
      hub.reconcile([]);
      assert.equal(parseError(await second), 'cancelled: the server was stopped');
    }),
  );

  test(
    'a reconcile with the same settings (a refresh that changed nothing) lets the call finish',
    { timeout: 30_000 },
    () =>
      withHub(async (hub) => {
        const { result } = await callInProgress(hub, 1_500);
        hub.reconcile([slow()]);
        assert.match(await result, /^done after \d+ ms$/);
      }),
  );
});
