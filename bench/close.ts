// Close time: until every process of the server is gone, ours vs the SDK's own stdio close,
// medians over repeated runs in the same process. Figures, never pass/fail.
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { McpToolSource } from '../src/core/mcp/connection/source';
import { alivePids, processTree } from '../src/core/mcp/transport/processTree';
import { fixture, reference } from '../test/helpers';
import type { StdioServerConfig } from '../src/core/mcp/config/serverConfig';
import { median, record } from './results';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);

async function gone(pids: Set<number>): Promise<void> {
  while ((await alivePids(pids)).size) await new Promise((r) => setTimeout(r, 2));
}

async function ours(config: StdioServerConfig): Promise<number> {
  const s = new McpToolSource(config);
  await s.connect();
  await new Promise((r) => setTimeout(r, 200));
  const tree = await processTree(s.pid!);
  const t0 = performance.now();
  await s.close();
  await gone(tree);
  return performance.now() - t0;
}

async function sdk(config: StdioServerConfig): Promise<number> {
  const transport = new StdioClientTransport({
    command: config.command,
    args: config.args,
    env: process.env as Record<string, string>,
    stderr: 'ignore',
  });
  const client = new Client({ name: 'bench', version: '0' });
  await client.connect(transport);
  await new Promise((r) => setTimeout(r, 200));
  const tree = await processTree(transport.pid!);
  const t0 = performance.now();
  await client.close();
  await gone(tree);
  const ms = performance.now() - t0;
  // The SDK leaves what it did not reach; clean up so the next run starts clean.
  for (const pid of tree) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {}
  }
  return ms;
}

const kinds: Array<[string, StdioServerConfig]> = [
  ['exits on stdin EOF (research fixture)', fixture('research', 'research.mjs')],
  [
    'ignores stdin EOF (server-everything, logging timer running)',
    reference('everything', 'server-everything', ['stdio']) as StdioServerConfig,
  ],
  ['ignores SIGTERM too (faulty ignore-sigterm)', fixture('stubborn', 'faulty.mjs', ['ignore-sigterm'])],
];

export async function benchClose(): Promise<void> {
  for (const [label, config] of kinds) {
    const a: number[] = [];
    const b: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      a.push(await ours(config));
      b.push(await sdk(config));
    }
    record('close', label, { minagentMs: median(a), sdkMs: median(b), ratio: median(a) / median(b), runs: RUNS });
  }
}

if (require.main === module) void benchClose().then(() => process.exit(0));
