// index.json: the conversations kept (most recent first, with their titles) and the current one.
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '../../base/logger';
import { errorMessage } from '../../toolRegistry/toolRegistry';
import type { Conversation } from './conversation';
import type { ConversationInfo } from './conversationStore';

export interface IndexEntry extends ConversationInfo {
  /** The title was given by the user: a later save keeps it. */
  renamed?: boolean;
}

export interface Index {
  version: 1;
  current?: string;
  conversations: IndexEntry[];
}

const ID = /^[\w-]{1,80}$/;
/** The longest title kept (a title is shown in a quick pick, never parsed). */
export const MAX_TITLE = 80;

function isEntry(e: unknown): e is IndexEntry {
  const v = e as IndexEntry | undefined;
  return (
    typeof v?.id === 'string' &&
    ID.test(v.id) &&
    typeof v.title === 'string' &&
    typeof v.createdAt === 'number' &&
    typeof v.updatedAt === 'number'
  );
}

/** The index file of a store's folder: read leniently, written atomically, one write at a time. */
export class IndexFile {
  private writes: Promise<void> = Promise.resolve();

  constructor(
    private readonly dir: string,
    private readonly log: Logger,
  ) {}

  async read(): Promise<Index> {
    try {
      const v = JSON.parse(await readFile(join(this.dir, 'index.json'), 'utf8')) as Index;
      if (v && v.version === 1 && Array.isArray(v.conversations))
        return {
          version: 1,
          ...(typeof v.current === 'string' ? { current: v.current } : {}),
          conversations: v.conversations.filter(isEntry).map((e) => ({ ...e, title: e.title.slice(0, MAX_TITLE) })),
        };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT')
        this.log.warn(`chat: the conversation index is unreadable (${errorMessage(err)}); starting a new one`);
    }
    return { version: 1, conversations: [] };
  }

  /** Resolves when every write asked for so far has ended. */
  settled(): Promise<void> {
    return this.writes;
  }

  /** Writes the index as it is when this write's turn comes (`index()`); writes never overlap. */
  write(index: () => Index | undefined): Promise<void> {
    const write = async () => {
      await mkdir(this.dir, { recursive: true });
      const tmp = join(this.dir, `index.json.${randomBytes(4).toString('hex')}`);
      await writeFile(tmp, JSON.stringify(index()));
      await rename(tmp, join(this.dir, 'index.json'));
    };
    const next = this.writes.then(write);
    this.writes = next.catch((err: unknown) =>
      this.log.error(`chat: writing the conversation index failed: ${errorMessage(err)}`),
    );
    return next;
  }
}

/** A conversation's automatic title: the start of its first message, on one line. */
export function firstLine(c: Conversation): string {
  const first = c.items.find((i) => i.kind === 'user');
  return first?.kind === 'user' ? first.text.replace(/\s+/g, ' ').trim().slice(0, MAX_TITLE) : '';
}
