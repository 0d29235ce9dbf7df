// 2. Connect: time until every server's tools are listed, for 1, 10 and 30 servers in parallel,
// against a hand-written client connecting the same servers in the same run (the floor).
import { ServerHub } from '../src/core/mcp/hub/serverHub';
import { fixture } from '../test/helpers';
import { RawClient } from './rawClient';
import { alternate, median, record } from './results';

async function floor(n: number): Promise<number> {
  const cfg = fixture('r', 'research.mjs');
  const clients = Array.from({ length: n }, () => new RawClient(cfg.command, cfg.args));
  const t0 = performance.now();
  await Promise.all(
    clients.map(async (c) => {
      await c.start();
      await c.request('tools/list', {});
    }),
  );
  const ms = performance.now() - t0;
  await Promise.all(clients.map((c) => c.close()));
  return ms;
}

async function ours(n: number): Promise<{ ms: number; reconcileMs: number }> {
  const hub = new ServerHub();
  const t0 = performance.now();
  hub.reconcile(Array.from({ length: n }, (_, i) => fixture(`r${i}`, 'research.mjs')));
  const reconcileMs = performance.now() - t0;
  await hub.whenIdle();
  const ms = performance.now() - t0;
  if (hub.servers().some((s) => s.state.kind !== 'running')) throw new Error('a server did not start');
  await hub.closeAll();
  return { ms, reconcileMs };
}

export async function benchConnect(): Promise<void> {
  for (const [n, reps] of [
    [1, 7],
    [10, 5],
    [30, 5],
  ] as const) {
    const runs = await alternate(
      reps,
      () => floor(n),
      () => ours(n),
    );
    const f = runs.baseline;
    const o = runs.subject.map((x) => x.ms);
    const r = runs.subject.map((x) => x.reconcileMs);
    record('connect', `${n} server${n === 1 ? '' : 's'} in parallel (median of ${reps})`, {
      floorMs: median(f),
      minagentMs: median(o),
      ratio: median(o) / median(f),
      reconcileReturnsInMs: median(r),
    });
  }
}
