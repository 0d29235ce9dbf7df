/**
 * Ends a model request that stopped sending: its signal aborts when `ms` pass without `touch()`
 * (or when the outer signal aborts). A stalled stream then fails with a message that says so,
 * instead of a turn that waits forever.
 */
export class IdleWatch {
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private fired = false;
  private readonly onOuterAbort = () => this.controller.abort();

  constructor(
    private readonly outer: AbortSignal | undefined,
    private readonly ms: number | undefined,
  ) {
    if (outer?.aborted) this.controller.abort();
    else outer?.addEventListener('abort', this.onOuterAbort, { once: true });
    this.touch();
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** True when the request ended because nothing arrived in time. */
  get timedOut(): boolean {
    return this.fired;
  }

  /** Something arrived: the wait starts again. */
  touch(): void {
    if (!this.ms || this.ms <= 0 || this.controller.signal.aborted) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.fired = true;
      this.controller.abort();
    }, this.ms);
    this.timer.unref?.();
  }

  /** What the user is told. */
  message(provider: string): string {
    return `${provider}: the model sent nothing for ${Math.round((this.ms ?? 0) / 1000)} s, so the turn was ended (setting "minagent.chat.idleTimeout")`;
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.outer?.removeEventListener('abort', this.onOuterAbort);
  }
}
