import type { Post } from '../../core/chat/chatActions';
import type { AskAnswer, AskView } from '../../shared/asks';
import type { HostMessage } from '../../shared/protocol';

/** An ask before it has its id (Omit over each member of the union). */
export type NewAsk = AskView extends infer A ? (A extends AskView ? Omit<A, 'id'> : never) : never;
type Pending = { view: AskView; resolve: (answer: AskAnswer | undefined) => void };

const OUTCOMES: Record<AskAnswer['action'], string> = {
  accept: 'accepted',
  decline: 'declined',
  cancel: 'cancelled',
  allow: 'allowed',
  deny: 'denied',
};

/**
 * Servers' asks as cards in the chat: each waits for the user's answer from a card (any attached
 * view), ends when its request is cancelled, and is shown again to a view that opens meanwhile.
 * An answer of the wrong kind for its card (a form answer for a sampling card) is ignored.
 */
export class ChatAsks {
  private readonly pending = new Map<string, Pending>();
  private next = 0;

  constructor(private readonly publish: (m: HostMessage) => void) {}

  ask(view: NewAsk, signal: AbortSignal): Promise<AskAnswer | undefined> {
    const id = `ask-${++this.next}`;
    const full = { ...view, id } as AskView;
    return new Promise((resolve) => {
      const onAbort = () => this.settle(id, undefined, 'cancelled by the server');
      this.pending.set(id, {
        view: full,
        resolve: (answer) => {
          signal.removeEventListener('abort', onAbort);
          resolve(answer);
        },
      });
      signal.addEventListener('abort', onAbort, { once: true });
      this.publish({ type: 'ask', ask: full });
      if (signal.aborted) onAbort();
    });
  }

  answer(id: string, answer: AskAnswer): void {
    const p = this.pending.get(id);
    if (!p) return;
    const formAnswer = answer.action === 'accept' || answer.action === 'decline' || answer.action === 'cancel';
    if (formAnswer !== (p.view.kind === 'form')) return;
    this.settle(
      id,
      answer,
      answer.action === 'allow' && answer.remember
        ? 'allowed, and remembered for this server'
        : OUTCOMES[answer.action],
    );
  }

  /** A view that opens (or reloads) gets the cards still waiting. */
  replay(post: Post): void {
    for (const p of this.pending.values()) post({ type: 'ask', ask: p.view });
  }

  private settle(id: string, answer: AskAnswer | undefined, outcome: string): void {
    const p = this.pending.get(id);
    if (!p) return;
    this.pending.delete(id);
    this.publish({ type: 'askDone', id, outcome });
    p.resolve(answer);
  }

  dispose(): void {
    for (const id of [...this.pending.keys()]) this.settle(id, undefined, 'cancelled');
  }
}
