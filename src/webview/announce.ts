import type { AskView } from '../shared/asks';
import type { TranscriptItem as ChatItem } from '../shared/protocol';

/** How much of an answer is read out when it is done (the whole of it is in the transcript and the accessible view). */
const SPOKEN_CHARS = 200;

/**
 * What a screen reader hears of the chat, through two live regions beside the transcript: `polite` for an answer
 * done, an approval or a server's form that waits; `alert` for an error. The transcript is a `log` that does not
 * speak as tokens stream in (every chunk would be read); these say what a user waits for, once each.
 */
export class Announcer {
  private seen = new Map<string, string>();

  constructor(
    private readonly polite: HTMLElement,
    private readonly alert: HTMLElement,
  ) {}

  /** Says `text` now (the region is emptied first, so the same words twice are read twice). */
  say(text: string, urgent = false): void {
    const region = urgent ? this.alert : this.polite;
    region.textContent = '';
    requestAnimationFrame(() => {
      region.textContent = text;
    });
  }

  /** An item added or changed by a turn (not a conversation opened): what changed that the user waits for. */
  item(item: ChatItem): void {
    const state = stateOf(item);
    const before = this.seen.get(item.id);
    if (state === before) return;
    this.seen.set(item.id, state);
    const words = spoken(item, state, before);
    if (words) this.say(words.text, words.urgent);
  }

  /** A server's form or sampling request waits in the chat. */
  ask(ask: AskView): void {
    this.say(
      ask.kind === 'form'
        ? `Server ${ask.server} asks you to fill in a form: ${clip(ask.message)}`
        : `Server ${ask.server} asks to use the model`,
    );
  }

  /** A conversation opened: what is in it was there before, and is not news. */
  reset(items: readonly ChatItem[]): void {
    this.seen = new Map(items.map((i) => [i.id, stateOf(i)]));
  }
}

function stateOf(item: ChatItem): string {
  if (item.kind === 'assistant') return item.streaming ? 'streaming' : 'done';
  if (item.kind === 'tool') return item.card.status;
  return 'shown';
}

function spoken(
  item: ChatItem,
  state: string,
  before: string | undefined,
): { text: string; urgent: boolean } | undefined {
  if (item.kind === 'assistant' && state === 'done' && item.text.trim())
    return { text: `Answer done: ${clip(item.text)}`, urgent: false };
  if (item.kind === 'tool') {
    const c = item.card;
    const tool = `${c.title ?? c.name}${c.server ? ` of server ${c.server}` : ''}`;
    if (state === 'waiting') return { text: `Approval needed: ${tool}`, urgent: false };
    if (state === 'error' && before !== undefined) return { text: `Tool ${tool} failed`, urgent: true };
  }
  if (item.kind === 'notice' && item.level === 'error' && before === undefined)
    return { text: `Error: ${clip(item.text)}`, urgent: true };
  return undefined;
}

function clip(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > SPOKEN_CHARS ? `${flat.slice(0, SPOKEN_CHARS)}…` : flat;
}
