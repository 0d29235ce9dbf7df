// A burst under load: 100 concurrent tool calls on one connection while two busy loops hold the
// machine's cores, through the hub against the SDK's own Client with the same per-call options (a
// progress handler, a timeout that progress resets), in alternating bursts. The hub paces its
// traffic over event-loop iterations only when the loop is behind (transport/inbox.ts); on a busy
// machine a pacing that yields every slice anyway cost 3.5-4.4x. Alone: `node --import tsx bench/burstLoaded.ts`.
import { spawn } from 'node:child_process';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { ServerHub } from '../src/core/mcp/hub/serverHub';
import { fixture } from '../test/helpers';
import { alternate, median, record } from './results';

const BURST = 100;
const ROUNDS = Number(process.env.BENCH_BURST_ROUNDS ?? 101);
const BUSY_LOOPS = 2;

async function burst(call: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await Promise.all(Array.from({ length: BURST }, call));
  return performance.now() - t0;
}

export async function benchBurstLoaded(): Promise<void> {
  const cfg = fixture('research', 'research.mjs');
  const client = new Client({ name: 'bench', version: '0' });
  await client.connect(new StdioClientTransport({ command: cfg.command, args: cfg.args, stderr: 'ignore' }));
  const hub = new ServerHub();
  hub.reconcile([cfg]);
  await hub.whenIdle();
  const args = { text: 'hello' };
  const sdk = () =>
    burst(() =>
      client.callTool(
        { name: 'echo', arguments: args },
        { timeout: 60_000, resetTimeoutOnProgress: true, onprogress: () => {} },
      ),
    );
  const ours = () => burst(() => hub.registry.call('echo', args));
  for (let i = 0; i < 3; i++) await alternate(2, sdk, ours); // warm-up, before the loops start
  const loops = Array.from({ length: BUSY_LOOPS }, () =>
    spawn(process.execPath, ['-e', 'for(;;){}'], { stdio: 'ignore' }),
  );
  try {
    const runs = await alternate(ROUNDS, sdk, ours);
    record(
      'burst under load',
      `${BURST} concurrent calls on one connection, ${BUSY_LOOPS} busy loops (median of ${ROUNDS} bursts)`,
      {
        sdkWithProgressMs: median(runs.baseline),
        minagentMs: median(runs.subject),
        ratio: median(runs.subject) / median(runs.baseline),
      },
    );
  } finally {
    for (const l of loops) l.kill('SIGKILL');
    await hub.closeAll();
    await client.close();
  }
}

if (process.argv[1]?.endsWith('burstLoaded.ts')) void benchBurstLoaded().then(() => process.exit(0));
