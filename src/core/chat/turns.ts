import { Emitter } from '../base/event';
import type { TakenContext } from './attachments';
import type { Conversation } from './conversation/conversation';
import { Turn, type EndReason, type TurnHost, type TurnInput, type TurnOutcome } from './turn';

/** Thrown to the view that sent a message while its conversation already runs a turn. */
export class TurnBusy extends Error {
  constructor() {
    super('a turn is already running in this chat; stop it first');
    this.name = 'TurnBusy';
  }
}

/**
 * The owner of running turns: at most one per conversation, decided synchronously when a message
 * arrives (before anything is awaited), so two sends at once (the sidebar and the editor panel)
 * start one turn, and the other sender is told why not.
 */
export class TurnRunner {
  private readonly running = new Map<Conversation, Turn>();
  private readonly onDidChangeBusyEmitter = new Emitter<{ conversation: Conversation; busy: boolean }>();
  readonly onDidChangeBusy = this.onDidChangeBusyEmitter.event;

  constructor(private readonly host: TurnHost) {}

  busy(conversation: Conversation): boolean {
    return this.running.has(conversation);
  }

  /** Starts a turn, or throws TurnBusy; the returned promise settles with its outcome when the turn has ended. */
  start(conversation: Conversation, input: TurnInput, origin?: unknown, attached?: TakenContext): Promise<TurnOutcome> {
    if (this.running.has(conversation)) throw new TurnBusy();
    const turn = new Turn(conversation, this.host, input, origin, attached);
    this.running.set(conversation, turn);
    this.onDidChangeBusyEmitter.fire({ conversation, busy: true });
    return turn.start().finally(() => this.release(turn));
  }

  /**
   * Ends the conversation's turn: its signal aborts the model stream, the tool calls and a waiting
   * approval. The conversation stays busy until the turn has written its last change (cancelled
   * cards, "Stopped."), so a next turn never interleaves with it. New Chat does not wait: the new
   * conversation is another conversation, and the old turn only ever writes into its own.
   */
  end(conversation: Conversation, reason: EndReason): void {
    this.running.get(conversation)?.end(reason);
  }

  /** Ends every turn a view started (that view was closed). */
  endFrom(origin: unknown, reason: EndReason): void {
    for (const [conversation, turn] of this.running) if (turn.origin === origin) this.end(conversation, reason);
  }

  endAll(reason: EndReason): void {
    for (const turn of this.running.values()) turn.end(reason);
  }

  /** Resolves when no turn runs (the tests wait for a turn's last write with it). */
  async idle(): Promise<void> {
    while (this.running.size) await Promise.allSettled([...this.running.values()].map((t) => t.finished));
  }

  private release(turn: Turn): void {
    this.running.delete(turn.conversation);
    this.onDidChangeBusyEmitter.fire({ conversation: turn.conversation, busy: false });
  }

  dispose(): void {
    this.endAll('disposed');
    this.onDidChangeBusyEmitter.dispose();
  }
}
