// 7. The host's event loop while servers start, work and close: how long the loop of the process
// that holds the hub stalls (perf_hooks.monitorEventLoopDelay, 1 ms resolution), against an idle
// loop and against a plain loop that spawns the same servers one per tick (the floor: a spawn is a
// synchronous fork + exec, so no host can stall less while it spawns on its own thread, if its
// servers run at the same priority: the floor's run at the default, the hub's at nice 10, the
// `minagent.serverPriority: "low"` this bench measures; priority.ts).
// Interleaved rounds; the per-round ratio's median is reported.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { ServerHub } from '../src/core/mcp/hub/serverHub';
import { enableOrphanGuard } from '../src/core/mcp/transport/orphanGuard';
import { fixture } from '../test/helpers';
import { DEFAULT_HUB_SETTINGS } from '../src/core/mcp/config/hubSettings';
import type { StdioServerConfig } from '../src/core/mcp/config/serverConfig';
import { RawClient } from './rawClient';
import { median, record } from './results';

const SERVERS = 30;
const ROUNDS = Number(process.env.BENCH_LOOP_ROUNDS ?? 5);
const BURST = 100;

interface Stall {
  maxMs: number;
  p99Ms: number;
}

/** Runs `work` while watching this process's event loop; resolves with the worst and the 99th percentile delay. */
async function watch(work: () => Promise<void>): Promise<Stall> {
  const h = monitorEventLoopDelay({ resolution: 1 });
  h.enable();
  try {
    await work();
    // A stall is recorded when the monitor's timer finally runs: give it the chance after the last one.
    await sleep(10);
  } finally {
    h.disable();
  }
  return { maxMs: h.max / 1e6, p99Ms: h.percentile(99) / 1e6 };
}

// Awaited in a loop, an immediate yields exactly one event-loop iteration (zero-delay timers can
// run several in one timers phase once a slow spawn moved the loop's clock on).
const tick = () => new Promise<void>((r) => setImmediate(r));
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** The same 30 servers: 29 research fixtures and one that ignores SIGTERM (it has to be killed on close). */
function configs(): StdioServerConfig[] {
  return Array.from({ length: SERVERS }, (_, i) =>
    i === SERVERS - 1 ? fixture(`stubborn`, 'faulty.mjs', ['ignore-sigterm']) : fixture(`r${i}`, 'research.mjs'),
  );
}

interface FloorRound {
  connect: Stall;
  burst: Stall;
  close: Stall;
}

/**
 * The floor: spawn each server on its own tick, then wait until each answered initialize and
 * tools/list; the same burst of calls, written in one tick by a client without an SDK; closing them
 * all (stdin ended, SIGKILL after a second for the one that ignores it). On 2 cores, 30 servers
 * busy at once take the CPU from the host whatever it does: this is what the machine allows.
 */
async function plainLoop(): Promise<FloorRound> {
  const clients: RawClient[] = [];
  const connect = await watch(async () => {
    const ready: Array<Promise<unknown>> = [];
    for (const c of configs()) {
      const client = new RawClient(c.command, c.args);
      clients.push(client);
      ready.push(client.start().then(() => client.request('tools/list', {})));
      await tick();
    }
    await Promise.all(ready);
  });
  await sleep(200);
  const echoing = clients.slice(0, -1);
  const burst = await watch(async () => {
    await Promise.all(
      Array.from({ length: BURST }, (_, i) =>
        echoing[i % echoing.length]!.request('tools/call', { name: 'echo', arguments: { text: `hello ${i}` } }),
      ),
    );
  });
  const close = await watch(() => Promise.all(clients.map((c) => c.close())).then(() => undefined));
  return { connect, burst, close };
}

interface HubRound {
  connect: Stall;
  burst: Stall;
  close: Stall;
}

async function hubRound(): Promise<HubRound> {
  const hub = new ServerHub({ settings: { ...DEFAULT_HUB_SETTINGS, serverPriority: 'low' } });
  const connect = await watch(async () => {
    hub.reconcile(configs());
    await hub.whenIdle();
  });
  if (hub.servers().some((s) => s.state.kind !== 'running')) throw new Error('a server did not start');
  await sleep(200);
  const echoes = hub.registry.list().filter((t) => t.remoteName === 'echo' || t.name.endsWith('echo'));
  const burst = await watch(async () => {
    const replies = await Promise.all(
      Array.from({ length: BURST }, (_, i) =>
        hub.registry.call(echoes[i % echoes.length]!.name, { text: `hello ${i}` }),
      ),
    );
    if (replies.some((r) => !r.includes('hello')))
      throw new Error(`a call failed: ${replies.find((r) => !r.includes('hello'))}`);
  });
  const close = await watch(() => hub.closeAll());
  return { connect, burst, close };
}

export async function benchLoopDelay(): Promise<void> {
  enableOrphanGuard(); // as the extension does: the guard's own spawn and writes are part of the picture
  const idle: Stall[] = [];
  const floorRounds: FloorRound[] = [];
  const hub: HubRound[] = [];
  const ratios: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    idle.push(await watch(() => sleep(1_000)));
    // Alternate which goes first, so neither always meets a warmer or busier machine.
    const h1 = round % 2 ? undefined : await hubRound();
    floorRounds.push(await plainLoop());
    const h = h1 ?? (await hubRound());
    hub.push(h);
    ratios.push(h.connect.maxMs / floorRounds[round]!.connect.maxMs);
  }
  const floor = floorRounds.map((f) => f.connect);
  const m = (xs: Stall[], k: keyof Stall) => median(xs.map((x) => x[k]));
  const label = `${SERVERS} stdio servers (one ignores SIGTERM), median of ${ROUNDS} interleaved rounds`;
  record('event loop', `idle (same process, 1 s)`, { maxMs: m(idle, 'maxMs'), p99Ms: m(idle, 'p99Ms') });
  record('event loop', `connect: plain loop spawning one per tick (the floor), ${label}`, {
    maxMs: m(floor, 'maxMs'),
    p99Ms: m(floor, 'p99Ms'),
  });
  record('event loop', `connect: the hub, ${label}`, {
    maxMs: m(
      hub.map((x) => x.connect),
      'maxMs',
    ),
    p99Ms: m(
      hub.map((x) => x.connect),
      'p99Ms',
    ),
    maxOverFloor: median(ratios),
    worstRoundMaxOverFloor: Math.max(...ratios),
  });
  const worst = (xs: Stall[]) => Math.max(...xs.map((x) => x.maxMs));
  record(
    'event loop',
    `${BURST}-call burst: a client without an SDK writing all in one tick (the floor), median of ${ROUNDS}`,
    {
      maxMs: m(
        floorRounds.map((x) => x.burst),
        'maxMs',
      ),
      p99Ms: m(
        floorRounds.map((x) => x.burst),
        'p99Ms',
      ),
      worstRoundMaxMs: worst(floorRounds.map((x) => x.burst)),
    },
  );
  record('event loop', `${BURST}-call burst over the ${SERVERS} servers, median of ${ROUNDS}`, {
    maxMs: m(
      hub.map((x) => x.burst),
      'maxMs',
    ),
    p99Ms: m(
      hub.map((x) => x.burst),
      'p99Ms',
    ),
    worstRoundMaxMs: worst(hub.map((x) => x.burst)),
  });
  record('event loop', `close all ${SERVERS}: a client without an SDK ending stdin (the floor), median of ${ROUNDS}`, {
    maxMs: m(
      floorRounds.map((x) => x.close),
      'maxMs',
    ),
    p99Ms: m(
      floorRounds.map((x) => x.close),
      'p99Ms',
    ),
    worstRoundMaxMs: worst(floorRounds.map((x) => x.close)),
  });
  record('event loop', `close all ${SERVERS} (one killed after ignoring SIGTERM), median of ${ROUNDS}`, {
    maxMs: m(
      hub.map((x) => x.close),
      'maxMs',
    ),
    p99Ms: m(
      hub.map((x) => x.close),
      'p99Ms',
    ),
    worstRoundMaxMs: worst(hub.map((x) => x.close)),
  });
}

if (require.main === module) void benchLoopDelay().then(() => process.exit(0));
