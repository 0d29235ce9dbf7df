import type * as vscode from 'vscode';
import { Conversation } from '../../core/chat/conversation';
import type { ConversationStore } from '../../core/chat/store';
import type { ChatMessage } from '../../core/agent/model';
import type { TranscriptItem } from '../../shared/protocol';

const KEY = 'minagent.chat.v1';

interface Stored {
  items: TranscriptItem[];
  messages: ChatMessage[];
  fullResults: Record<string, string>;
}

/** One conversation per workspace, kept in workspace state. */
export class MementoConversationStore implements ConversationStore {
  private conversation: Conversation | undefined;

  constructor(private readonly memento: vscode.Memento) {}

  async current(): Promise<Conversation> {
    if (this.conversation) return this.conversation;
    const c = new Conversation('current');
    const stored = this.memento.get<Stored>(KEY);
    if (stored) c.restore(stored.items, stored.messages, new Map(Object.entries(stored.fullResults ?? {})));
    this.conversation = c;
    return c;
  }

  create(): Conversation {
    this.conversation = new Conversation(`c-${Date.now().toString(36)}`);
    return this.conversation;
  }

  async save(conversation: Conversation): Promise<void> {
    if (conversation !== this.conversation) return;
    conversation.takeChanges();
    await this.memento.update(KEY, { items: conversation.items, messages: [...conversation.messages], fullResults: Object.fromEntries(conversation.allResults()) } satisfies Stored);
  }
}
