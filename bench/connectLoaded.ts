// Connect under load: twelve real servers from npm (the compatibility suite's eleven and
// server-memory) started at once while two busy loops hold the machine's cores, until every
// server's tools are listed: the hub against the SDK's own client (`@modelcontextprotocol/sdk`,
// StdioClientTransport, one Client per server) started the same way in the same run, in
// alternating rounds. Each round's hub has a fresh era memory (a first start, probe included),
// and every process the hub starts is counted: one per server. Needs `npm run compat` once (the
// servers are in compat/node_modules). Alone: `node --import tsx bench/connectLoaded.ts`.
import childProcess, { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mock } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { DEFAULT_HUB_SETTINGS } from '../src/core/mcp/config/hubSettings';
import type { StdioServerConfig } from '../src/core/mcp/config/serverConfig';
import { EraMemory } from '../src/core/mcp/connection/eraMemory';
import { ServerHub } from '../src/core/mcp/hub/serverHub';
import { ROOT } from '../test/helpers';
import { COMPAT_MODULES, COMPAT_SERVERS, entryOf } from '../test/compat/servers';
import { alternate, median, record } from './results';

const ROUNDS = Number(process.env.BENCH_LOADED_ROUNDS ?? 5);
const BUSY_LOOPS = 2;

function servers(cwd: string): StdioServerConfig[] {
  const memory = join(ROOT, 'node_modules', '@modelcontextprotocol', 'server-memory', 'dist', 'index.js');
  return [
    ...COMPAT_SERVERS.map((s) => ({
      name: s.name,
      type: 'stdio' as const,
      command: process.execPath,
      args: [entryOf(s), ...(s.args ?? [])],
      env: s.env ?? {},
      cwd,
      autoApprove: [],
    })),
    {
      name: 'memory',
      type: 'stdio',
      command: process.execPath,
      args: [memory],
      env: { MEMORY_FILE_PATH: join(cwd, 'memory.jsonl') },
      cwd,
      autoApprove: [],
    },
  ];
}

async function bySdk(configs: StdioServerConfig[]): Promise<number> {
  const t0 = performance.now();
  const clients = await Promise.all(
    configs.map(async (c) => {
      const client = new Client({ name: 'bench-sdk', version: '1.0.0' });
      await client.connect(
        new StdioClientTransport({
          command: c.command,
          args: c.args,
          env: { ...(process.env as Record<string, string>), ...c.env },
          cwd: c.cwd,
          stderr: 'ignore',
        }),
        { timeout: 120_000 },
      );
      await client.listTools();
      return client;
    }),
  );
  const ms = performance.now() - t0;
  await Promise.all(clients.map((c) => c.close()));
  return ms;
}

async function byHub(configs: StdioServerConfig[]): Promise<{ ms: number; starts: number }> {
  let starts = 0;
  const real = childProcess.spawn;
  mock.method(childProcess, 'spawn', (...args: unknown[]) => {
    const argv = (args[1] as string[] | undefined) ?? [];
    if (configs.some((c) => c.args[0] === argv[0])) starts++;
    return (real as (...a: unknown[]) => ChildProcess)(...args);
  });
  // BENCH_LOADED_PRIORITY=low: what `minagent.serverPriority: "low"` (the former default) costs here.
  const serverPriority = process.env.BENCH_LOADED_PRIORITY === 'low' ? 'low' : 'normal';
  const hub = new ServerHub({ eras: new EraMemory(), settings: { ...DEFAULT_HUB_SETTINGS, serverPriority } });
  try {
    const t0 = performance.now();
    hub.reconcile(configs);
    await hub.whenIdle();
    const ms = performance.now() - t0;
    const failed = hub.servers().filter((s) => s.state.kind !== 'running');
    if (failed.length)
      throw new Error(
        `did not start: ${failed.map((s) => `${s.name} (${s.state.kind === 'error' ? s.state.message : s.state.kind})`).join('; ')}`,
      );
    return { ms, starts };
  } finally {
    mock.restoreAll();
    await hub.closeAll();
  }
}

export async function benchConnectLoaded(): Promise<void> {
  if (!existsSync(COMPAT_MODULES)) {
    console.log(
      'connect under load | skipped: the compatibility servers are not installed (run `npm run compat` once)',
    );
    return;
  }
  const configs = servers(mkdtempSync(join(tmpdir(), 'minagent-bench-loaded-')));
  const loops = Array.from({ length: BUSY_LOOPS }, () =>
    spawn(process.execPath, ['-e', 'for(;;){}'], { stdio: 'ignore' }),
  );
  try {
    const runs = await alternate(
      ROUNDS,
      () => bySdk(configs),
      () => byHub(configs),
    );
    const sdk = runs.baseline;
    const ours = runs.subject.map((h) => h.ms);
    const starts = runs.subject.map((h) => h.starts);
    record(
      'connect under load',
      `${configs.length} real servers at once, ${BUSY_LOOPS} busy loops (median of ${ROUNDS})`,
      {
        sdkMs: median(sdk),
        minagentMs: median(ours),
        ratio: median(ours) / median(sdk),
        startsPerServer: Math.max(...starts) / configs.length,
      },
    );
  } finally {
    for (const l of loops) l.kill('SIGKILL');
  }
}

if (process.argv[1]?.endsWith('connectLoaded.ts')) void benchConnectLoaded().then(() => process.exit(0));
