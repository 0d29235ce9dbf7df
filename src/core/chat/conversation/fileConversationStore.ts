import { randomBytes } from 'node:crypto';
import { appendFile, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { silentLogger, type Logger } from '../../base/logger';
import { errorMessage } from '../../toolRegistry/toolRegistry';
import { Conversation } from './conversation';
import { compact, DEFAULT_MAX_FILE_BYTES } from './compaction';
import { firstLine, IndexFile, MAX_TITLE, type Index, type IndexEntry } from './conversationIndex';
import { changesText, replay, stateText } from './conversationLog';
import type { ConversationInfo, ConversationStore } from './conversationStore';
import { restoreLegacy, type LegacySource } from './legacy';
import { Retention, type RetentionOptions } from './retention';

export interface FileStoreOptions extends RetentionOptions {
  /** A conversation file is compacted when it grows past this (default 16 MB). */
  maxFileBytes?: number;
  /** Today's conversation from workspace state, moved into a file once. */
  legacy?: LegacySource;
  logger?: Logger;
}

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
  private readonly indexFile: IndexFile;
  private readonly retention: Retention;
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
    this.indexFile = new IndexFile(dir, this.log);
    this.retention = new Retention(options, this.log);
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
    this.index = await this.indexFile.read();
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

  private writeIndex(): Promise<void> {
    return this.indexFile.write(() => this.index);
  }

  /** Reads one conversation file: later lines for an item replace earlier ones. */
  async load(id: string): Promise<Conversation> {
    const text = await readFile(this.file(id), 'utf8');
    this.sizes.set(id, Buffer.byteLength(text));
    const { createdAt, items, messages, results, bad } = replay(text);
    if (bad) this.log.warn(`chat: ${bad} unreadable line(s) in conversation ${id} were skipped`);
    const c = new Conversation(id, createdAt);
    c.restore(items, messages, results);
    this.loadedById.set(id, c);
    return c;
  }

  private async migrate(): Promise<Conversation | undefined> {
    const c = restoreLegacy(this.options.legacy, () => this.create());
    if (!c) return undefined;
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
    this.queues.set(
      c.id,
      next.catch(() => undefined),
    );
    return next;
  }

  /** Resolves when every save and index write asked for so far has ended (a test's cleanup, a window closing). */
  async settled(): Promise<void> {
    await Promise.all([...this.queues.values()]);
    await this.indexFile.settled();
  }

  private async write(c: Conversation): Promise<void> {
    if (this.removed.has(c.id)) return;
    const changes = c.takeChanges();
    if (!changes.items.length && !changes.removed.length && !changes.results.length && !changes.messages) return;
    if (!this.sizes.has(c.id)) {
      await this.rewrite(c);
    } else {
      const text = changesText(changes);
      await appendFile(this.file(c.id), text);
      this.sizes.set(c.id, (this.sizes.get(c.id) ?? 0) + Buffer.byteLength(text));
      const bound = this.options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
      if (this.sizes.get(c.id)! > bound) {
        compact(c, bound, this.log);
        await this.rewrite(c);
      }
    }
    await this.touch(c);
  }

  /** Writes a conversation's file from its state, atomically. */
  private async rewrite(c: Conversation): Promise<void> {
    c.takeChanges();
    const text = stateText(c);
    const tmp = `${this.file(c.id)}.${randomBytes(4).toString('hex')}`;
    await writeFile(tmp, text);
    await rename(tmp, this.file(c.id));
    this.sizes.set(c.id, Buffer.byteLength(text));
  }

  /** Records the conversation in the index (current, most recent first) and drops the oldest beyond the limit. */
  private async touch(c: Conversation): Promise<void> {
    const index = (this.index ??= await this.indexFile.read());
    const old = index.conversations.find((e) => e.id === c.id);
    const entry: IndexEntry = old?.renamed
      ? { ...old, updatedAt: Date.now() }
      : { id: c.id, createdAt: c.createdAt, updatedAt: Date.now(), title: firstLine(c) };
    index.conversations = [entry, ...index.conversations.filter((e) => e.id !== c.id)];
    if (this.now === c) index.current = c.id;
    const limit = this.retention.limit();
    const dropped = this.retention.trim(index.conversations, limit);
    await this.writeIndex();
    await this.retention.remove(dropped, limit, (id) => this.file(id));
    if (!old) this.retention.checkFull(index.conversations, limit);
  }

  /** The conversations kept, most recent first. */
  async list(): Promise<readonly ConversationInfo[]> {
    return (this.index ??= await this.indexFile.read()).conversations.map(
      ({ id, title, renamed, createdAt, updatedAt }) => ({
        id,
        title,
        ...(renamed ? { renamed } : {}),
        createdAt,
        updatedAt,
      }),
    );
  }

  async open(id: string): Promise<Conversation> {
    if (this.now?.id === id) return this.now;
    const index = (this.index ??= await this.indexFile.read());
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
    const index = (this.index ??= await this.indexFile.read());
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
    const index = (this.index ??= await this.indexFile.read());
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
