// The conversation older versions kept in workspace state (one per workspace), moved into a file once.
import type { ChatMessage } from '../../agentTypes/messages';
import type { TranscriptItem } from '../../../shared/protocol';
import { isTranscriptItem } from '../../../shared/validate';
import type { Conversation } from './conversation';

/** A conversation as the old extension kept it in workspace state (one per workspace). */
export interface LegacyConversation {
  items: TranscriptItem[];
  messages: ChatMessage[];
  fullResults?: Record<string, string>;
}

/** Where the old conversation is read, and cleared once it is moved. */
export interface LegacySource {
  read(): LegacyConversation | undefined;
  clear(): Promise<void> | Thenable<void>;
}

/** The old conversation restored into a new one from `create`, or undefined when there is none usable. */
export function restoreLegacy(source: LegacySource | undefined, create: () => Conversation): Conversation | undefined {
  const legacy = source?.read();
  if (!legacy || !Array.isArray(legacy.items)) return undefined;
  const c = create();
  c.restore(
    legacy.items.filter(isTranscriptItem),
    Array.isArray(legacy.messages) ? legacy.messages : [],
    new Map(Object.entries(legacy.fullResults ?? {})),
  );
  return c;
}
