import type { Conversation } from './conversation';

/** Where conversations live between sessions. One is current: the one the chat views show. */
export interface ConversationStore {
  /** The current conversation (an empty new one when there is none). */
  current(): Promise<Conversation>;
  /** Starts a new, empty conversation and makes it current at once; the old one is kept as it is. */
  create(): Conversation;
  /** Writes what changed in a conversation since its last save. */
  save(conversation: Conversation): Promise<void>;
}
