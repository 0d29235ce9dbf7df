/** When a crashed server is started again: after growing delays, and not forever. */
export interface RestartPolicy {
  /** The wait before each attempt; the number of entries is the most attempts in a row. */
  delaysMs: readonly number[];
  /** A server that ran this long before crashing starts again from the first delay. */
  healthyAfterMs: number;
  /** Awaited after the delay, before the restart (tests use it to hold a server down until they have looked). */
  beforeRestart?: () => Promise<void>;
}

export const DEFAULT_RESTART_POLICY: RestartPolicy = { delaysMs: [500, 1_000, 2_000, 4_000, 8_000], healthyAfterMs: 60_000 };

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
