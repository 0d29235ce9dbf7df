import type * as vscode from 'vscode';
import type { ChatMessage } from '../../core/agent/model';
import type { TranscriptItem } from '../../shared/protocol';

const KEY = 'minagent.chat.v1';
const MAX_STORED_RESULT = 200_000;
/** Full results kept for "Open full result"; older ones fall back to what the card shows. */
const MAX_STORED_RESULTS = 50;

interface Stored {
  items: TranscriptItem[];
  messages: ChatMessage[];
  fullResults: Record<string, string>;
}

/**
 * One conversation per workspace: what the user sees (transcript items), what the model is sent
 * (messages), and full tool results. Kept in workspace state, so it survives reloads and restarts.
 */
export class ChatSession {
  items: TranscriptItem[] = [];
  messages: ChatMessage[] = [];
  private fullResults: Record<string, string> = {};
  private nextId = 1;

  constructor(private readonly memento: vscode.Memento) {
    const stored = memento.get<Stored>(KEY);
    if (stored) {
      this.items = stored.items.map((i) => (i.kind === 'assistant' && i.streaming ? { ...i, streaming: false } : i));
      this.messages = stored.messages;
      this.fullResults = stored.fullResults ?? {};
      this.nextId = this.items.length + 1;
    }
  }

  newId(prefix: string): string {
    return `${prefix}-${Date.now().toString(36)}-${this.nextId++}`;
  }

  add(item: TranscriptItem): TranscriptItem {
    this.items.push(item);
    return item;
  }

  replace(item: TranscriptItem): void {
    const i = this.items.findIndex((x) => x.id === item.id);
    if (i >= 0) this.items[i] = item;
  }

  find(id: string): TranscriptItem | undefined {
    return this.items.find((x) => x.id === id);
  }

  setFullResult(callId: string, text: string): void {
    this.fullResults[callId] = text.length > MAX_STORED_RESULT ? `${text.slice(0, MAX_STORED_RESULT)}\n…[not kept: ${text.length - MAX_STORED_RESULT} more characters]` : text;
    const ids = Object.keys(this.fullResults);
    for (const old of ids.slice(0, Math.max(0, ids.length - MAX_STORED_RESULTS))) delete this.fullResults[old];
  }

  fullResult(callId: string): string | undefined {
    if (callId in this.fullResults) return this.fullResults[callId];
    const item = this.find(callId);
    return item?.kind === 'tool' ? item.card.result : undefined;
  }

  clear(): void {
    this.items = [];
    this.messages = [];
    this.fullResults = {};
  }

  save(): Thenable<void> {
    return this.memento.update(KEY, { items: this.items, messages: this.messages, fullResults: this.fullResults } satisfies Stored);
  }

  /** The conversation as Markdown, tool calls included. */
  toMarkdown(): string {
    const out: string[] = ['# MinAgent chat', ''];
    for (const item of this.items) {
      switch (item.kind) {
        case 'user':
          out.push('## You', '', item.text, '');
          break;
        case 'assistant':
          if (item.text) out.push('## MinAgent', '', item.text, '');
          break;
        case 'tool': {
          const c = item.card;
          out.push(`### Tool \`${c.name}\`${c.server ? ` (server ${c.server})` : ''}: ${c.status}${c.durationMs !== undefined ? `, ${c.durationMs} ms` : ''}`, '');
          if (c.approval) out.push(`> ${c.approval}`, '');
          out.push('```json', c.arguments, '```', '');
          if (c.result !== undefined) out.push('```', this.fullResults[c.callId] ?? c.result, '```', '');
          break;
        }
        case 'notice':
          out.push(`> ${item.level}: ${item.text}`, '');
          break;
      }
    }
    return out.join('\n');
  }
}
