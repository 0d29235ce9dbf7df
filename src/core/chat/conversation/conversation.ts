import type { ChatMessage } from '../../agentTypes/messages';
import { Emitter } from '../../base/event';
import type { TranscriptItem } from '../../../shared/protocol';

/** What changed in a conversation: the chat views apply exactly this, never the whole state. */
export type ConversationChange =
  | { type: 'append'; item: TranscriptItem }
  | { type: 'update'; item: TranscriptItem }
  | { type: 'textDelta'; id: string; delta: string }
  | { type: 'remove'; id: string };

/** The longest full result kept for "Open full result"; the card shows its own cut copy anyway. */
export const MAX_FULL_RESULT = 200_000;

/**
 * One conversation: what the user sees (transcript items), what the model is sent (messages) and
 * the full text of tool results. It knows nothing about views or files: changes are events, and it
 * remembers what changed since the store last wrote it.
 */
export class Conversation {
  private readonly byId = new Map<string, TranscriptItem>();
  private readonly order: string[] = [];
  private readonly results = new Map<string, string>();
  private nextId = 1;
  /** Items added or changed since the store last took them. */
  private readonly dirtyItems = new Set<string>();
  private readonly dirtyResults = new Set<string>();
  /** Items removed since the store last took the changes. */
  private readonly removedItems = new Set<string>();
  /** Messages from this index on are new since the store last took them. */
  private messagesWrittenUpTo = 0;
  private messagesDirty = false;
  private messageList: ChatMessage[] = [];
  private readonly onDidChangeEmitter = new Emitter<ConversationChange>();
  readonly onDidChange = this.onDidChangeEmitter.event;

  constructor(
    readonly id: string,
    readonly createdAt = Date.now(),
  ) {}

  get items(): TranscriptItem[] {
    return this.order.map((id) => this.byId.get(id)!);
  }

  get size(): number {
    return this.order.length;
  }

  /** The model-facing history (without the system prompt). */
  get messages(): readonly ChatMessage[] {
    return this.messageList;
  }

  set messages(next: readonly ChatMessage[]) {
    // The agent returns the old history followed by the new turn; anything else rewrites from the first difference.
    let same = 0;
    while (
      same < Math.min(next.length, this.messageList.length, this.messagesWrittenUpTo) &&
      next[same] === this.messageList[same]
    )
      same++;
    this.messageList = [...next];
    this.messagesWrittenUpTo = Math.min(this.messagesWrittenUpTo, same);
    this.messagesDirty = true;
  }

  newId(prefix: string): string {
    return `${prefix}-${Date.now().toString(36)}-${this.nextId++}`;
  }

  find(id: string): TranscriptItem | undefined {
    return this.byId.get(id);
  }

  append(item: TranscriptItem): void {
    if (this.byId.has(item.id)) throw new Error(`transcript item ${item.id} exists`);
    this.byId.set(item.id, item);
    this.order.push(item.id);
    this.dirtyItems.add(item.id);
    this.onDidChangeEmitter.fire({ type: 'append', item });
  }

  update(item: TranscriptItem): void {
    if (!this.byId.has(item.id)) return;
    this.byId.set(item.id, item);
    this.dirtyItems.add(item.id);
    this.onDidChangeEmitter.fire({ type: 'update', item });
  }

  /** Takes an item out of the transcript (a message that was not sent). */
  remove(id: string): void {
    if (!this.byId.delete(id)) return;
    this.order.splice(this.order.indexOf(id), 1);
    this.dirtyItems.delete(id);
    this.removedItems.add(id);
    this.onDidChangeEmitter.fire({ type: 'remove', id });
  }

  /**
   * Takes back the last turn the user typed (Retry, Edit): its message and everything after it
   * leave the transcript and the history. Undefined when the last turn is not a typed message (a
   * server's prompt) or there is none. The history is cut only where its last user message is that
   * one (a turn that never reached the model added none).
   */
  takeBackLastTurn(): string | undefined {
    const lastIndex = <T>(list: readonly T[], hit: (x: T) => boolean) => {
      for (let i = list.length - 1; i >= 0; i--) if (hit(list[i]!)) return i;
      return -1;
    };
    const at = lastIndex(this.order, (id) => ['user', 'prompt'].includes(this.byId.get(id)!.kind));
    const item = at < 0 ? undefined : this.byId.get(this.order[at]!);
    if (item?.kind !== 'user') return undefined;
    const m = lastIndex(this.messageList, (x) => x.role === 'user');
    const last = this.messageList[m];
    if (last && typeof last.content === 'string' && last.content.endsWith(item.text))
      this.messages = this.messageList.slice(0, m);
    for (const id of this.order.slice(at)) this.remove(id);
    return item.text;
  }

  /** Streamed text of an assistant item: one small event, the item keeps the whole text. */
  appendText(id: string, delta: string): void {
    const item = this.byId.get(id);
    if (item?.kind !== 'assistant') return;
    this.byId.set(id, { ...item, text: item.text + delta });
    this.dirtyItems.add(id);
    this.onDidChangeEmitter.fire({ type: 'textDelta', id, delta });
  }

  setFullResult(id: string, text: string): void {
    this.results.set(
      id,
      text.length > MAX_FULL_RESULT
        ? `${text.slice(0, MAX_FULL_RESULT)}\n…[not kept: ${text.length - MAX_FULL_RESULT} more characters]`
        : text,
    );
    this.dirtyResults.add(id);
  }

  /** The full result of a tool card; the card's own (possibly cut) copy when the full one is gone. */
  fullResult(id: string): string | undefined {
    const full = this.results.get(id);
    if (full !== undefined) return full;
    const item = this.find(id);
    return item?.kind === 'tool' ? item.card.result : undefined;
  }

  /** Restores stored state without events or dirt (the store's loader). */
  restore(
    items: readonly TranscriptItem[],
    messages: readonly ChatMessage[],
    results: ReadonlyMap<string, string>,
  ): void {
    for (const item of items) {
      const clean = item.kind === 'assistant' && item.streaming ? { ...item, streaming: false } : item;
      if (!this.byId.has(item.id)) this.order.push(item.id);
      this.byId.set(item.id, clean);
    }
    this.messageList = [...messages];
    this.messagesWrittenUpTo = messages.length;
    this.messagesDirty = false;
    for (const [id, text] of results) this.results.set(id, text);
    this.nextId = this.order.length + 1;
  }

  /** Takes what changed since the last call, for the store to append. */
  takeChanges(): {
    items: TranscriptItem[];
    removed: string[];
    messages?: { from: number; list: ChatMessage[] };
    results: Array<[string, string]>;
  } {
    const items = [...this.dirtyItems].flatMap((id) => {
      const item = this.byId.get(id);
      return item ? [item] : [];
    });
    const results = [...this.dirtyResults].flatMap((id): Array<[string, string]> => {
      const text = this.results.get(id);
      return text === undefined ? [] : [[id, text]];
    });
    const from = this.messagesWrittenUpTo;
    const messages = this.messagesDirty ? { from, list: this.messageList.slice(from) } : undefined;
    const removed = [...this.removedItems];
    this.dirtyItems.clear();
    this.dirtyResults.clear();
    this.removedItems.clear();
    this.messagesWrittenUpTo = this.messageList.length;
    this.messagesDirty = false;
    return { items, removed, ...(messages ? { messages } : {}), results };
  }

  /** Every full result, oldest first (the store compacts from the front). */
  allResults(): Array<[string, string]> {
    return [...this.results];
  }

  /** Drops full results the store no longer keeps; their cards fall back to the shown text. */
  forgetResults(ids: Iterable<string>): void {
    for (const id of ids) this.results.delete(id);
  }

  dispose(): void {
    this.onDidChangeEmitter.dispose();
  }
}
