// How many conversations are kept: the oldest beyond the user's limit are deleted, and the owner
// hears when the next new one will remove one.
import { rm } from 'node:fs/promises';
import type { Logger } from '../../base/logger';
import type { IndexEntry } from './conversationIndex';
import type { ConversationInfo } from './conversationStore';

export interface RetentionOptions {
  /**
   * Conversations kept, read at each save (the user's setting); the oldest beyond it are deleted. Absent or 0: every
   * one is kept.
   */
  maxConversations?: () => number | undefined;
  /**
   * Told once the kept conversations reach the limit: a new one will remove `next`, the oldest (said before anything is
   * removed).
   */
  onFull?: (limit: number, next: ConversationInfo) => void;
}

export class Retention {
  constructor(
    private readonly options: RetentionOptions,
    private readonly log: Logger,
  ) {}

  /** The limit now; 0: every conversation is kept. */
  limit(): number {
    return this.options.maxConversations?.() || 0;
  }

  /** Takes the entries beyond `limit` out of the list (most recent first) and returns them. */
  trim(conversations: IndexEntry[], limit: number): IndexEntry[] {
    return limit > 0 ? conversations.splice(limit) : [];
  }

  /** Deletes the files of the trimmed entries. */
  async remove(dropped: readonly IndexEntry[], limit: number, file: (id: string) => string): Promise<void> {
    for (const e of dropped) {
      await rm(file(e.id), { force: true });
      this.log.info(`chat: removed the oldest conversation "${e.title}" (minagent.chat.maxConversations is ${limit})`);
    }
  }

  /** After a new conversation was listed: tells the owner when the list is full, naming the one to go next. */
  checkFull(conversations: readonly IndexEntry[], limit: number): void {
    const oldest = conversations.at(-1);
    if (limit > 0 && conversations.length === limit && oldest)
      this.options.onFull?.(limit, {
        id: oldest.id,
        title: oldest.title,
        createdAt: oldest.createdAt,
        updatedAt: oldest.updatedAt,
      });
  }
}
