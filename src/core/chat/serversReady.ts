// A turn sent while servers are still starting (right after the window opened or reloaded, or a
// restart) waits for them, bounded, so the model is not told that their tools do not exist. Then the
// lists whose TTL ran out are listed again (bounded too), so the model is offered the tools as they are.
import type { ServerHub } from '../mcp/hub/serverHub';

/** How long a turn waits for servers still starting before it is sent without their tools. */
export const STARTING_WAIT_MS = 15_000;
/** How long a turn waits for stale lists to be listed again before it goes with the lists held. */
export const STALE_WAIT_MS = 5_000;
/** A wait shorter than this is not worth a line in the chat. */
export const SHOW_WAIT_AFTER_MS = 1_000;

export interface ServersReadyOptions {
  waitMs?: number;
  staleWaitMs?: number;
  /** Called once, if the wait is still going after `showAfterMs`, with the servers it waits for. */
  onWaiting?: (starting: string[]) => void;
  showAfterMs?: number;
}

/**
 * Resolves once no server is starting, after `waitMs`, or when `signal` aborts, whichever is first;
 * with the line the chat shows when the turn goes without some servers' tools (none otherwise).
 */
export async function serversReady(
  hub: Pick<ServerHub, 'servers' | 'whenIdle' | 'refreshStale'>,
  signal: AbortSignal,
  options: ServersReadyOptions = {},
): Promise<string | undefined> {
  const said = await startedServers(hub, signal, options);
  await bounded(hub.refreshStale(), options.staleWaitMs ?? STALE_WAIT_MS, signal);
  return said;
}

async function startedServers(
  hub: Pick<ServerHub, 'servers' | 'whenIdle'>,
  signal: AbortSignal,
  options: ServersReadyOptions,
): Promise<string | undefined> {
  const { waitMs = STARTING_WAIT_MS, onWaiting, showAfterMs = SHOW_WAIT_AFTER_MS } = options;
  const starting = () =>
    hub
      .servers()
      .filter((s) => s.state.kind === 'starting')
      .map((s) => s.name);
  if (signal.aborted || !starting().length) return undefined;
  const timer = onWaiting
    ? setTimeout(() => {
        const still = starting();
        if (still.length && !signal.aborted) onWaiting(still);
      }, showAfterMs)
    : undefined;
  try {
    await bounded(hub.whenIdle(), waitMs, signal);
  } finally {
    clearTimeout(timer);
  }
  const still = starting();
  return still.length && !signal.aborted
    ? `Sent without the tools of ${still.join(', ')}: still starting after ${Math.round(waitMs / 1000)} s.`
    : undefined;
}

/** Waits for `work` at most `ms`, or until `signal` aborts. */
async function bounded(work: Promise<unknown>, ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return;
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  try {
    await Promise.race([
      work,
      new Promise<void>((resolve) => (timer = setTimeout(resolve, ms))),
      new Promise<void>((resolve) => signal.addEventListener('abort', (onAbort = () => resolve()), { once: true })),
    ]);
  } finally {
    clearTimeout(timer);
    if (onAbort) signal.removeEventListener('abort', onAbort);
  }
}
