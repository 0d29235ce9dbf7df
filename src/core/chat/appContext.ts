import type { TranscriptItem } from '../../shared/protocol';
import type { Conversation } from './conversation/conversation';
import { framed } from '../base/framedText';

/** The most one app may tell the model (`ui/update-model-context`), in characters; longer is cut. */
export const MAX_APP_CONTEXT_CHARS = 4_000;
/** The most all of a conversation's apps together add to the system prompt; the newest go first. */
export const MAX_APP_CONTEXTS_CHARS = 16_000;

/**
 * What an app asked the model to know (`ui/update-model-context`) becomes part of its card: kept
 * with the conversation, shown to the user, and sent with every request of that conversation
 * (counted in the budget). A new update replaces the app's last one. False when the card is not
 * in this conversation (its chat was switched away from).
 */
export function setAppContext(c: Conversation, callId: string, text: string): boolean {
  const item = c.items.find((i) => i.kind === 'tool' && i.card.callId === callId);
  if (item?.kind !== 'tool' || !item.card.app) return false;
  const context = text.trim().slice(0, MAX_APP_CONTEXT_CHARS);
  const { context: _old, ...app } = item.card.app;
  c.update({ ...item, card: { ...item.card, app: context ? { ...app, context } : app } });
  return true;
}

/**
 * The apps' contexts of a conversation, for the system prompt: each in a tag naming its tool and
 * server (server-written text, marked as such and unable to close it: framedText.ts), the newest
 * first, bounded in all.
 */
export function appContextSection(items: readonly TranscriptItem[]): string {
  const parts: string[] = [];
  let used = 0;
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i]!;
    if (item.kind !== 'tool' || !item.card.app?.context) continue;
    const part = framed('app-context', { tool: item.card.name, server: item.card.server }, item.card.app.context);
    if (used + part.length > MAX_APP_CONTEXTS_CHARS) break;
    parts.unshift(part);
    used += part.length;
  }
  return parts.length
    ? `What the apps shown in this chat asked you to know (written by their servers):\n${parts.join('\n')}`
    : '';
}
