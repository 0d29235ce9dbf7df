/**
 * Spawning is synchronous (fork + exec; tens of milliseconds in a large host process), so starting
 * 30 servers in one tick freezes the host for the sum of them. Every spawn takes a turn here: turns
 * are granted one at a time, each in a macrotask of its own (a timer), so between two spawns the
 * event loop runs a full iteration and answers everything else that waits. `setImmediate` would not
 * do: callbacks queued together run in one check phase.
 */
let last: Promise<void> = Promise.resolve();

/** Resolves when the caller may spawn: in its own macrotask, at least one macrotask after the previous turn. */
export function spawnTurn(): Promise<void> {
  const turn = last.then(() => new Promise<void>((resolve) => setTimeout(resolve, 0)));
  last = turn;
  return turn;
}
