import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { serializeMessage, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/client';
import { deliver } from './inbox';
import { messageReader } from './messageReader';
import { guardProcessGroup, prepareOrphanGuard, releaseProcessGroup } from './orphanGuard';
import { lowerPriority, startedLow } from './priority';
import { alivePids, processTree, signalTree } from './processTree';
import { spawnSlot } from './spawnQueue';
import { spawnError } from './spawnError';
import resolveCommand from 'cross-spawn/lib/util/resolveCommand.js';
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
  /** Run below the editor (nice 10, its scheduling group too; see priority.ts); default: the user's normal priority. */
  lowPriority?: boolean;
  /**
   * Puts the process in a sandbox: what to spawn instead, and a release for when it is gone. Its
   * failure fails the start (a sandboxed server never starts without its sandbox).
   */
  sandbox?: (spawn: {
    command: string;
    args: string[];
    env: Record<string, string>;
    cwd: string;
  }) => Promise<{ command: string; args: string[]; env: Record<string, string>; release(): void }>;
}

export interface CloseTimings {
  /**
   * How long a server gets to exit on stdin EOF before SIGTERM (the SDK's client gives 2 s: a server that flushes on
   * exit needs it on a busy machine).
   */
  eofGraceMs: number;
  /** How long after SIGTERM before SIGKILL. */
  termGraceMs: number;
}

export const DEFAULT_CLOSE_TIMINGS: CloseTimings = { eofGraceMs: 2_000, termGraceMs: 400 };

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
  private closeFired: Promise<void> | undefined;
  private started = false;
  /** Ends what the sandbox keeps for this process (its network list, the runtime's last user). */
  private releaseSandbox: (() => void) | undefined;
  private markRunning!: () => void;
  /** Resolves once the process runs (never, for one that could not start). */
  readonly running = new Promise<void>((resolve) => (this.markRunning = resolve));
  /** When the process started to run (ms since the epoch). */
  runningSince: number | undefined;

  constructor(
    private readonly params: ProcessParams,
    private readonly timings: CloseTimings = DEFAULT_CLOSE_TIMINGS,
  ) {}

  /** The server's process, once started. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  get exit(): ExitInfo | undefined {
    return this.exitInfo;
  }

  /**
   * Always null: stderr is read through `onStderr`. The property is there because the SDK's era
   * negotiation recognises a stdio transport by its `pid` and `stderr` (silence on a pipe means a
   * legacy server; on HTTP it means an outage).
   */
  get stderr(): null {
    return null;
  }

  /** True once close() was called. */
  get closed(): boolean {
    return this.closing !== undefined;
  }

  /** What the process is: a digest of its command, arguments, working directory and environment. */
  get identity(): string {
    const { command, args, cwd, env } = this.params;
    return createHash('sha256')
      .update(JSON.stringify([command, args, cwd, Object.entries(env).sort()]))
      .digest('hex');
  }

  /** Resolves once the process has exited (with its status in `exit`), or after `ms`, whichever is first. */
  async exitWithin(ms: number): Promise<ExitInfo | undefined> {
    if (this.exited) await settledWithin(this.exited, ms);
    return this.exitInfo;
  }

  /** What to spawn: the entry's command, or the sandbox it runs in. */
  private async wrapped(): Promise<{ command: string; args: string[]; env: Record<string, string>; cwd: string }> {
    const { command, args, env, cwd, sandbox } = this.params;
    if (!sandbox) return { command, args, env, cwd };
    const inside = await sandbox({ command, args, env, cwd });
    this.releaseSandbox = inside.release;
    return { ...inside, cwd };
  }

  /** Spawns the server in its own slot of the event loop (see spawnSlot) and resolves once it runs. */
  async start(): Promise<void> {
    if (this.started) throw new Error('transport already started');
    this.started = true;
    prepareOrphanGuard();
    await spawnSlot();
    // Closed while it waited for its slot: nothing to start, nothing to end.
    if (this.closing) throw new Error(PROCESS_NOT_RUNNING);
    const { command, args, env, cwd } = await this.wrapped();
    if (this.closing) {
      this.releaseSandbox?.();
      throw new Error(PROCESS_NOT_RUNNING);
    }
    return new Promise((resolve, reject) => {
      // Never a shell: on Windows a .cmd shim goes through cmd.exe with every argument escaped.
      const plan = planSpawn(command, args, hostPlanContext(env, cwd));
      const started = this.params.lowPriority
        ? startedLow(plan.file, plan.args, !!resolveCommand({ command: plan.file, options: { env, cwd } }))
        : { ...plan, nice: false };
      const child = spawn(started.file, started.args, {
        env,
        cwd,
        stdio: ['pipe', 'pipe', 'pipe'],
        detached: process.platform !== 'win32',
        windowsHide: true,
        shell: false,
        ...(plan.windowsVerbatimArguments ? { windowsVerbatimArguments: true } : {}),
      });
      this.child = child;
      if (child.pid !== undefined && this.params.lowPriority) lowerPriority(child.pid, started.nice);
      const reader = messageReader(
        this.params.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES,
        (m) => this.onmessage?.(m),
        this.params.onGarbage,
      );
      child.stdout!.on('data', (chunk: Buffer) => reader.push(chunk));
      child.stderr!.on('data', (chunk: Buffer) => this.params.onStderr?.(chunk.toString('utf8')));
      child.stdin!.on('error', () => {
        // EPIPE after the server died; the exit handler reports it.
      });
      let pipesEnded = false;
      const pipesEnd = Promise.all([
        new Promise((r) => child.stdout!.once('close', r)),
        new Promise((r) => child.stderr!.once('close', r)),
      ]).then(() => {
        pipesEnded = true;
      });
      this.exited = new Promise<void>((r) => {
        child.once('exit', (code, signal) => {
          this.exitInfo = { code, signal };
          // Let the last stdout and stderr bytes arrive (the stderr says why it died), unless a grandchild holds a pipe
          // open.
          const settle = pipesEnded ? Promise.resolve() : settledWithin(pipesEnd, 50);
          void settle.then(() => this.fireClose()).then(r);
        });
      });
      child.once('error', (err: NodeJS.ErrnoException) => {
        if (child.pid === undefined) {
          this.exitInfo = { code: null, signal: null };
          this.exited = Promise.resolve();
          void spawnError(err, this.params).then((e) => {
            reject(e);
            void this.fireClose();
          });
        } else {
          this.onerror?.(err);
        }
      });
      child.once('spawn', () => {
        if (child.pid !== undefined && process.platform !== 'win32') guardProcessGroup(child.pid);
        this.runningSince = Date.now();
        this.markRunning();
        resolve();
      });
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin || stdin.destroyed || !stdin.writable || this.exitInfo)
      return Promise.reject(new Error(PROCESS_NOT_RUNNING));
    if (!stdin.writableCorked) {
      // The messages sent in this tick go out in one write (a burst of calls is one wake-up of the
      // server, not a hundred).
      stdin.cork();
      process.nextTick(() => stdin.uncork());
    }
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
      await this.fireClose();
      return;
    }
    // One scan of the process table per close, while the server still runs: its descendants are
    // found before its exit reparents them (a child that left the group would be lost then).
    const alreadyGone = !!this.exitInfo && !groupExists(leader);
    const found = alreadyGone ? new Set<number>() : await processTree(leader);
    child.stdin?.end();
    if (!this.exitInfo) await settledWithin(this.exited, this.timings.eofGraceMs);

    // From here on only the pids found are watched; the group as a whole is signalled too.
    let tree = await alivePids(found);
    if (tree.size) {
      signalTree(leader, tree, 'SIGTERM');
      tree = await this.waitGone(tree, this.timings.termGraceMs);
    }
    if (tree.size || (!alreadyGone && groupExists(leader))) {
      signalTree(leader, tree, 'SIGKILL');
      await this.waitGone(tree, 2_000);
    }
    child.stdout?.destroy();
    child.stderr?.destroy();
    await this.exited;
    releaseProcessGroup(leader);
    await this.fireClose();
  }

  /** Waits until none of `pids` runs, or `ms` passed; resolves with those still running. */
  private async waitGone(pids: Set<number>, ms: number): Promise<Set<number>> {
    const until = Date.now() + ms;
    let tree = await alivePids(pids);
    while (tree.size && Date.now() < until) {
      await delay(POLL_MS);
      tree = await alivePids(tree);
    }
    return tree;
  }

  /** Fires onclose once, after the messages that came before it; resolves when it has run. */
  private fireClose(): Promise<void> {
    this.releaseSandbox?.();
    this.releaseSandbox = undefined;
    this.closeFired ??= new Promise<void>((resolve) =>
      deliver(() => {
        try {
          this.onclose?.();
        } finally {
          resolve();
        }
      }),
    );
    return this.closeFired;
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

/**
 * Waits for `promise`, or `ms`, whichever is first; the timer goes with the wait. A grace left to run
 * out kept the process alive: the CLI, its servers gone in milliseconds, sat out their whole 2 s grace
 * (and a crash diagnosis's 1 s) before it could exit.
 */
async function settledWithin(promise: Promise<unknown> | undefined, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([promise, new Promise<void>((r) => (timer = setTimeout(r, ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
