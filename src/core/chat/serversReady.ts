// A turn sent while servers are still starting (right after the window opened or reloaded, or a
// restart) waits for them, bounded, so the model is not told that their tools do not exist.
import type { ServerHub } from '../mcp/hub';

/** How long a turn waits for servers still starting before it is sent without their tools. */
export const STARTING_WAIT_MS = 15_000;

/**
 * Resolves once no server is starting, after `waitMs`, or when `signal` aborts, whichever is first;
 * with the line the chat shows when the turn goes without some servers' tools (none otherwise).
 */
export async function serversReady(hub: Pick<ServerHub, 'servers' | 'whenIdle'>, signal: AbortSignal, waitMs = STARTING_WAIT_MS): Promise<string | undefined> {
  const starting = () => hub.servers().filter((s) => s.state.kind === 'starting').map((s) => s.name);
  if (signal.aborted || !starting().length) return undefined;
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  try {
    await Promise.race([
      hub.whenIdle(),
      new Promise<void>((resolve) => (timer = setTimeout(resolve, waitMs))),
      new Promise<void>((resolve) => signal.addEventListener('abort', (onAbort = () => resolve()), { once: true })),
    ]);
  } finally {
    clearTimeout(timer);
    if (onAbort) signal.removeEventListener('abort', onAbort);
  }
  const still = starting();
  return still.length && !signal.aborted ? `Sent without the tools of ${still.join(', ')}: still starting after ${Math.round(waitMs / 1000)} s.` : undefined;
}
