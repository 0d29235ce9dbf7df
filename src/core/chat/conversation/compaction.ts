// Keeping a conversation's file within its bound: what goes when it grows past it.
import type { Logger } from '../../base/logger';
import type { Conversation } from './conversation';

export const RESULTS_REMOVED =
  'Older tool results were removed to keep this conversation small: their cards keep the first part, and the model sees a note in their place.';

/** The bound of a conversation file when the owner sets none (16 MB). */
export const DEFAULT_MAX_FILE_BYTES = 16_000_000;

/**
 * Shrinks a conversation whose file grew past `bound`, before the file is rewritten from it: the
 * oldest full results go until the rest fit in a quarter of it, then the oldest tool results in
 * the model's history are replaced by a note until the whole fits in half (so the next turns
 * append again for a while). The transcript says so.
 */
export function compact(c: Conversation, bound: number, log: Logger): void {
  const results = c.allResults();
  let resultBytes = results.reduce((n, [, t]) => n + Buffer.byteLength(t), 0);
  const dropped: string[] = [];
  for (const [id, text] of results) {
    if (resultBytes <= bound / 4) break;
    dropped.push(id);
    resultBytes -= Buffer.byteLength(text);
  }
  c.forgetResults(dropped);
  const over = stateBytes(c) - bound / 2;
  const shortened = over > 0 ? shortenOldMessages(c, over) : 0;
  if (dropped.length || shortened) {
    c.append({ kind: 'notice', id: c.newId('n'), level: 'info', text: RESULTS_REMOVED });
    log.info(
      `chat: compacted conversation ${c.id}: ${dropped.length} older full result(s) removed, ${shortened} older result(s) in the model's history replaced by a note`,
    );
  }
}

function stateBytes(c: Conversation): number {
  let n = 0;
  for (const item of c.items) n += JSON.stringify(item).length;
  for (const m of c.messages) n += JSON.stringify(m).length;
  for (const [, t] of c.allResults()) n += t.length;
  return n;
}

/** Replaces the content of the oldest tool messages with a note until `over` bytes are saved; returns how many. */
function shortenOldMessages(c: Conversation, over: number): number {
  const messages = [...c.messages];
  // The last turn stays whole.
  let lastUser = messages.length;
  while (lastUser > 0 && messages[lastUser - 1]!.role !== 'user') lastUser--;
  lastUser--;
  let count = 0;
  for (let i = 0; i < lastUser && over > 0; i++) {
    const m = messages[i]!;
    if (m.role !== 'tool' || m.content.startsWith('[older result removed')) continue;
    const before = JSON.stringify(m).length;
    messages[i] = {
      role: 'tool',
      toolCallId: m.toolCallId,
      name: m.name,
      content: `[older result removed: ${m.content.length} characters]`,
      ...(m.isError ? { isError: true } : {}),
    };
    over -= before - JSON.stringify(messages[i]).length;
    count++;
  }
  if (count) c.messages = messages;
  return count;
}
