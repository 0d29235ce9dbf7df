import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { deserializeMessage, serializeMessage, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/client';
import { LineReader } from './lineReader';
import { guardProcessGroup, releaseProcessGroup } from './orphanGuard';
import { processTree, signalTree } from './processTree';
import { hostPlanContext, planSpawn } from './spawnPlan';

/** What send() rejects with once the process is gone. */
export const PROCESS_NOT_RUNNING = 'server process is not running';

export interface ProcessParams {
  command: string;
  args: string[];
  /** The complete environment of the child. */
  env: Record<string, string>;
  cwd: string;
  /** Each stderr chunk, as text. Stderr is always read: an unread pipe stalls the server. */
  onStderr?: (text: string) => void;
  /** A stdout line that is not JSON-RPC. */
  onGarbage?: (line: string) => void;
  maxMessageBytes?: number;
}

export interface CloseTimings {
  /** How long a server gets to exit on stdin EOF before SIGTERM. */
  eofGraceMs: number;
  /** How long after SIGTERM before SIGKILL. */
  termGraceMs: number;
}

export const DEFAULT_CLOSE_TIMINGS: CloseTimings = { eofGraceMs: 100, termGraceMs: 400 };

export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
}

const POLL_MS = 10;
const DEFAULT_MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

/**
 * An MCP stdio transport that owns its server's whole process tree. The server is started as the
 * leader of a new process group; `close()` ends stdin, then signals the group and every known
 * descendant with SIGTERM and finally SIGKILL, and resolves only when none of them is alive.
 */
export class ProcessTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;

  private child: ChildProcess | undefined;
  private exitInfo: ExitInfo | undefined;
  private exited: Promise<void> | undefined;
  private closing: Promise<void> | undefined;
  private closeFired = false;
  /** Descendants seen while the leader lived, so they are found after they are reparented. */
  private knownTree = new Set<number>();

  constructor(
    private readonly params: ProcessParams,
    private readonly timings: CloseTimings = DEFAULT_CLOSE_TIMINGS,
  ) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  get exit(): ExitInfo | undefined {
    return this.exitInfo;
  }

  /** Resolves once the process has exited (with its status in `exit`), or after `ms`, whichever is first. */
  async exitWithin(ms: number): Promise<ExitInfo | undefined> {
    if (this.exited) await Promise.race([this.exited, delay(ms)]);
    return this.exitInfo;
  }

  start(): Promise<void> {
    if (this.child) throw new Error('transport already started');
    const { command, args, env, cwd } = this.params;
    return new Promise((resolve, reject) => {
      // Never a shell: on Windows a .cmd shim goes through cmd.exe with every argument escaped.
      const plan = planSpawn(command, args, hostPlanContext(env, cwd));
      const child = spawn(plan.file, plan.args, {
        env,
        cwd,
        stdio: ['pipe', 'pipe', 'pipe'],
        detached: process.platform !== 'win32',
        windowsHide: true,
        shell: false,
        ...(plan.windowsVerbatimArguments ? { windowsVerbatimArguments: true } : {}),
      });
      this.child = child;
      const reader = new LineReader(
        this.params.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES,
        (line) => this.handleLine(line),
        (bytes, edges) => this.oversize(bytes, edges),
      );
      child.stdout!.on('data', (chunk: Buffer) => reader.push(chunk));
      child.stderr!.on('data', (chunk: Buffer) => this.params.onStderr?.(chunk.toString('utf8')));
      child.stdin!.on('error', () => {
        // EPIPE after the server died; the exit handler reports it.
      });
      let stdoutEnded = false;
      const stdoutEnd = new Promise<void>((r) => child.stdout!.once('close', () => {
        stdoutEnded = true;
        r();
      }));
      this.exited = new Promise<void>((r) => {
        child.once('exit', (code, signal) => {
          this.exitInfo = { code, signal };
          // Let the last stdout bytes arrive, unless a grandchild holds the pipe open.
          const settle = stdoutEnded ? Promise.resolve() : Promise.race([stdoutEnd, delay(50)]);
          void settle.then(() => {
            r();
            this.fireClose();
          });
        });
      });
      child.once('error', (err: NodeJS.ErrnoException) => {
        if (child.pid === undefined) {
          this.exitInfo = { code: null, signal: null };
          this.exited = Promise.resolve();
          reject(spawnError(err, this.params));
          this.fireClose();
        } else {
          this.onerror?.(err);
        }
      });
      child.once('spawn', () => {
        if (child.pid !== undefined && process.platform !== 'win32') guardProcessGroup(child.pid);
        resolve();
      });
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin || stdin.destroyed || !stdin.writable || this.exitInfo) return Promise.reject(new Error(PROCESS_NOT_RUNNING));
    return new Promise((resolve, reject) => {
      const ok = stdin.write(serializeMessage(message), (err) => (err ? reject(err) : undefined));
      if (ok) resolve();
      else stdin.once('drain', () => resolve());
    });
  }

  close(): Promise<void> {
    this.closing ??= this.shutdown();
    return this.closing;
  }

  private async shutdown(): Promise<void> {
    const child = this.child;
    const leader = child?.pid;
    if (!child || leader === undefined) {
      this.fireClose();
      return;
    }
    child.stdin?.end();
    // Let the EOF reach the server first; the scan for descendants then overlaps with its shutdown.
    await new Promise((r) => setImmediate(r));
    if (!this.exitInfo) this.remember(leader);
    if (!this.exitInfo) await Promise.race([this.exited, delay(this.timings.eofGraceMs)]);

    const onlyLeaderSeen = [...this.knownTree].every((pid) => pid === leader);
    let tree = this.exitInfo && onlyLeaderSeen && !groupExists(leader) ? new Set<number>() : this.treeOf(leader);
    if (tree.size) {
      signalTree(leader, tree, 'SIGTERM');
      tree = await this.waitGone(leader, this.timings.termGraceMs);
    }
    if (tree.size) {
      signalTree(leader, tree, 'SIGKILL');
      await this.waitGone(leader, 2_000);
    }
    child.stdout?.destroy();
    child.stderr?.destroy();
    await this.exited;
    releaseProcessGroup(leader);
    this.fireClose();
  }

  /** Records the current descendants, so they are found after they are reparented. */
  private remember(leader: number): void {
    for (const pid of processTree(leader, this.knownTree)) this.knownTree.add(pid);
  }

  private treeOf(leader: number): Set<number> {
    const tree = processTree(leader, this.knownTree);
    for (const pid of tree) this.knownTree.add(pid);
    return tree;
  }

  private async waitGone(leader: number, ms: number): Promise<Set<number>> {
    const until = Date.now() + ms;
    let tree = this.treeOf(leader);
    while (tree.size && Date.now() < until) {
      await delay(POLL_MS);
      tree = this.treeOf(leader);
    }
    return tree;
  }

  /**
   * A message too large to keep: if it is a response whose id can be read from its first or last
   * bytes, the pending call fails at once with a clear message instead of waiting for its timeout.
   */
  private oversize(bytes: number, { head, tail }: { head: string; tail: string }): void {
    const limit = this.params.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    const message = `the server sent a message of ${bytes} bytes, over the ${limit}-byte limit; it was dropped`;
    this.params.onGarbage?.(`[${message}]`);
    const idText = /^\s*\{\s*"jsonrpc"\s*:\s*"2\.0"\s*,\s*"id"\s*:\s*(\d+|"(?:[^"\\]|\\.)*")/.exec(head)?.[1] ?? /"id"\s*:\s*(\d+|"(?:[^"\\]|\\.)*")\s*\}\s*$/.exec(tail)?.[1];
    if (idText === undefined || !/"result"|"error"/.test(head + tail)) return;
    const id = JSON.parse(idText) as string | number;
    this.onmessage?.({ jsonrpc: '2.0', id, error: { code: -32603, message } } as JSONRPCMessage);
  }

  private handleLine(line: string): void {
    if (!line.trim()) return;
    let message: JSONRPCMessage;
    try {
      message = deserializeMessage(line);
    } catch {
      this.params.onGarbage?.(line);
      return;
    }
    this.onmessage?.(message);
  }

  private fireClose(): void {
    if (this.closeFired) return;
    this.closeFired = true;
    this.onclose?.();
  }
}

/** True while any process is left in the group (a zombie counts, so this only ever errs towards a scan). */
function groupExists(leader: number): boolean {
  if (process.platform === 'win32') return true;
  try {
    process.kill(-leader, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** The server process could not be started at all (missing command, cwd, permission). */
export class SpawnError extends Error {}

function spawnError(err: NodeJS.ErrnoException, p: ProcessParams): Error {
  if (err.code === 'ENOENT' && !existsSync(p.cwd)) return new SpawnError(`working directory does not exist: ${p.cwd} (for command "${p.command}")`);
  if (err.code === 'ENOENT') {
    return new SpawnError(`command not found: "${p.command}" (spawn ENOENT; cwd ${p.cwd}; PATH=${p.env.PATH ?? p.env.Path ?? '(unset)'})`);
  }
  if (err.code === 'EACCES') return new SpawnError(`command "${p.command}" is not executable (spawn EACCES)`);
  return new SpawnError(`cannot start "${p.command}": ${err.message}`);
}
