import type { ToolCard, TranscriptItem } from '../shared/protocol';
import { SHOWN_IMAGE } from '../shared/validatePrompts';
import { renderCard, type CardActions } from './cards';
import { el } from './dom';
import { ScrollFollow } from './follow';
import { addCopyButtons, renderMarkdown } from './markdown';
import { StreamingMarkdown } from './streaming';

export interface TranscriptActions extends CardActions {
  /** Asks the model to go on after an answer that was cut. */
  continueAnswer(): void;
  /** A tool card's element was made (its app, if it has one, goes in it). */
  cardRendered?(card: ToolCard, el: HTMLElement): void;
}

/** Items per chunk: a change lays out its chunk and the list of chunks, never every item. */
const CHUNK_ITEMS = 50;
/** Chunks rendered at once when a whole conversation arrives; the older ones render as they scroll near. */
const EAGER_CHUNKS = 2;

interface Chunk {
  el: HTMLElement;
  ids: string[];
  rendered: boolean;
}

interface Entry {
  item: TranscriptItem;
  chunk: Chunk;
  /** Absent until its chunk is rendered. */
  el?: HTMLElement;
  stream?: StreamingMarkdown;
}

/**
 * The transcript's elements, one per item, in chunks of CHUNK_ITEMS. A change touches only its own
 * item's element: an update replaces one element, streamed text renders only the answer's last
 * block, at most once a frame. A whole conversation (a `state`) renders its last chunks at once
 * and the older ones when they scroll near, so a long conversation opens as fast as a short one.
 */
export class Transcript {
  private readonly entries = new Map<string, Entry>();
  private chunks: Chunk[] = [];
  private readonly pending = new Set<string>();
  private frame = 0;
  private readonly follow: ScrollFollow;
  private readonly near: IntersectionObserver;

  constructor(
    private readonly root: HTMLElement,
    private readonly actions: TranscriptActions,
  ) {
    this.follow = new ScrollFollow(root);
    this.near = new IntersectionObserver(
      (seen) => seen.forEach((e) => e.isIntersecting && this.renderChunk(this.chunks.find((c) => c.el === e.target))),
      { root, rootMargin: '2000px 0px' },
    );
  }

  reset(items: readonly TranscriptItem[]): void {
    this.near.disconnect();
    this.entries.clear();
    this.pending.clear();
    this.chunks = [];
    items.forEach((item, i) => {
      if (i % CHUNK_ITEMS === 0) this.chunks.push(newChunk());
      const chunk = this.chunks[this.chunks.length - 1]!;
      chunk.ids.push(item.id);
      this.entries.set(item.id, { item, chunk });
    });
    this.chunks.forEach((chunk, i) => {
      if (i >= this.chunks.length - EAGER_CHUNKS) this.renderChunk(chunk);
      else {
        chunk.el.classList.add('lazy');
        this.near.observe(chunk.el);
      }
    });
    this.root.replaceChildren(...this.chunks.map((c) => c.el));
    this.follow.forgetAll();
    this.follow.follow();
    this.schedule();
  }

  private renderChunk(chunk: Chunk | undefined): void {
    if (!chunk || chunk.rendered) return;
    chunk.rendered = true;
    this.near.unobserve(chunk.el);
    chunk.el.classList.remove('lazy');
    chunk.el.replaceChildren(...chunk.ids.map((id) => this.create(this.entries.get(id)!)));
  }

  upsert(item: TranscriptItem): void {
    const existing = this.entries.get(item.id);
    if (existing) {
      if (existing.stream && item.kind === 'assistant' && item.streaming) return; // deltas carry the text
      existing.item = item;
      existing.stream = undefined;
      const old = existing.el;
      if (!old) return; // rendered with its chunk
      const fresh = this.create(existing);
      const app = old.querySelector(':scope > .app-host');
      if (app && !fresh.contains(app)) {
        // A running app stays in the page (a frame that moves reloads): the card changes around it.
        for (const name of old.getAttributeNames()) old.removeAttribute(name);
        for (const attr of fresh.attributes) old.setAttribute(attr.name, attr.value);
        for (const child of [...old.childNodes]) if (child !== app) child.remove();
        app.before(...fresh.childNodes);
        existing.el = old;
      } else old.replaceWith(fresh);
    } else {
      if (item.kind === 'user') this.follow.follow(); // the user sent it: show it, and what follows
      const chunk = this.lastChunk();
      const entry: Entry = { item, chunk };
      chunk.ids.push(item.id);
      this.entries.set(item.id, entry);
      chunk.el.append(this.create(entry));
    }
    this.pending.delete(item.id);
    this.schedule();
  }

  private lastChunk(): Chunk {
    const last = this.chunks[this.chunks.length - 1];
    if (last && last.ids.length < CHUNK_ITEMS) return last;
    const chunk = newChunk();
    chunk.rendered = true;
    this.chunks.push(chunk);
    this.root.append(chunk.el);
    return chunk;
  }

  /** True when no item is shown (the chat is new, or everything was taken back). */
  isEmpty(): boolean {
    return this.entries.size === 0;
  }

  /** An item taken out (a message that was not sent). */
  remove(id: string): void {
    const entry = this.entries.get(id);
    if (!entry) return;
    this.entries.delete(id);
    this.pending.delete(id);
    entry.chunk.ids.splice(entry.chunk.ids.indexOf(id), 1);
    entry.el?.remove();
  }

  /** Text added to a streaming answer: rendered with the next frame. */
  appendText(id: string, delta: string): void {
    const entry = this.entries.get(id);
    if (entry?.item.kind !== 'assistant') return;
    if (!entry.stream) {
      entry.item = { ...entry.item, text: entry.item.text + delta }; // its chunk is not rendered
      return;
    }
    entry.stream.append(delta);
    entry.item = { ...entry.item, text: entry.stream.value };
    this.pending.add(id);
    this.schedule();
  }

  /** Something that is not an item (a host error): shown below the transcript's end. */
  appendNote(note: HTMLElement): void {
    this.lastChunk().el.append(note);
    this.schedule();
  }

  private schedule(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      for (const id of this.pending) this.entries.get(id)?.stream?.render();
      this.pending.clear();
      this.follow.settle();
    });
  }

  /** The element of an entry (its chunk is rendered); a streaming answer gets its streaming renderer. */
  private create(entry: Entry): HTMLElement {
    const item = entry.item;
    const node = this.render(item);
    node.dataset.id = item.id;
    entry.el = node;
    if (item.kind === 'tool') this.follow.setWaiting(item.id, item.card.status === 'waiting' ? node : undefined);
    if (item.kind === 'assistant' && item.streaming) {
      entry.stream = new StreamingMarkdown(node);
      entry.stream.append(item.text);
      entry.stream.render();
    }
    return node;
  }

  private render(item: TranscriptItem): HTMLElement {
    switch (item.kind) {
      case 'user': {
        const e = el('div', 'msg user', item.text);
        if (item.attachments?.length)
          e.append(...item.attachments.map((a) => el('div', 'msg-attachment', `attached: ${a}`)));
        return e;
      }
      case 'assistant': {
        const e = document.createElement('div');
        e.className = `msg assistant${item.streaming ? ' streaming' : ''}`;
        if (item.streaming) return e;
        e.innerHTML = renderMarkdown(item.text);
        addCopyButtons(e);
        if (item.cut) {
          const row = el('div', 'cut', 'The answer was cut: the model reached its output limit. ');
          const button = el('button', 'secondary', 'Continue');
          button.addEventListener('click', () => this.actions.continueAnswer());
          row.append(button);
          e.append(row);
        }
        return e;
      }
      case 'tool': {
        const card = renderCard(item.card, this.actions);
        this.actions.cardRendered?.(item.card, card);
        return card;
      }
      case 'notice':
        return el('div', `notice ${item.level}`, item.text);
      case 'prompt':
        return renderPromptItem(item);
      case 'taskOutcome':
        return renderTaskOutcome(item);
    }
  }
}

const OUTCOME_WORDS = { done: 'completed', error: 'failed', cancelled: 'was cancelled' } as const;

/** A task that ran in the background ended: its tool, its server, and what it came to (a server's text, as text). */
function renderTaskOutcome(item: Extract<TranscriptItem, { kind: 'taskOutcome' }>): HTMLElement {
  const root = el('div', `msg task-outcome status-${item.status}`);
  root.append(
    el('div', 'task-outcome-head', `Background task ${item.name} → ${item.server} ${OUTCOME_WORDS[item.status]}`),
  );
  root.append(el('pre', 'task-outcome-text', item.text));
  return root;
}

function newChunk(): Chunk {
  return { el: el('div', 'chunk'), ids: [], rendered: false };
}

/**
 * A server's prompt as the turn's input: its name and server, then each message as plain text
 * (a server wrote it: it is never parsed as HTML or Markdown) with its raster images.
 */
function renderPromptItem(item: Extract<TranscriptItem, { kind: 'prompt' }>): HTMLElement {
  const root = el('div', 'msg prompt');
  const head = el('div', 'prompt-head');
  head.append(el('span', 'prompt-name', `/${item.name}`), el('span', 'prompt-server', item.server));
  root.append(head);
  for (const m of item.messages) {
    const part = el('div', `prompt-message role-${m.role}`);
    if (m.role === 'assistant') part.append(el('div', 'prompt-role', 'assistant'));
    if (m.text) part.append(el('div', 'prompt-text', m.text));
    for (const image of m.images ?? []) {
      if (!SHOWN_IMAGE.test(image.mimeType)) continue;
      const img = el('img', 'prompt-image');
      img.alt = `image (${image.mimeType}) from ${item.server}`;
      img.src = `data:${image.mimeType};base64,${image.data}`;
      part.append(img);
    }
    root.append(part);
  }
  return root;
}
