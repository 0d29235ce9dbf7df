import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

interface ProcInfo {
  pid: number;
  ppid: number;
  pgrp: number;
}

/** Every live (non-zombie) process we can see. */
function snapshot(): ProcInfo[] {
  const out: ProcInfo[] = [];
  if (process.platform === 'linux') {
    for (const entry of readdirSync('/proc')) {
      if (entry.charCodeAt(0) > 57) continue; // not a digit: not a process
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
        // The command name sits in parentheses and may hold spaces: parse after the last ')'.
        const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        if (f[0] === 'Z' || f[0] === 'X') continue;
        out.push({ pid: Number(entry), ppid: Number(f[1]), pgrp: Number(f[2]) });
      } catch {
        // the process ended while we looked
      }
    }
    return out;
  }
  if (process.platform === 'win32') return out;
  try {
    const text = execFileSync('ps', ['-A', '-o', 'pid=,ppid=,pgid=,stat='], { encoding: 'utf8' });
    for (const line of text.split('\n')) {
      const [pid, ppid, pgrp, stat] = line.trim().split(/\s+/);
      if (pid && ppid && pgrp && !stat?.startsWith('Z')) out.push({ pid: Number(pid), ppid: Number(ppid), pgrp: Number(pgrp) });
    }
  } catch {
    // no ps: the process group signal still covers the usual case
  }
  return out;
}

/**
 * The live processes that belong to a server started as the leader of its own process group:
 * the group's members plus every descendant of the leader or of the pids already known (a child
 * that moved to a group of its own is still found while its parent lives).
 */
export function processTree(leader: number, known: Iterable<number> = []): Set<number> {
  const procs = snapshot();
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

/** Sends a signal to the process group and to each listed pid; processes already gone are fine. */
export function signalTree(leader: number, pids: Iterable<number>, signal: NodeJS.Signals): void {
  if (process.platform === 'win32') {
    try {
      execFileSync('taskkill', ['/pid', String(leader), '/T', '/F'], { stdio: 'ignore' });
    } catch {
      // already gone
    }
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
