// 1. Tool-call overhead: registry.call through the adapter vs the SDK's Client.callTool vs the floor.
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { ServerHub } from '../src/core/mcp/hub/serverHub';
import { fixture } from '../test/helpers';
import { RawClient } from './rawClient';
import { median, record } from './results';

const N = Number(process.env.BENCH_CALLS ?? 500);
const ROUNDS = 5;
const REPS = 7;

/** Median microseconds of one call, after a warm-up. */
export async function perCall(call: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 100; i++) await call(); // warm up
  const times: number[] = [];
  for (let i = 0; i < N; i++) {
    const t0 = performance.now();
    await call();
    times.push(performance.now() - t0);
  }
  return median(times) * 1000; // microseconds
}

async function burst(call: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await Promise.all(Array.from({ length: 100 }, call));
  return performance.now() - t0;
}

export async function benchCallOverhead(): Promise<void> {
  const cfg = fixture('research', 'research.mjs');
  const raw = new RawClient(cfg.command, cfg.args);
  await raw.start();
  const transport = new StdioClientTransport({ command: cfg.command, args: cfg.args, stderr: 'ignore' });
  const client = new Client({ name: 'bench', version: '0' });
  await client.connect(transport);
  const hub = new ServerHub();
  hub.reconcile([cfg]);
  await hub.whenIdle();

  const args = { text: 'hello' };
  // Interleaved rounds, so a busy moment on the machine falls on all three alike.
  // The ratio is taken within each round and the median of the rounds reported.
  const floorRuns: number[] = [];
  const sdkRuns: number[] = [];
  const oursRuns: number[] = [];
  const ratios: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    floorRuns.push(await perCall(() => raw.request('tools/call', { name: 'echo', arguments: args })));
    const first = round % 2 === 0;
    if (first) oursRuns.push(await perCall(() => hub.registry.call('echo', args)));
    sdkRuns.push(await perCall(() => client.callTool({ name: 'echo', arguments: args })));
    if (!first) oursRuns.push(await perCall(() => hub.registry.call('echo', args)));
    ratios.push(oursRuns[round]! / sdkRuns[round]!);
  }
  const [floorUs, sdkUs, oursUs] = [median(floorRuns), median(sdkRuns), median(oursRuns)];
  record('call overhead', `one call at a time (median of ${N} calls, ${ROUNDS} interleaved rounds)`, {
    floorUs,
    sdkUs,
    minagentUs: oursUs,
    sdkOverFloor: sdkUs / floorUs,
    minagentOverSdk: median(ratios),
  });

  // The SDK again with the per-call options we pass (a progress handler, and a timeout that progress
  // resets), to show what those options cost the SDK itself.
  const sdkWithProgress = () =>
    client.callTool(
      { name: 'echo', arguments: args },
      { timeout: 60_000, resetTimeoutOnProgress: true, onprogress: () => {} },
    );
  const b = {
    floor: [] as number[],
    sdk: [] as number[],
    sdkProgress: [] as number[],
    ours: [] as number[],
    ratio: [] as number[],
    ratioSameOptions: [] as number[],
  };
  for (let r = 0; r < REPS + 2; r++) {
    // Which of the two goes first alternates, as in the rounds above.
    const f = await burst(() => raw.request('tools/call', { name: 'echo', arguments: args }));
    const ourBurst = () => burst(() => hub.registry.call('echo', args));
    const o1 = r % 2 === 0 ? await ourBurst() : undefined;
    const s = await burst(() => client.callTool({ name: 'echo', arguments: args }));
    const sp = await burst(sdkWithProgress);
    const o = o1 ?? (await ourBurst());
    if (r < 2) continue; // warm-up bursts
    b.floor.push(f);
    b.sdk.push(s);
    b.sdkProgress.push(sp);
    b.ours.push(o);
    b.ratio.push(o / s);
    b.ratioSameOptions.push(o / sp);
  }
  record('call overhead', `100 concurrent calls on one connection (median of ${REPS} bursts)`, {
    floorMs: median(b.floor),
    sdkMs: median(b.sdk),
    sdkWithProgressMs: median(b.sdkProgress),
    minagentMs: median(b.ours),
    minagentOverSdk: median(b.ratio),
    minagentOverSdkWithProgress: median(b.ratioSameOptions),
  });

  await hub.closeAll();
  await client.close();
  await raw.close();
}
