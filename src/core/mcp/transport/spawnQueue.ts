/**
 * Spawning is synchronous (fork + exec; tens of milliseconds in a large host process), so starting
 * 30 servers in one tick freezes the host for the sum of them. Every spawn takes a slot here, and
 * no event-loop iteration grants more than one: a slot is granted in the check phase, by an
 * immediate that is queued only once the previous slot was granted, so it runs in the next
 * iteration, after that iteration's timers and I/O poll. (Immediates queued together would all run
 * in one check phase; a chain of zero-delay timers can also run in one timers phase, because the
 * loop's clock moves on during a slow spawn and libuv runs every timer that is due by then.)
 */
let last: Promise<void> = Promise.resolve();

/** Resolves when the caller may spawn, at least one event-loop iteration after the previous slot. */
export function spawnSlot(): Promise<void> {
  const slot = last.then(() => new Promise<void>((resolve) => setImmediate(resolve)));
  last = slot;
  return slot;
}
