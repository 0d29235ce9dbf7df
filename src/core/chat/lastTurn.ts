import type { ChatMessage } from '../agentTypes/messages';
import type { TranscriptItem } from '../../shared/protocol';
import type { Conversation } from './conversation/conversation';

/** What Continue sends: the model picks up an answer its output limit cut off. */
export const CONTINUE_MESSAGE = 'Continue exactly where your previous answer was cut off.';

/** A turn taken back (Retry, Edit): its text, and what Undo puts back while nothing was added since. */
export interface TakenTurn {
  text: string;
  /** The conversation it was taken from. */
  from: Conversation;
  items: readonly TranscriptItem[];
  /** The history before, and as it was left. */
  messages: readonly ChatMessage[];
  left: { lastId: string | undefined; size: number; messages: number };
}

/**
 * Retry and Edit: the user's last message, taken back out of the conversation with everything that
 * answered it. Refused while a turn runs (`running`), or when the last turn is not a typed message.
 */
export function takeBackLastTurn(c: Conversation, running: boolean): TakenTurn {
  if (running) throw new Error('the chat is still answering; stop it first');
  const items = c.items;
  const messages = c.messages;
  const text = c.takeBackLastTurn();
  if (text === undefined) throw new Error('there is no message of yours to take back');
  const kept = c.items;
  return {
    text,
    from: c,
    items: items.slice(kept.length),
    messages,
    left: { lastId: kept.at(-1)?.id, size: kept.length, messages: c.messages.length },
  };
}

/**
 * Edit's Undo: the turn goes back as it was (its message, its answer, its cards and their full
 * results, the history), only while the conversation is as Edit left it. False when it is not.
 */
export function putBackTurn(c: Conversation, taken: TakenTurn): boolean {
  const now = c.items;
  if (
    c !== taken.from ||
    now.length !== taken.left.size ||
    now.at(-1)?.id !== taken.left.lastId ||
    c.messages.length !== taken.left.messages
  )
    return false;
  for (const item of taken.items) {
    c.append(item);
    // Written again: the store dropped them with the items.
    const full = item.kind === 'tool' ? c.fullResult(item.id) : undefined;
    if (full !== undefined) c.setFullResult(item.id, full);
  }
  c.messages = taken.messages;
  return true;
}
