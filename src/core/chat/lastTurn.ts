import type { Conversation } from './conversation';

/** What Continue sends: the model picks up an answer its output limit cut off. */
export const CONTINUE_MESSAGE = 'Continue exactly where your previous answer was cut off.';

/**
 * Retry and Edit: the user's last message, taken back out of the conversation with everything that
 * answered it. Refused while a turn runs (`running`), or when the last turn is not a typed message.
 */
export function takeBackLastTurn(c: Conversation, running: boolean): string {
  if (running) throw new Error('the chat is still answering; stop it first');
  const text = c.takeBackLastTurn();
  if (text === undefined) throw new Error('there is no message of yours to take back');
  return text;
}
