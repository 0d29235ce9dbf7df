// A turn sent while servers are still starting (right after the window opened or reloaded, or a
// restart) waits for them, bounded, so the model is not told that their tools do not exist.
import type { ServerHub } from '../mcp/hub/serverHub';

/** How long a turn waits for servers still starting before it is sent without their tools. */
export const STARTING_WAIT_MS = 15_000;
/** A wait shorter than this is not worth a line in the chat. */
export const SHOW_WAIT_AFTER_MS = 1_000;

export interface ServersReadyOptions {
  waitMs?: number;
  /** Called once, if the wait is still going after `showAfterMs`, with the servers it waits for. */
  onWaiting?: (starting: string[]) => void;
  showAfterMs?: number;
}

/**
 * Resolves once no server is starting, after `waitMs`, or when `signal` aborts, whichever is first;
 * with the line the chat shows when the turn goes without some servers' tools (none otherwise).
 */
export async function serversReady(
  hub: Pick<ServerHub, 'servers' | 'whenIdle'>,
  signal: AbortSignal,
  options: ServersReadyOptions = {},
): Promise<string | undefined> {
  const { waitMs = STARTING_WAIT_MS, onWaiting, showAfterMs = SHOW_WAIT_AFTER_MS } = options;
  const starting = () =>
    hub
      .servers()
      .filter((s) => s.state.kind === 'starting')
      .map((s) => s.name);
  if (signal.aborted || !starting().length) return undefined;
  const timers: NodeJS.Timeout[] = [];
  let onAbort: (() => void) | undefined;
  if (onWaiting)
    timers.push(
      setTimeout(() => {
        const still = starting();
        if (still.length && !signal.aborted) onWaiting(still);
      }, showAfterMs),
    );
  try {
    await Promise.race([
      hub.whenIdle(),
      new Promise<void>((resolve) => timers.push(setTimeout(resolve, waitMs))),
      new Promise<void>((resolve) => signal.addEventListener('abort', (onAbort = () => resolve()), { once: true })),
    ]);
  } finally {
    timers.forEach(clearTimeout);
    if (onAbort) signal.removeEventListener('abort', onAbort);
  }
  const still = starting();
  return still.length && !signal.aborted
    ? `Sent without the tools of ${still.join(', ')}: still starting after ${Math.round(waitMs / 1000)} s.`
    : undefined;
}
