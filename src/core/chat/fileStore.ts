import { randomBytes } from 'node:crypto';
import { appendFile, mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ChatMessage } from '../agent/messages';
import { silentLogger, type Logger } from '../logger';
import { errorMessage } from '../tools';
import type { TranscriptItem } from '../../shared/protocol';
import { isTranscriptItem } from '../../shared/validate';
import { Conversation } from './conversation';
import type { ConversationInfo, ConversationStore } from './store';

/** A conversation as the old extension kept it in workspace state (one per workspace). */
export interface LegacyConversation {
  items: TranscriptItem[];
  messages: ChatMessage[];
  fullResults?: Record<string, string>;
}

export interface FileStoreOptions {
  /** A conversation file is compacted when it grows past this (default 16 MB). */
  maxFileBytes?: number;
  /** Conversations kept, read at each save (the user's setting); the oldest beyond it are deleted. Absent or 0: every one is kept. */
  maxConversations?: () => number | undefined;
  /** Told once the kept conversations reach the limit: a new one will remove `next`, the oldest (said before anything is removed). */
  onFull?: (limit: number, next: ConversationInfo) => void;
  /** Today's conversation from workspace state, moved into a file once. */
  legacy?: { read(): LegacyConversation | undefined; clear(): Promise<void> | Thenable<void> };
  logger?: Logger;
}

interface IndexEntry extends ConversationInfo {
  /** The title was given by the user: a later save keeps it. */
  renamed?: boolean;
}

const ID = /^[\w-]{1,80}$/;
/** The longest title kept (a title is shown in a quick pick, never parsed). */
const MAX_TITLE = 80;

function isEntry(e: unknown): e is IndexEntry {
  const v = e as IndexEntry | undefined;
  return typeof v?.id === 'string' && ID.test(v.id) && typeof v.title === 'string' && typeof v.createdAt === 'number' && typeof v.updatedAt === 'number';
}

interface Index {
  version: 1;
  current?: string;
  conversations: IndexEntry[];
}

/** One line of a conversation file. */
type Line =
  | { h: { id: string; createdAt: number } }
  | { i: TranscriptItem }
  /** An item taken out of the transcript (a message that was not sent). */
  | { x: string }
  | { m: number; l: ChatMessage[] }
  | { r: string; t: string };

export const RESULTS_REMOVED = 'Older tool results were removed to keep this conversation small: their cards keep the first part, and the model sees a note in their place.';

/**
 * Conversations as append-only JSON-lines files under the extension's storage folder, with an
 * index of them. A save appends what changed; a file that grows past its bound is rewritten from
 * the conversation's state, dropping the oldest full tool results first (the transcript says so).
 */
export class FileConversationStore implements ConversationStore {
  private index: Index | undefined;
  private loaded: Promise<Conversation> | undefined;
  private now: Conversation | undefined;
  /** Bytes in each conversation's file, as far as this store wrote or read them. */
  private readonly sizes = new Map<string, number>();
  /** Writes to one file never overlap. */
  private readonly queues = new Map<string, Promise<void>>();
  private indexWrites: Promise<void> = Promise.resolve();
  private readonly log: Logger;
  /** Conversations loaded in this session, so reopening one never makes a second copy that writes the same file. */
  private readonly loadedById = new Map<string, Conversation>();
  /** Ids deleted in this session: a save still queued for one writes nothing and lists nothing. */
  private readonly removed = new Set<string>();

  constructor(
    private readonly dir: string,
    private readonly options: FileStoreOptions = {},
  ) {
    this.log = options.logger ?? silentLogger;
  }

  private file(id: string): string {
    return join(this.dir, `${id}.jsonl`);
  }

  current(): Promise<Conversation> {
    this.loaded ??= this.openCurrent();
    return this.loaded;
  }

  private async openCurrent(): Promise<Conversation> {
    await mkdir(this.dir, { recursive: true });
    this.index = await this.readIndex();
    const id = this.index.current;
    let c: Conversation | undefined;
    if (id) {
      c = await this.load(id).catch((err: unknown) => {
        // A new chat that never got a message has no file yet.
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return new Conversation(id);
        this.log.error(`chat: the conversation ${id} could not be read (${errorMessage(err)}); starting a new one`);
        return undefined;
      });
    } else c = await this.migrate();
    this.now = c ?? this.create();
    return this.now;
  }

  private async readIndex(): Promise<Index> {
    try {
      const v = JSON.parse(await readFile(join(this.dir, 'index.json'), 'utf8')) as Index;
      if (v && v.version === 1 && Array.isArray(v.conversations)) return { version: 1, ...(typeof v.current === 'string' ? { current: v.current } : {}), conversations: v.conversations.filter(isEntry).map((e) => ({ ...e, title: e.title.slice(0, MAX_TITLE) })) };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') this.log.warn(`chat: the conversation index is unreadable (${errorMessage(err)}); starting a new one`);
    }
    return { version: 1, conversations: [] };
  }

  /** Writes the index atomically; writes never overlap. */
  private writeIndex(): Promise<void> {
    const write = async () => {
      await mkdir(this.dir, { recursive: true });
      const tmp = join(this.dir, `index.json.${randomBytes(4).toString('hex')}`);
      await writeFile(tmp, JSON.stringify(this.index));
      await rename(tmp, join(this.dir, 'index.json'));
    };
    const next = this.indexWrites.then(write);
    this.indexWrites = next.catch((err: unknown) => this.log.error(`chat: writing the conversation index failed: ${errorMessage(err)}`));
    return next;
  }

  /** Reads one conversation file: later lines for an item replace earlier ones. */
  async load(id: string): Promise<Conversation> {
    const text = await readFile(this.file(id), 'utf8');
    this.sizes.set(id, Buffer.byteLength(text));
    const items = new Map<string, TranscriptItem>();
    let messages: ChatMessage[] = [];
    const results = new Map<string, string>();
    let createdAt = Date.now();
    let bad = 0;
    for (const line of text.split('\n')) {
      if (!line) continue;
      let r: Line;
      try {
        r = JSON.parse(line) as Line;
      } catch {
        bad++; // a line cut by a crash mid-write
        continue;
      }
      if ('i' in r) {
        if (isTranscriptItem(r.i)) items.set(r.i.id, r.i);
        else bad++;
      } else if ('x' in r && typeof r.x === 'string') items.delete(r.x);
      else if ('m' in r && Array.isArray(r.l)) messages = [...messages.slice(0, r.m), ...r.l];
      else if ('r' in r && typeof r.t === 'string') results.set(r.r, r.t);
      else if ('h' in r) createdAt = r.h.createdAt;
    }
    if (bad) this.log.warn(`chat: ${bad} unreadable line(s) in conversation ${id} were skipped`);
    const c = new Conversation(id, createdAt);
    c.restore([...items.values()], messages, results);
    this.loadedById.set(id, c);
    return c;
  }

  private async migrate(): Promise<Conversation | undefined> {
    const legacy = this.options.legacy?.read();
    if (!legacy || !Array.isArray(legacy.items)) return undefined;
    const c = this.create();
    c.restore(legacy.items.filter(isTranscriptItem), Array.isArray(legacy.messages) ? legacy.messages : [], new Map(Object.entries(legacy.fullResults ?? {})));
    await this.rewrite(c);
    await this.touch(c);
    await this.options.legacy?.clear();
    this.log.info(`chat: moved the stored conversation (${c.size} items) into ${this.file(c.id)}`);
    return c;
  }

  create(): Conversation {
    const c = new Conversation(`c-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`);
    this.loadedById.set(c.id, c);
    this.now = c;
    this.loaded = Promise.resolve(c);
    // Its file is written when it has something in it; a reload opens it (empty) meanwhile.
    if (this.index) {
      this.index.current = c.id;
      void this.writeIndex().catch(() => undefined);
    }
    return c;
  }

  save(c: Conversation): Promise<void> {
    const previous = this.queues.get(c.id) ?? Promise.resolve();
    const next = previous.then(() => this.write(c));
    this.queues.set(c.id, next.catch(() => undefined));
    return next;
  }

  private async write(c: Conversation): Promise<void> {
    if (this.removed.has(c.id)) return;
    const changes = c.takeChanges();
    if (!changes.items.length && !changes.removed.length && !changes.results.length && !changes.messages) return;
    if (!this.sizes.has(c.id)) {
      await this.rewrite(c);
    } else {
      const lines: Line[] = [...changes.items.map((i) => ({ i })), ...changes.removed.map((x) => ({ x })), ...changes.results.map(([r, t]) => ({ r, t }))];
      if (changes.messages) lines.push({ m: changes.messages.from, l: changes.messages.list });
      const text = lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
      await appendFile(this.file(c.id), text);
      this.sizes.set(c.id, (this.sizes.get(c.id) ?? 0) + Buffer.byteLength(text));
      if (this.sizes.get(c.id)! > (this.options.maxFileBytes ?? 16_000_000)) await this.compact(c);
    }
    await this.touch(c);
  }

  /**
   * Rewrites a conversation's file from its state. Past the bound: the oldest full results go until
   * the rest fit in a quarter of it, then the oldest tool results in the model's history are
   * replaced by a note until the whole fits in half (so the next turns append again for a while).
   */
  private async compact(c: Conversation): Promise<void> {
    const bound = this.options.maxFileBytes ?? 16_000_000;
    const results = c.allResults();
    let resultBytes = results.reduce((n, [, t]) => n + Buffer.byteLength(t), 0);
    const dropped: string[] = [];
    for (const [id, text] of results) {
      if (resultBytes <= bound / 4) break;
      dropped.push(id);
      resultBytes -= Buffer.byteLength(text);
    }
    c.forgetResults(dropped);
    const over = this.stateBytes(c) - bound / 2;
    const shortened = over > 0 ? shortenOldMessages(c, over) : 0;
    if (dropped.length || shortened) {
      c.append({ kind: 'notice', id: c.newId('n'), level: 'info', text: RESULTS_REMOVED });
      this.log.info(`chat: compacted conversation ${c.id}: ${dropped.length} older full result(s) removed, ${shortened} older result(s) in the model's history replaced by a note`);
    }
    await this.rewrite(c);
  }

  private stateBytes(c: Conversation): number {
    let n = 0;
    for (const item of c.items) n += JSON.stringify(item).length;
    for (const m of c.messages) n += JSON.stringify(m).length;
    for (const [, t] of c.allResults()) n += t.length;
    return n;
  }

  private async rewrite(c: Conversation): Promise<void> {
    c.takeChanges();
    const lines: Line[] = [{ h: { id: c.id, createdAt: c.createdAt } }, ...c.items.map((i) => ({ i })), ...c.allResults().map(([r, t]) => ({ r, t })), { m: 0, l: [...c.messages] }];
    const text = lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
    const tmp = `${this.file(c.id)}.${randomBytes(4).toString('hex')}`;
    await writeFile(tmp, text);
    await rename(tmp, this.file(c.id));
    this.sizes.set(c.id, Buffer.byteLength(text));
  }

  /** Records the conversation in the index (current, most recent first) and drops the oldest beyond the limit. */
  private async touch(c: Conversation): Promise<void> {
    const index = (this.index ??= await this.readIndex());
    const old = index.conversations.find((e) => e.id === c.id);
    const entry: IndexEntry = old?.renamed ? { ...old, updatedAt: Date.now() } : { id: c.id, createdAt: c.createdAt, updatedAt: Date.now(), title: firstLine(c) };
    index.conversations = [entry, ...index.conversations.filter((e) => e.id !== c.id)];
    if (this.now === c) index.current = c.id;
    const limit = this.options.maxConversations?.() || 0;
    const dropped = limit > 0 ? index.conversations.splice(limit) : [];
    await this.writeIndex();
    for (const e of dropped) {
      await rm(this.file(e.id), { force: true });
      this.log.info(`chat: removed the oldest conversation "${e.title}" (minagent.chat.maxConversations is ${limit})`);
    }
    const oldest = index.conversations.at(-1);
    if (limit > 0 && index.conversations.length === limit && oldest && !old) this.options.onFull?.(limit, { id: oldest.id, title: oldest.title, createdAt: oldest.createdAt, updatedAt: oldest.updatedAt });
  }

  /** Size in bytes of a conversation's file (for tests and the bench). */
  async fileBytes(id: string): Promise<number> {
    return (await stat(this.file(id))).size;
  }

  /** The conversations kept, most recent first. */
  async list(): Promise<readonly ConversationInfo[]> {
    return (this.index ??= await this.readIndex()).conversations.map(({ id, title, createdAt, updatedAt }) => ({ id, title, createdAt, updatedAt }));
  }

  async open(id: string): Promise<Conversation> {
    if (this.now?.id === id) return this.now;
    const index = (this.index ??= await this.readIndex());
    if (!index.conversations.some((e) => e.id === id)) throw new Error(`there is no conversation ${id}`);
    // A conversation with unsaved changes in memory is the one to show; its file may lag behind.
    const c = this.loadedById.get(id) ?? (await this.load(id));
    this.now = c;
    this.loaded = Promise.resolve(c);
    index.current = id;
    await this.writeIndex();
    return c;
  }

  async rename(id: string, title: string): Promise<void> {
    const index = (this.index ??= await this.readIndex());
    const entry = index.conversations.find((e) => e.id === id);
    if (!entry) throw new Error(`there is no conversation ${id}`);
    const name = title.replace(/\s+/g, ' ').trim().slice(0, MAX_TITLE);
    const c = this.loadedById.get(id);
    if (name) Object.assign(entry, { title: name, renamed: true });
    else {
      delete entry.renamed;
      entry.title = c ? firstLine(c) : entry.title;
    }
    await this.writeIndex();
  }

  async remove(id: string): Promise<void> {
    const index = (this.index ??= await this.readIndex());
    this.removed.add(id);
    index.conversations = index.conversations.filter((e) => e.id !== id);
    if (index.current === id) delete index.current;
    this.loadedById.delete(id);
    await this.writeIndex();
    // After any write still queued for it, so nothing writes the file again.
    await (this.queues.get(id) ?? Promise.resolve());
    await rm(this.file(id), { force: true });
    this.sizes.delete(id);
  }
}

/** A conversation's automatic title: the start of its first message, on one line. */
function firstLine(c: Conversation): string {
  const first = c.items.find((i) => i.kind === 'user');
  return first?.kind === 'user' ? first.text.replace(/\s+/g, ' ').trim().slice(0, MAX_TITLE) : '';
}

/** Replaces the content of the oldest tool messages with a note until `over` bytes are saved; returns how many. */
function shortenOldMessages(c: Conversation, over: number): number {
  const messages = [...c.messages];
  // The last turn stays whole.
  let lastUser = messages.length;
  while (lastUser > 0 && messages[lastUser - 1]!.role !== 'user') lastUser--;
  lastUser--;
  let count = 0;
  for (let i = 0; i < lastUser && over > 0; i++) {
    const m = messages[i]!;
    if (m.role !== 'tool' || m.content.startsWith('[older result removed')) continue;
    const before = JSON.stringify(m).length;
    messages[i] = { role: 'tool', toolCallId: m.toolCallId, name: m.name, content: `[older result removed: ${m.content.length} characters]`, ...(m.isError ? { isError: true } : {}) };
    over -= before - JSON.stringify(messages[i]).length;
    count++;
  }
  if (count) c.messages = messages;
  return count;
}
