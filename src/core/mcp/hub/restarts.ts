import type { Logger } from '../../base/logger';

/** When a crashed server is started again: after growing delays, and not forever. */
export interface RestartPolicy {
  /** The wait before each attempt; the number of entries is the most attempts in a row. */
  delaysMs: readonly number[];
  /** A server that ran this long before crashing starts again from the first delay. */
  healthyAfterMs: number;
}

export const DEFAULT_RESTART_POLICY: RestartPolicy = {
  delaysMs: [500, 1_000, 2_000, 4_000, 8_000],
  healthyAfterMs: 60_000,
};

/** Counts one server's consecutive crashes and says what to do about the next one. */
export class CrashCounter {
  private attempts = 0;

  constructor(private readonly policy: RestartPolicy) {}

  /** The next attempt's delay, or undefined when it is time to give up. */
  next(ranForMs: number): { delayMs: number; attempt: number; of: number } | undefined {
    if (ranForMs >= this.policy.healthyAfterMs) this.attempts = 0;
    const delayMs = this.policy.delaysMs[this.attempts];
    if (delayMs === undefined) return undefined;
    this.attempts++;
    return { delayMs, attempt: this.attempts, of: this.policy.delaysMs.length };
  }

  get limit(): number {
    return this.policy.delaysMs.length;
  }

  reset(): void {
    this.attempts = 0;
  }
}

/** One server's restart bookkeeping, as the hub keeps it. */
export interface RestartState {
  crashes: CrashCounter;
  /** Set while a crashed server waits to come back, or after giving up. */
  restartNote: string | undefined;
  restartTimer: NodeJS.Timeout | undefined;
  /** True while the current source is an automatic restart. */
  restarting: boolean;
}

/** True while a crashed server waits for (or makes) an automatic restart. */
export function isRestarting(state: RestartState): boolean {
  return state.restartTimer !== undefined || state.restarting;
}

/**
 * After a crash that ran for `ranForMs`: notes what comes next and schedules `restart` after the
 * policy's delay, or gives up and says so (at once when an automatic restart `cannotStart`). Returns
 * false when it gave up.
 */
export function scheduleRestart(
  state: RestartState,
  ranForMs: number,
  log: Logger,
  restart: () => void,
  cannotStart?: true,
): boolean {
  // An automatic restart whose process could not be started at all (its command, folder or sandbox is gone):
  // the next attempts would fail the same way.
  const hopeless = cannotStart === true && state.restarting;
  const next = hopeless ? undefined : state.crashes.next(ranForMs);
  if (!next) {
    state.restarting = false;
    state.restartNote = hopeless
      ? 'gave up: it cannot be started as it is (its error says why); restart it when it is fixed'
      : `gave up after ${state.crashes.limit} automatic restarts; restart it when it is fixed`;
    log.error(state.restartNote);
    return false;
  }
  state.restartNote = `restarting in ${formatDelay(next.delayMs)} (attempt ${next.attempt} of ${next.of})`;
  log.warn(`crashed; ${state.restartNote}`);
  state.restartTimer = setTimeout(() => {
    state.restartTimer = undefined;
    restart();
  }, next.delayMs);
  return true;
}

/** Forgets a pending restart and its note (the server was started, stopped or restarted by hand). */
export function cancelRestart(state: RestartState): void {
  clearTimeout(state.restartTimer);
  state.restartTimer = undefined;
  state.restartNote = undefined;
  state.restarting = false;
}

function formatDelay(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${ms / 1000} s`;
}
