import { execFile } from 'node:child_process';
import { close, open, read, readdir } from 'node:fs';

interface ProcInfo {
  pid: number;
  ppid: number;
  pgrp: number;
}

/** Fields after the command name of /proc/PID/stat (the name sits in parentheses and may hold spaces). */
function statFields(stat: string): string[] {
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/**
 * /proc/PID/stat, read off the event loop. Plain open/read/close callbacks: a scan reads every
 * process's file, and fs/promises' readFile (a FileHandle, an fstat, chunked reads) takes twice
 * as long for these one-line files.
 */
function readStat(pid: number): Promise<string | undefined> {
  return new Promise((resolve) =>
    open(`/proc/${pid}/stat`, 'r', (err, fd) => {
      if (err) return resolve(undefined); // the process ended while we looked
      const buf = Buffer.allocUnsafe(1024);
      read(fd, buf, 0, buf.length, 0, (readErr, n) => {
        close(fd, () => {});
        resolve(readErr ? undefined : buf.toString('utf8', 0, n));
      });
    }),
  );
}

/** A process's pid, parent and group, or undefined when it is gone or a zombie. */
async function procInfo(pid: number): Promise<ProcInfo | undefined> {
  const stat = await readStat(pid);
  if (stat === undefined) return undefined;
  const f = statFields(stat);
  if (f[0] === 'Z' || f[0] === 'X') return undefined;
  return { pid, ppid: Number(f[1]), pgrp: Number(f[2]) };
}

/** Files read at a time: enough to keep libuv's four file threads busy, never a thousand opens in one tick. */
const READS_AT_ONCE = 16;

/** procInfo for each pid, a few at a time (each finished read starts the next, from its own callback). */
async function readAll(pids: number[]): Promise<Array<ProcInfo | undefined>> {
  const out = new Array<ProcInfo | undefined>(pids.length);
  let next = 0;
  const reader = async (): Promise<void> => {
    while (next < pids.length) {
      const i = next++;
      out[i] = await procInfo(pids[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(READS_AT_ONCE, pids.length) }, reader));
  return out;
}

function listProc(): Promise<string[]> {
  return new Promise((resolve) => readdir('/proc', (err, entries) => resolve(err ? [] : entries)));
}

function ps(): Promise<string> {
  return new Promise((resolve) =>
    execFile('ps', ['-A', '-o', 'pid=,ppid=,pgid=,stat='], { encoding: 'utf8' }, (err, out) => resolve(err ? '' : out)),
  );
}

let inFlight: Promise<ProcInfo[]> | undefined;

/**
 * Every live (non-zombie) process we can see, read without blocking the event loop. Callers that
 * ask while a scan is under way share it, so closing 30 servers at once reads /proc once, not 30
 * times. Closing looks for processes that ran before it was asked to close; one that a shared scan
 * missed by starting milliseconds after it is still in its server's process group, which is
 * signalled as a whole.
 */
function snapshot(): Promise<ProcInfo[]> {
  inFlight ??= readSnapshot().finally(() => {
    inFlight = undefined;
  });
  return inFlight;
}

async function readSnapshot(): Promise<ProcInfo[]> {
  if (process.platform === 'linux') {
    const pids = (await listProc()).filter((e) => e.charCodeAt(0) <= 57).map(Number);
    return (await readAll(pids)).filter((p): p is ProcInfo => !!p);
  }
  if (process.platform === 'win32') return [];
  const out: ProcInfo[] = [];
  // No ps: the process group signal still covers the usual case.
  for (const line of (await ps()).split('\n')) {
    const [pid, ppid, pgrp, stat] = line.trim().split(/\s+/);
    if (pid && ppid && pgrp && !stat?.startsWith('Z'))
      out.push({ pid: Number(pid), ppid: Number(ppid), pgrp: Number(pgrp) });
  }
  return out;
}

/**
 * The live processes that belong to a server started as the leader of its own process group:
 * the group's members plus every descendant of the leader or of the pids already known (a child
 * that moved to a group of its own is still found while its parent lives). One scan of all
 * processes; callers scan once and then watch the pids found with `alivePids`.
 */
export async function processTree(leader: number, known: Iterable<number> = []): Promise<Set<number>> {
  const procs = await snapshot();
  const tree = new Set<number>();
  const live = new Set(procs.map((p) => p.pid));
  for (const p of procs) if (p.pgrp === leader) tree.add(p.pid);
  if (live.has(leader)) tree.add(leader);
  for (const pid of known) if (live.has(pid)) tree.add(pid);
  let grew = true;
  while (grew) {
    grew = false;
    for (const p of procs) {
      if (!tree.has(p.pid) && tree.has(p.ppid)) {
        tree.add(p.pid);
        grew = true;
      }
    }
  }
  return tree;
}

/**
 * Which of `pids` still run, looking at those pids only (no scan). A zombie counts as gone: where
 * nothing reaps orphans (a container's init), a killed grandchild stays a zombie for good.
 */
export async function alivePids(pids: Iterable<number>): Promise<Set<number>> {
  const list = [...pids];
  if (process.platform === 'linux') return new Set((await readAll(list)).flatMap((p) => (p ? [p.pid] : [])));
  return new Set(
    list.filter((pid) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch (err) {
        return (err as NodeJS.ErrnoException).code === 'EPERM';
      }
    }),
  );
}

/** Sends a signal to the process group and to each listed pid; processes already gone are fine. */
export function signalTree(leader: number, pids: Iterable<number>, signal: NodeJS.Signals): void {
  if (process.platform === 'win32') {
    execFile('taskkill', ['/pid', String(leader), '/T', '/F'], { windowsHide: true }, () => {
      // already gone, or ended
    });
    return;
  }
  for (const target of [-leader, ...pids]) {
    try {
      process.kill(target, signal);
    } catch {
      // already gone
    }
  }
}
