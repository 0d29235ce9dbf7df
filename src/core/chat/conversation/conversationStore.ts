import type { Conversation } from './conversation';

/** A kept conversation as the history lists it. */
export interface ConversationInfo {
  id: string;
  /** The user's own name for it, else the start of its first message ('' while it has none). */
  title: string;
  /** The title is the user's own name for it (Rename), not the start of its first message. */
  renamed?: boolean;
  createdAt: number;
  updatedAt: number;
}

/** Where conversations live between sessions. One is current: the one the chat views show. */
export interface ConversationStore {
  /** The current conversation (an empty new one when there is none). */
  current(): Promise<Conversation>;
  /** Starts a new, empty conversation and makes it current at once; the old one is kept as it is. */
  create(): Conversation;
  /** Writes what changed in a conversation since its last save. */
  save(conversation: Conversation): Promise<void>;
  /** The conversations kept (those with something in them), most recent first. */
  list(): Promise<readonly ConversationInfo[]>;
  /** Makes a kept conversation current; throws when there is no such conversation. */
  open(id: string): Promise<Conversation>;
  /** Names a conversation; an empty title goes back to the start of its first message. */
  rename(id: string, title: string): Promise<void>;
  /** Deletes a conversation and its file. The current one stays current (empty) until another is opened. */
  remove(id: string): Promise<void>;
}
