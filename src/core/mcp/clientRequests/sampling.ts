import {
  ProtocolError,
  ProtocolErrorCode,
  type CreateMessageRequest,
  type CreateMessageResult,
} from '@modelcontextprotocol/client';
import type { ChatModel } from '../../agent/model';
import type { ChatMessage } from '../../agentTypes/messages';
import type { Logger } from '../../base/logger';
import { errorMessage } from '../../toolRegistry/toolRegistry';
import { stripUnsafe } from '../../../shared/serverText';
import type { ClientRequestUi, SamplingAsk } from './ui';

/** The spec's error for a sampling request the user rejected. */
export const USER_REJECTED = -1;
/** Default per-server limit on the tokens one sampling request may ask for (`minagent.sampling.maxTokens`). */
export const DEFAULT_SAMPLING_MAX_TOKENS = 1024;
/**
 * Default bound on what one sampling request may send (`minagent.sampling.maxInputChars`): its
 * messages and system prompt together, in characters. Whatever is within it is shown whole before
 * it is sent; a larger request is refused, never cut for the eyes and sent whole.
 */
export const DEFAULT_SAMPLING_MAX_INPUT_CHARS = 20_000;
/** The setting that bounds it, named in the refusal the server gets. */
export const SAMPLING_MAX_INPUT_SETTING = 'minagent.sampling.maxInputChars';
/**
 * A token is seldom longer than this many characters: an answer beyond limit x this is cut, whatever the provider did.
 */
const CHARS_PER_TOKEN_BOUND = 4;

/** Servers whose sampling requests the user allowed without asking again. */
export interface SamplingGrants {
  has(serverIdentity: string): boolean;
  add(serverIdentity: string, server: string): Promise<void>;
}

/** An in-memory grant list (the CLI: for one run). */
export class MemoryGrants implements SamplingGrants {
  private readonly ids = new Set<string>();
  has(id: string): boolean {
    return this.ids.has(id);
  }
  async add(id: string): Promise<void> {
    this.ids.add(id);
  }
}

export interface SamplingDeps {
  ui: ClientRequestUi;
  /** The chat's current model, or undefined when there is none. */
  model(): Promise<ChatModel | undefined>;
  /** The most tokens one request of this server may ask for. */
  maxTokens(server: string): number;
  /**
   * The most characters one request may send (messages and system prompt); DEFAULT_SAMPLING_MAX_INPUT_CHARS when
   * absent.
   */
  maxInputChars?(server: string): number;
  grants: SamplingGrants;
}

type Params = CreateMessageRequest['params'];

/**
 * Answers one `sampling/createMessage` (a 2025-11-25 request or an `input_required` round alike):
 * the user sees what the server wants sent (messages, system prompt, max tokens) and approves it,
 * unless they allowed this server before; it goes to the chat's current model, within the
 * server's token limit. A denial is the spec's error (-1), and nothing is sent.
 *
 * What is shown is what is sent, character for character: a request larger than the input bound
 * (`minagent.sampling.maxInputChars`) is refused before anyone is asked, so nothing is ever cut for
 * display while the whole goes to the model.
 */
export async function answerSampling(
  server: string,
  identity: string,
  params: Params,
  deps: SamplingDeps,
  log: Logger,
  signal: AbortSignal,
  /** The tool whose app asks (MCP Apps), when it is not the server itself; `identity` is then the app's. */
  app?: string,
): Promise<CreateMessageResult> {
  const limit = deps.maxTokens(server);
  if (!Number.isSafeInteger(params.maxTokens) || params.maxTokens < 1)
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'maxTokens must be a positive whole number');
  if (params.maxTokens > limit) {
    log.warn(`refused a sampling request for ${params.maxTokens} tokens (this server's limit is ${limit})`);
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `sampling request refused: it asks for up to ${params.maxTokens} tokens, and the user allows server "${server}" at most ${limit} per request`,
    );
  }
  if ('tools' in params && params.tools)
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'sampling with tools is not supported by this client');
  // The exact texts that would be sent: what the user sees below, and what the model gets.
  const messages = params.messages.map((m) => ({ role: m.role, text: stripUnsafe(messageText(m.content)) }));
  const systemPrompt = params.systemPrompt ? stripUnsafe(params.systemPrompt) : '';
  const size = messages.reduce((n, m) => n + m.text.length, systemPrompt.length);
  const maxInput = inputLimitOf(deps, server);
  if (size > maxInput) {
    log.warn(`refused a sampling request of ${size} characters (${SAMPLING_MAX_INPUT_SETTING} allows ${maxInput})`);
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `sampling request refused: its messages and system prompt are ${size.toLocaleString('en')} characters, and the user allows at most ${maxInput.toLocaleString('en')} per request (${SAMPLING_MAX_INPUT_SETTING})`,
    );
  }
  const model = await deps.model().catch((err: unknown) => {
    throw new ProtocolError(ProtocolErrorCode.InternalError, `no model to sample with: ${errorMessage(err)}`);
  });
  if (!model)
    throw new ProtocolError(ProtocolErrorCode.InternalError, 'no model to sample with: the user has not chosen one');
  const ask: SamplingAsk = {
    server,
    ...(app !== undefined ? { app } : {}),
    ...(systemPrompt ? { systemPrompt } : {}),
    messages: messages.map((m) => ({ role: m.role, text: m.text })),
    maxTokens: params.maxTokens,
    model: model.id,
    limit,
  };
  if (!deps.grants.has(identity)) {
    const answer = await deps.ui.approveSampling(ask, signal);
    if (!answer.allow) {
      log.info('sampling request denied by the user');
      throw new ProtocolError(USER_REJECTED, 'User rejected sampling request');
    }
    if (answer.remember) await deps.grants.add(identity, server);
  }
  // What is sent is what was shown: the same messages, the same system prompt, no tools.
  const chat: ChatMessage[] = [
    ...(systemPrompt ? [{ role: 'system' as const, content: systemPrompt }] : []),
    ...messages.map((m) => ({ role: m.role, content: m.text })),
  ];
  const bound = params.maxTokens * CHARS_PER_TOKEN_BOUND;
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  signal.addEventListener('abort', onAbort, { once: true });
  let streamed = '';
  let overrun = false;
  try {
    const turn = await model
      .chat(chat, [], {
        signal: stop.signal,
        maxOutputTokens: params.maxTokens,
        onText: (delta) => {
          streamed += delta;
          if (streamed.length > bound && !overrun) (overrun = true), stop.abort();
        },
      })
      .catch((err: unknown) => {
        if (overrun) return { text: streamed, toolCalls: [], cut: true };
        throw new ProtocolError(ProtocolErrorCode.InternalError, `the model failed: ${errorMessage(err)}`);
      });
    const text = overrun || turn.text.length > bound ? turn.text.slice(0, bound) : turn.text;
    const cut = overrun || turn.cut === true || turn.text.length > bound;
    log.info(`sampling answered by ${model.id} (${text.length} characters${cut ? ', cut at the limit' : ''})`);
    return {
      role: 'assistant',
      content: { type: 'text', text },
      model: model.id,
      stopReason: cut ? 'maxTokens' : 'endTurn',
    };
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

/** A sampling message's content as text: text blocks as they are, anything else named. */
function messageText(content: unknown): string {
  const blocks = Array.isArray(content) ? content : [content];
  return blocks
    .map((b: { type?: string; text?: string; mimeType?: string }) =>
      b?.type === 'text'
        ? (b.text ?? '')
        : `[${b?.type ?? 'unknown'} content${b?.mimeType ? ` (${b.mimeType})` : ''} not sent]`,
    )
    .join('\n');
}

function inputLimitOf(deps: SamplingDeps, server: string): number {
  const v = deps.maxInputChars?.(server);
  return typeof v === 'number' && Number.isSafeInteger(v) && v > 0 ? v : DEFAULT_SAMPLING_MAX_INPUT_CHARS;
}

/**
 * The bound from `minagent.sampling.maxInputChars`: a positive whole number of characters (the
 * messages and the system prompt of one request together); anything else is the default.
 */
export function samplingInputLimit(setting: unknown): number {
  return typeof setting === 'number' && Number.isSafeInteger(setting) && setting > 0
    ? setting
    : DEFAULT_SAMPLING_MAX_INPUT_CHARS;
}

/**
 * The per-server limit from `minagent.sampling.maxTokens`: `{"*": N, "<server>": M}` (the server's
 * own entry, else "*", else the default). A value that is not a positive whole number is ignored.
 */
export function samplingLimit(setting: unknown, server: string): number {
  const table =
    typeof setting === 'object' && setting !== null && !Array.isArray(setting)
      ? (setting as Record<string, unknown>)
      : {};
  for (const key of [server, '*']) {
    const v = Object.hasOwn(table, key) ? table[key] : undefined;
    if (typeof v === 'number' && Number.isSafeInteger(v) && v > 0) return v;
  }
  return DEFAULT_SAMPLING_MAX_TOKENS;
}
