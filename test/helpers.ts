import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Logger } from '../src/core/base/logger';
import type { HttpServerConfig, ServerConfig, StdioServerConfig } from '../src/core/mcp/config/serverConfig';
import type { ToolRegistry } from '../src/core/toolRegistry/toolRegistry';
import { ToolIndex } from '../src/core/toolSearch/toolIndex';
import { ToolOffer } from '../src/core/toolSearch/toolOffer';
import { fixtureServers } from './fixtureServers';

export const ROOT = resolve(__dirname, '..');
/** The fixture servers (fixtures/servers), bundled: test/fixtureServers.ts. */
export const SERVERS = fixtureServers(ROOT);

/** The built CLI (`npm run build` writes it). */
export const CLI = join(ROOT, 'dist', 'cli.js');

/** Runs the built `minagent ARGS` to its end, with nothing on its stdin: its exit code, stdout and stderr. */
export function runCli(
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; timeout?: number },
): { code: number | null; out: string; err: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    cwd: options.cwd,
    env: options.env ?? process.env,
    encoding: 'utf8',
    timeout: options.timeout ?? 30_000,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** A stdio config for a fixture server of fixtures/servers (its bundle). */
export function fixture(
  name: string,
  file: string,
  args: string[] = [],
  extra: Partial<StdioServerConfig> = {},
): StdioServerConfig {
  return {
    name,
    type: 'stdio',
    command: process.execPath,
    args: [join(SERVERS, file), ...args],
    env: {},
    cwd: ROOT,
    autoApprove: [],
    ...extra,
  };
}

/** An HTTP config for the server at `url`, sending `headers`. */
export function httpConfig(name: string, url: string, headers: Record<string, string> = {}): HttpServerConfig {
  return { name, type: 'http', url, headers, autoApprove: [] };
}

/** A logger that keeps each line in `log` as "<level> <message>" (info, warn and error; trace is dropped). */
export function loggerInto(log: string[]): Logger {
  return {
    trace: () => {},
    info: (m) => log.push(`info ${m}`),
    warn: (m) => log.push(`warn ${m}`),
    error: (m) => log.push(`error ${m}`),
  };
}

/** A stdio config for an official reference server, started from node_modules (never downloaded). */
export function reference(
  name: string,
  pkg: 'server-everything' | 'server-filesystem' | 'server-memory',
  args: string[] = [],
  env: Record<string, string> = {},
): ServerConfig {
  const dir = join(ROOT, 'node_modules', '@modelcontextprotocol', pkg);
  const bin = (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { bin: Record<string, string> }).bin;
  return {
    name,
    type: 'stdio',
    command: process.execPath,
    args: [join(dir, Object.values(bin)[0]!), ...args],
    env,
    cwd: ROOT,
    autoApprove: [],
  };
}

/** A process's parent, from /proc; undefined once it is gone. */
export function ppidOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined;
  }
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^[ZX]/.test(stat.slice(stat.lastIndexOf(')') + 2));
  } catch {
    return false;
  }
}

/**
 * A process as "pid:start time" (clock ticks since boot, /proc/PID/stat field 22). On a busy machine
 * pids are reused; a stamp never is, so a leak check over stamps cannot be fooled by a stranger.
 */
export function stampOf(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return `${pid}:${stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]}`;
  } catch {
    return undefined;
  }
}

/** Whether the process a stamp names is still running (not the same pid reused by another). */
export function isStampAlive(stamp: string): boolean {
  const pid = Number(stamp.split(':')[0]);
  return isAlive(pid) && stampOf(pid) === stamp;
}

/**
 * Polls `probe` until it yields a value; `what` (a function: worked out at the timeout) names what was awaited.
 * Every 25 ms for the first second, then every 100 ms: an e2e probe is a round trip into the browser, and
 * measured in a loaded editor, probing a webview every 25 ms cost 1.2 CPU-seconds per 10 s of waiting against
 * 0.1-0.4 every 100 ms, CPU the tests running beside it need (the e2e stage is CPU-bound).
 */
export async function waitFor<T>(
  what: string | (() => string),
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  ms = 60_000,
): Promise<T> {
  const began = Date.now();
  const until = began + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${typeof what === 'string' ? what : what()}`);
    await new Promise((r) => setTimeout(r, Date.now() - began < 1_000 ? 25 : 100));
  }
}

export function parseError(text: string): string {
  const v = JSON.parse(text) as { error?: unknown };
  if (typeof v.error !== 'string') throw new Error(`not an error result: ${text}`);
  return v.error;
}

/** A port nothing listens on right now. */
export async function freePort(): Promise<number> {
  const { createServer } = await import('node:net');
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as { port: number }).port;
  await new Promise((r) => srv.close(r));
  return port;
}

/**
 * Starts a fixture that prints "listening <port>" (the HTTP MCP server, the mock model) and
 * returns its port; ending its stdin stops it.
 */
export async function listeningFixture(
  file: string,
  args: string[] = [],
): Promise<{ port: string; child: import('node:child_process').ChildProcess }> {
  const { spawn } = await import('node:child_process');
  const path = file.startsWith('fixtures/servers/')
    ? join(SERVERS, file.slice('fixtures/servers/'.length))
    : join(ROOT, file);
  const child = spawn(process.execPath, [path, ...args], { stdio: ['pipe', 'pipe', 'inherit'] });
  const port = await new Promise<string>((r) =>
    child.stdout!.once('data', (d: Buffer) => r(String(d).trim().split(' ')[1]!)),
  );
  return { port, child };
}

/**
 * Starts an HTTP fixture under fixtures/servers that prints "listening <port>" and writes one line
 * per request on stderr ("<HTTP method> <JSON-RPC method>"); `methods` collects those lines.
 */
export async function httpFixtureWithMethods(
  file: string,
  args: string[] = [],
  env: Record<string, string> = {},
): Promise<{ url: string; methods: string[]; child: import('node:child_process').ChildProcess }> {
  const { spawn } = await import('node:child_process');
  const child = spawn(process.execPath, [join(SERVERS, file), ...args], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  const methods: string[] = [];
  child.stderr!.on('data', (d: Buffer) => methods.push(...String(d).split('\n').filter(Boolean)));
  const port = await new Promise<string>((r) =>
    child.stdout!.once('data', (d: Buffer) => r(String(d).trim().split(' ')[1]!)),
  );
  return { url: `http://127.0.0.1:${port}/mcp`, methods, child };
}

const started: Array<import('node:child_process').ChildProcess> = [];

/** Starts fixtures/servers/http.mjs with `args` and returns its MCP endpoint; `stopFixtures` ends it. */
export async function httpMcpServer(...args: string[]): Promise<string> {
  const { port, child } = await listeningFixture('fixtures/servers/http.mjs', args);
  started.push(child);
  return `http://127.0.0.1:${port}/mcp`;
}

/** Ends every fixture started through these helpers (their stdin closing stops them). */
export function stopFixtures(): void {
  for (const child of started.splice(0)) child.stdin?.end();
}

/**
 * Counts event-loop iterations: an immediate that re-arms itself runs once per check phase. `now`
 * is the current iteration; `stop()` ends the count.
 */
export function iterationCounter(): { readonly now: number; stop(): void } {
  let iteration = 0;
  let counter = setImmediate(function tick() {
    iteration++;
    counter = setImmediate(tick);
  });
  return {
    get now() {
      return iteration;
    },
    stop: () => clearImmediate(counter),
  };
}

/**
 * What a test's chat offers the model: every tool of `registry` (or none, with `none`), deferred by the default rule.
 */
export function offerOf(registry: ToolRegistry, none = false): ToolOffer {
  return new ToolOffer({ registry, index: new ToolIndex(registry), ...(none ? { isOn: () => false } : {}) });
}

/** The processes (pid and command line) whose command line names `marker`. */
export function processesNaming(marker: string): string[] {
  const out = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' });
  return out.split('\n').filter((l) => l.includes(marker) && !l.includes('ps -eo'));
}
