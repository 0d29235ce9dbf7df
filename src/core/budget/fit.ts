import type { ChatMessage } from '../agentTypes/messages';
import type { ToolSchema } from '../toolRegistry/toolRegistry';
import { messageTokens, sum, toolTokens, type TokenCounter } from './tokens';
import { answerReserve, type ContextWindow } from './window';

/** A result shortened to fit keeps this many characters. */
export const SHORTENED_CHARS = 400;
/** The dropped turns' questions listed in the note that replaces them. */
const LISTED_QUESTIONS = 10;
const QUESTION_CHARS = 160;

export interface TrimReport {
  /** Tool results shortened to SHORTENED_CHARS. */
  shortened: number;
  imagesDropped: number;
  /** Whole earlier turns (question, answer, tool calls and results) left out. */
  turnsDropped: number;
}

export interface FitResult {
  messages: ChatMessage[];
  /** What the request costs as sent (messages and tools). */
  tokens: number;
  /** What the request may cost: the window less the room kept for the answer. */
  limit: number;
  trimmed?: TrimReport;
}

/** The request does not fit even with everything older trimmed: the current turn alone is too big. */
export class BudgetError extends Error {
  override readonly name = 'BudgetError';
}

export function describeTrim(t: TrimReport, window: ContextWindow): string {
  const parts = [
    t.shortened ? `${t.shortened} older tool result${t.shortened === 1 ? '' : 's'} shortened` : '',
    t.imagesDropped ? `${t.imagesDropped} image${t.imagesDropped === 1 ? '' : 's'} dropped` : '',
    t.turnsDropped ? `${t.turnsDropped} oldest turn${t.turnsDropped === 1 ? '' : 's'} left out` : '',
  ].filter(Boolean);
  return `Trimmed to fit the model's context window (${window.tokens.toLocaleString('en-US')} tokens, ${window.source}): ${parts.join(', ')}.`;
}

/**
 * Makes every assistant tool call have its result and every result its call, as both APIs require:
 * a call without a result gets an error result; a result without its call is left out.
 */
export function pairToolCalls(messages: readonly ChatMessage[]): ChatMessage[] {
  const out: ChatMessage[] = [];
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    if (m.role === 'tool') continue; // placed after their call below
    out.push(m);
    if (m.role !== 'assistant' || !m.toolCalls?.length) continue;
    const results = new Map<string, ChatMessage>();
    let j = i + 1;
    for (; j < messages.length && messages[j]!.role === 'tool'; j++) {
      const r = messages[j] as Extract<ChatMessage, { role: 'tool' }>;
      if (!results.has(r.toolCallId)) results.set(r.toolCallId, r);
    }
    for (const c of m.toolCalls)
      out.push(
        results.get(c.id) ?? {
          role: 'tool',
          toolCallId: c.id,
          name: c.name,
          content: '{"error":"no result: the turn ended before this call ran"}',
          isError: true,
        },
      );
    i = j - 1;
  }
  return out;
}

type ToolMessage = Extract<ChatMessage, { role: 'tool' }>;

/**
 * Fits a request into the model's window, leaving room for the answer. In order, until it fits:
 * older turns' tool results are shortened (oldest first), then their images dropped, then the oldest
 * turns left out whole (a turn's tool calls go with their results; a note lists what the user had
 * asked); the current turn stays whole unless it alone is too big, when its earlier steps' results
 * are shortened, then its latest ones. `messages` starts with the system prompt, if any, and ends with
 * the current turn (its user message and the steps so far).
 */
export async function fitRequest(
  messages: readonly ChatMessage[],
  tools: readonly ToolSchema[],
  window: ContextWindow,
  counter: TokenCounter,
  imageTokens?: number,
): Promise<FitResult> {
  const cost = (m: ChatMessage) => messageTokens(m, counter, imageTokens);
  const limit = window.tokens - answerReserve(window);
  const toolCost = await sum(tools, (t) => toolTokens(t, counter));
  let msgs = pairToolCalls(messages);
  const costs = await Promise.all(msgs.map((m) => cost(m)));
  let total = () => toolCost + costs.reduce((a, b) => a + b, 0);
  if (total() <= limit) return { messages: msgs, tokens: total(), limit };

  if (toolCost >= limit) {
    throw new BudgetError(
      `the tool schemas alone cost about ${toolCost} tokens, more than the model's window allows (${limit} of ${window.tokens}, ${window.source}): switch servers or tools off in the Tools tree`,
    );
  }
  const report: TrimReport = { shortened: 0, imagesDropped: 0, turnsDropped: 0 };
  const set = async (i: number, m: ChatMessage) => {
    msgs[i] = m;
    costs[i] = await cost(m);
  };
  const lastUser = lastIndex(msgs, 'user');
  const currentStart = lastUser < 0 ? msgs.length : lastUser;
  // The latest step of the current turn: the results after its last assistant message.
  const lastAssistant = lastIndex(msgs, 'assistant');
  const latestStep = lastAssistant > currentStart ? lastAssistant + 1 : msgs.length;

  const shorten = async (from: number, to: number) => {
    for (let i = from; i < to && total() > limit; i++) {
      const m = msgs[i]!;
      if (m.role !== 'tool' || m.content.length <= SHORTENED_CHARS * 1.5) continue;
      await set(i, { ...m, content: shortened(m.content) });
      report.shortened++;
    }
  };
  const dropImages = async (from: number, to: number) => {
    for (let i = from; i < to && total() > limit; i++) {
      const m = msgs[i]!;
      if (m.role !== 'tool' || !m.images?.length || imageTokens === 0) continue;
      const { images, ...rest } = m as ToolMessage;
      await set(i, {
        ...rest,
        content: `${rest.content}\n[${images!.length} image${images!.length === 1 ? '' : 's'} left out to fit the context window]`,
      });
      report.imagesDropped += images!.length;
    }
  };

  await shorten(0, currentStart);
  await dropImages(0, currentStart);

  if (total() > limit) {
    // Leave out whole turns, oldest first: a turn runs from a user message to the next one.
    const systemEnd = msgs.findIndex((m) => m.role !== 'system');
    const head = systemEnd < 0 ? msgs.length : systemEnd;
    const dropped: string[] = [];
    let cut = head;
    while (total() > limit && cut < currentStart) {
      let next = cut + 1;
      while (next < currentStart && msgs[next]!.role !== 'user') next++;
      for (let i = cut; i < next; i++) {
        const m = msgs[i]!;
        if (m.role === 'user') dropped.push(m.content);
        costs[i] = 0;
      }
      report.turnsDropped++;
      cut = next;
    }
    const system = msgs.slice(0, head);
    const note = report.turnsDropped ? droppedNote(report.turnsDropped, dropped) : undefined;
    const withNote: ChatMessage[] = !note
      ? system
      : system.length
        ? [...system.slice(0, -1), { role: 'system', content: `${system[system.length - 1]!.content}\n\n${note}` }]
        : [{ role: 'system', content: note }];
    const kept = msgs.slice(cut);
    const keptCosts = costs.slice(cut);
    msgs = [...withNote, ...kept];
    costs.length = 0;
    costs.push(...(await Promise.all(withNote.map((m) => cost(m)))), ...keptCosts);
    const shift = withNote.length - cut;
    total = () => toolCost + costs.reduce((a, b) => a + b, 0);
    if (total() > limit) {
      // The current turn alone is too big: its earlier steps first, then its latest.
      const start = currentStart + shift;
      const latest = latestStep + shift;
      await shorten(start, latest);
      await dropImages(start, latest);
      await shorten(latest, msgs.length);
      await dropImages(latest, msgs.length);
    }
  }
  if (total() > limit) {
    throw new BudgetError(
      `this request needs about ${total()} tokens, but the model's window allows ${limit} (${window.tokens} less ${window.tokens - limit} kept for the answer; ${window.source}) even with every earlier turn left out: shorten the message, or switch tools off in the Tools tree`,
    );
  }
  return { messages: msgs, tokens: total(), limit, trimmed: report };
}

function lastIndex(messages: readonly ChatMessage[], role: ChatMessage['role']): number {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i]!.role === role) return i;
  return -1;
}

function shortened(text: string): string {
  return `${text.slice(0, SHORTENED_CHARS)}\n…[shortened to fit the model's context window: ${text.length - SHORTENED_CHARS} of ${text.length} characters left out]`;
}

function droppedNote(turns: number, questions: string[]): string {
  const listed = questions
    .slice(-LISTED_QUESTIONS)
    .map((q, i) => `${i + 1}. ${q.length > QUESTION_CHARS ? `${q.slice(0, QUESTION_CHARS)}…` : q}`);
  return [
    `[${turns} earlier turn${turns === 1 ? ' was' : 's were'} left out of this conversation to fit the model's context window.${listed.length ? ' In them the user had asked:' : ''}]`,
    ...listed,
  ].join('\n');
}
