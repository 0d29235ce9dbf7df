// 1. Tool-call overhead: registry.call through the adapter vs the SDK's Client.callTool vs the floor.
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { ServerHub } from '../src/core/mcp/hub';
import { fixture } from '../test/helpers';
import { RawClient } from './rawClient';
import { median, record } from './results';

const N = Number(process.env.BENCH_CALLS ?? 1_000);
const REPS = 5;

async function perCall(call: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 100; i++) await call(); // warm up
  const times: number[] = [];
  for (let i = 0; i < N; i++) {
    const t0 = performance.now();
    await call();
    times.push(performance.now() - t0);
  }
  return median(times) * 1000; // microseconds
}

async function concurrent(call: () => Promise<unknown>): Promise<number> {
  const reps: number[] = [];
  for (let r = 0; r < REPS; r++) {
    const t0 = performance.now();
    await Promise.all(Array.from({ length: 100 }, call));
    reps.push(performance.now() - t0);
  }
  return median(reps);
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
  const floorUs = await perCall(() => raw.request('tools/call', { name: 'echo', arguments: args }));
  const sdkUs = await perCall(() => client.callTool({ name: 'echo', arguments: args }));
  const oursUs = await perCall(() => hub.registry.call('echo', args));
  record('call overhead', `one call at a time (median of ${N})`, { floorUs, sdkUs, minagentUs: oursUs, sdkOverFloor: sdkUs / floorUs, minagentOverSdk: oursUs / sdkUs });

  const sdkMs = await concurrent(() => client.callTool({ name: 'echo', arguments: args }));
  const oursMs = await concurrent(() => hub.registry.call('echo', args));
  const floorMs = await concurrent(() => raw.request('tools/call', { name: 'echo', arguments: args }));
  record('call overhead', `100 concurrent calls on one connection (median of ${REPS})`, { floorMs, sdkMs, minagentMs: oursMs, minagentOverSdk: oursMs / sdkMs });

  await hub.closeAll();
  await client.close();
  await raw.close();
}
