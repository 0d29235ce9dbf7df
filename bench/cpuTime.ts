// CPU time (user + system) of a set of processes, from /proc: on a shared, loaded machine the wall
// time of a UI interaction mostly measures the machine's load, the CPU time spent on it far less.
import { readdirSync, readFileSync } from 'node:fs';

const TICK_MS = 10; // USER_HZ is 100 on Linux

interface Proc {
  pid: number;
  pgrp: number;
  cpuMs: number;
  ppid: number;
}

function procs(): Proc[] {
  const out: Proc[] = [];
  for (const entry of readdirSync('/proc')) {
    if (entry.charCodeAt(0) > 57) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.push({
        pid: Number(entry),
        ppid: Number(f[1]),
        pgrp: Number(f[2]),
        cpuMs: (Number(f[11]) + Number(f[12])) * TICK_MS,
      });
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/**
 * CPU ms used so far by the editor session this process runs: the process groups of its direct
 * children (code-server with its extension host, and the browser, each started in a group of its
 * own). MCP servers run in groups of their own and are not counted.
 */
export function sessionCpuMs(): number {
  const all = procs();
  const groups = new Set(all.filter((p) => p.ppid === process.pid).map((p) => p.pgrp));
  groups.delete(process.pid);
  return all.filter((p) => groups.has(p.pgrp)).reduce((sum, p) => sum + p.cpuMs, 0);
}
