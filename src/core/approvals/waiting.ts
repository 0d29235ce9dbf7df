/** A user's answer to an approval card. Only these allow a call. */
export type AllowDecision = 'once' | 'chat' | 'always';

const ALLOWING: ReadonlySet<unknown> = new Set<AllowDecision>(['once', 'chat', 'always']);

/** True only for an explicit allow; anything else (a typo, another type, a missing value) is a denial. */
export function isAllowDecision(decision: unknown): decision is AllowDecision {
  return ALLOWING.has(decision);
}

/**
 * Approvals waiting for an answer, by call id. Fails closed: an answer that is not an explicit
 * allow denies, and so does the signal (Stop, or the server's tool list changing).
 */
export class WaitingApprovals {
  private readonly pending = new Map<string, (decision: AllowDecision | undefined) => void>();

  /** Resolves to the allow decision, or undefined for a denial. */
  wait(callId: string, signal?: AbortSignal): Promise<AllowDecision | undefined> {
    return new Promise((resolve) => {
      const finish = (decision: AllowDecision | undefined) => {
        if (this.pending.get(callId) !== finish) return;
        this.pending.delete(callId);
        signal?.removeEventListener('abort', onAbort);
        resolve(decision);
      };
      const onAbort = () => finish(undefined);
      this.pending.get(callId)?.(undefined); // a second wait for the same id replaces (and denies) the first
      this.pending.set(callId, finish);
      if (signal?.aborted) finish(undefined);
      else signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** An answer from the UI; unknown call ids are ignored. */
  answer(callId: unknown, decision: unknown): void {
    if (typeof callId !== 'string') return;
    this.pending.get(callId)?.(isAllowDecision(decision) ? decision : undefined);
  }

  get size(): number {
    return this.pending.size;
  }
}
