// On request (`minagent.serverPriority: "low"`), MCP servers run below the editor: when thirty
// servers answer at once on a two-core machine, the host that launched them still gets the CPU it
// needs (its event loop is every extension's, hovers and completions included). Not the default: on a
// busy machine a server at nice 10 starts several times slower than the SDK's client starts it
// (a DuckDB server: 19 s against 4.7 s) and missed the connect limit.
//
// A server is started in a session of its own (setsid: its process group is ended as one). Linux,
// with autogroup scheduling (the default of most desktop distributions), then schedules each
// session as a group with the weight of a whole login session, whatever the nice value of its
// processes: thirty servers weighed thirty times the editor. So the group's nice is set as well.
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { setPriority } from 'node:os';

/** The nice value of a server process and, on Linux, of its session's scheduling group (Windows: below normal). */
export const SERVER_NICE = 10;

/**
 * Lowers a just-spawned server's CPU priority; its children inherit it. Best effort: a platform
 * or kernel without the knob leaves the server at the default priority, and nothing fails.
 */
export function lowerPriority(pid: number, startedNice = false): void {
  // Started through `nice`, whose own call comes after this one would (a second step up: 19).
  if (!startedNice) {
    try {
      setPriority(pid, SERVER_NICE);
    } catch {
      // gone already, or not permitted: it runs as it would have
    }
  }
  // Asynchronous: nothing on the host's hot path touches the file system synchronously.
  if (process.platform === 'linux') writeFile(`/proc/${pid}/autogroup`, String(SERVER_NICE)).catch(() => undefined);
}

/** The system's `nice`, when it has one (POSIX); looked up once. */
let niceBinary: string | null | undefined;

/**
 * The command that starts a server already at SERVER_NICE: through `nice`, which execs it (the same
 * pid), so no process of the server ever runs above it. Lowering it after the spawn alone raced: on a
 * loaded machine a wrapper forked its server before the host's call, and that server kept nice 0.
 * Unchanged where there is no `nice` (Windows: `lowerPriority` after the spawn).
 */
export function startedLow(
  file: string,
  args: readonly string[],
  /** Whether the command is there to run (a missing one must fail to spawn as itself, ENOENT, not as nice's 127). */
  runnable: boolean,
): { file: string; args: string[]; nice: boolean } {
  if (niceBinary === undefined) {
    niceBinary =
      process.platform === 'win32' ? null : (['/usr/bin/nice', '/bin/nice'].find((p) => existsSync(p)) ?? null);
  }
  return niceBinary && runnable
    ? { file: niceBinary, args: ['-n', String(SERVER_NICE), file, ...args], nice: true }
    : { file, args: [...args], nice: false };
}
