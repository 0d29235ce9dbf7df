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
import { setPriority } from 'node:os';
import { writeFile } from 'node:fs/promises';

/** The nice value of a server process and, on Linux, of its session's scheduling group (Windows: below normal). */
export const SERVER_NICE = 10;

/**
 * Lowers a just-spawned server's CPU priority; its children inherit it. Best effort: a platform
 * or kernel without the knob leaves the server at the default priority, and nothing fails.
 */
export function lowerPriority(pid: number): void {
  try {
    setPriority(pid, SERVER_NICE);
  } catch {
    // gone already, or not permitted: it runs as it would have
  }
  // Asynchronous: nothing on the host's hot path touches the file system synchronously.
  if (process.platform === 'linux') writeFile(`/proc/${pid}/autogroup`, String(SERVER_NICE)).catch(() => undefined);
}
