import { spawn, type ChildProcess } from 'node:child_process';
import { spawnSlot } from './spawnQueue';

/**
 * The guard is a tiny watcher process that outlives its host only long enough to clean up: it
 * reads "+pid" / "-pid" lines on stdin, and when stdin ends (the host exited, crashed or was
 * killed, even with SIGKILL) it ends every registered server's process group. It runs in its own
 * process group so a signal to the host's group does not take it down first.
 */
const GUARD_SCRIPT = `
const groups = new Set();
let buf = '';
process.stdin.on('data', (d) => {
  buf += d;
  let i;
  while ((i = buf.indexOf('\\n')) >= 0) {
    const line = buf.slice(0, i); buf = buf.slice(i + 1);
    const pid = Number(line.slice(1));
    if (line[0] === '+') groups.add(pid); else groups.delete(pid);
  }
});
const kill = (sig) => { for (const g of groups) { try { process.kill(-g, sig); } catch {} try { process.kill(g, sig); } catch {} } };
process.stdin.on('end', () => {
  if (!groups.size) process.exit(0);
  kill('SIGTERM');
  setTimeout(() => { kill('SIGKILL'); process.exit(0); }, 500);
});
process.on('SIGTERM', () => {});
process.on('SIGHUP', () => {});
`;

let guard: ChildProcess | undefined;
/** Set while the guard waits for its spawn slot; lines written meanwhile wait with it. */
let pending: string[] | undefined;
let enabled = false;

/** Turns the guard on for this host process (the extension does; the CLI closes its servers itself). */
export function enableOrphanGuard(): void {
  enabled = process.platform !== 'win32';
}

function running(): ChildProcess | undefined {
  return guard && guard.exitCode === null && guard.stdin?.writable ? guard : undefined;
}

/**
 * Starts the guard, if it is on and not running, on a spawn slot of its own (see spawnSlot). A
 * server calls this before it queues its own spawn, so the guard is up before the first server.
 */
export function prepareOrphanGuard(): void {
  if (!enabled || pending || running()) return;
  const lines: string[] = [];
  pending = lines;
  void spawnSlot().then(() => {
    pending = undefined;
    const started = spawnGuard();
    for (const line of lines) started?.stdin?.write(line);
  });
}

function spawnGuard(): ChildProcess | undefined {
  guard = spawn(process.execPath, ['-e', GUARD_SCRIPT], {
    detached: true,
    stdio: ['pipe', 'ignore', 'ignore'],
    env: { PATH: process.env.PATH ?? '', ELECTRON_RUN_AS_NODE: '1' },
  });
  guard.on('error', () => {
    guard = undefined;
  });
  guard.stdin?.on('error', () => {});
  // The guard must never keep the host alive.
  guard.unref();
  (guard.stdin as unknown as { unref?: () => void } | null)?.unref?.();
  return guard;
}

function tell(line: string): void {
  if (!enabled) return;
  if (!pending && !running()) prepareOrphanGuard();
  if (pending) pending.push(line);
  else running()?.stdin?.write(line);
}

export function guardProcessGroup(pid: number): void {
  tell(`+${pid}\n`);
}

export function releaseProcessGroup(pid: number): void {
  if (pending || running()) tell(`-${pid}\n`);
}

/** The guard's pid, for tests. */
export function guardPid(): number | undefined {
  return guard?.pid;
}
