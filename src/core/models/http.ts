import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { abortError, type ChatMessage, type ChatModel, type ChatRequestOptions, type ModelTurn } from '../agent/model';
import type { ToolSchema } from '../tools';
import { IdleWatch } from './idle';

/** A provider failure the chat shows as it is: status, what the server said, when to retry. */
export class ProviderError extends Error {
  constructor(
    message: string,
    readonly status?: number,
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}

export interface StreamRequest {
  url: string;
  headers: Record<string, string>;
  body: unknown;
  signal?: AbortSignal;
  /** Provider name for messages, e.g. "OpenAI-compatible". */
  provider: string;
  /** Ends the request when nothing arrives for this long, the wait for the answer's start included. */
  idleTimeoutMs?: number;
}

/** POSTs a JSON body and streams the SSE answer, one event at a time. Errors become ProviderError. */
export async function streamSse(req: StreamRequest, onEvent: (event: EventSourceMessage) => void): Promise<void> {
  const idle = new IdleWatch(req.signal, req.idleTimeoutMs);
  try {
    await stream(req, idle, onEvent);
  } catch (err) {
    if (idle.timedOut && !req.signal?.aborted) throw new ProviderError(idle.message(req.provider));
    throw err;
  } finally {
    idle.dispose();
  }
}

async function stream(req: StreamRequest, idle: IdleWatch, onEvent: (event: EventSourceMessage) => void): Promise<void> {
  if (req.signal?.aborted) throw abortError();
  let response: Response;
  try {
    response = await fetch(req.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...req.headers },
      body: JSON.stringify(req.body),
      signal: idle.signal,
    });
  } catch (err) {
    if (req.signal?.aborted) throw abortError();
    if (idle.timedOut) throw new ProviderError(idle.message(req.provider));
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    throw new ProviderError(`${req.provider}: cannot reach ${new URL(req.url).origin}: ${cause?.code ?? cause?.message ?? (err as Error).message}`);
  }
  if (!response.ok) throw await httpError(response, req.provider);
  if (!response.body) throw new ProviderError(`${req.provider}: the response has no body`);

  let failure: Error | undefined;
  const parser = createParser({
    onEvent: (event) => {
      if (failure) return;
      try {
        onEvent(event);
      } catch (err) {
        failure = err as Error;
      }
    },
  });
  const decoder = new TextDecoder();
  try {
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      idle.touch();
      parser.feed(decoder.decode(chunk, { stream: true }));
      if (failure) throw failure;
    }
  } catch (err) {
    if (req.signal?.aborted) throw abortError();
    if (idle.timedOut) throw new ProviderError(idle.message(req.provider));
    if (err instanceof ProviderError) throw err;
    throw new ProviderError(`${req.provider}: the stream broke off: ${(err as Error).message}`);
  }
  if (failure) throw failure;
}

async function httpError(response: Response, provider: string): Promise<ProviderError> {
  const text = await response.text().catch(() => '');
  let detail = text.slice(0, 300);
  try {
    const json = JSON.parse(text) as { error?: { message?: string } | string; message?: string };
    detail = (typeof json.error === 'string' ? json.error : json.error?.message) ?? json.message ?? detail;
  } catch {
    // not JSON: keep the text
  }
  const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'));
  const what =
    response.status === 401 || response.status === 403
      ? 'the API key was rejected'
      : response.status === 429
        ? `rate limited${retryAfterMs !== undefined ? `; retry after ${Math.ceil(retryAfterMs / 1000)} s` : ''}`
        : response.status >= 500
          ? 'the server failed'
          : 'the request was refused';
  return new ProviderError(`${provider}: HTTP ${response.status}, ${what}${detail ? `: ${detail}` : ''}`, response.status, retryAfterMs);
}

function parseRetryAfter(value: string | null): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/** Parses one SSE data payload as JSON, or fails with a message naming the provider. */
export function parseData(data: string, provider: string): unknown {
  try {
    return JSON.parse(data);
  } catch {
    throw new ProviderError(`${provider}: malformed stream: a chunk is not JSON: ${data.slice(0, 120)}`);
  }
}

/**
 * Retries a request that was rate limited, when the server says how long to wait and the wait is
 * short; `onRetry` lets the chat show the wait.
 */
export async function withRateLimitRetry<T>(fn: () => Promise<T>, options: { signal?: AbortSignal; maxWaitMs?: number; attempts?: number; onRetry?: (waitMs: number) => void }): Promise<T> {
  const attempts = options.attempts ?? 2;
  for (let i = 0; ; i++) {
    try {
      return await fn();
    } catch (err) {
      const wait = err instanceof ProviderError && err.status === 429 ? err.retryAfterMs : undefined;
      if (wait === undefined || wait > (options.maxWaitMs ?? 20_000) || i >= attempts) throw err;
      if (options.signal?.aborted) throw abortError();
      options.onRetry?.(wait);
      await abortableDelay(wait, options.signal);
    }
  }
}

/** Waits `ms`, or rejects with an AbortError as soon as `signal` aborts (also when it already has). */
export function abortableDelay(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(abortError());
    const onAbort = () => {
      clearTimeout(t);
      reject(abortError());
    };
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** A provider that streams one request per turn; a short rate-limit wait is retried and shown. */
export abstract class StreamingChatModel implements ChatModel {
  abstract readonly id: string;
  /** Provider name for messages, e.g. "Anthropic". */
  protected abstract readonly provider: string;

  chat(messages: readonly ChatMessage[], tools: readonly ToolSchema[], options: ChatRequestOptions = {}): Promise<ModelTurn> {
    return withRateLimitRetry(() => this.once(messages, tools, options), {
      ...(options.signal ? { signal: options.signal } : {}),
      onRetry: (ms) => options.onNotice?.(`Rate limited by ${this.provider}; retrying in ${Math.ceil(ms / 1000)} s`),
    });
  }

  protected abstract once(messages: readonly ChatMessage[], tools: readonly ToolSchema[], options: ChatRequestOptions): Promise<ModelTurn>;
}
