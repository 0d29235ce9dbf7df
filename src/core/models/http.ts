import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { abortError, type ChatModel, type ChatRequestOptions, type ModelTurn } from '../agent/model';
import type { ChatMessage } from '../agentTypes/messages';
import { capStream, DEFAULT_LIMITS, readTextCapped, SizeLimitError } from '../net/limits';
import type { ToolSchema } from '../toolRegistry/toolRegistry';
import { IdleWatch } from './idle';
import { originOf, redirectAllowed } from './origins';

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

/** How many same-origin redirects a provider request follows. */
const MAX_REDIRECTS = 5;

/**
 * POSTs a JSON body and streams the SSE answer, one event at a time. Errors become ProviderError.
 * Redirects are followed only within the same origin (so the key is never re-sent elsewhere, and
 * https never falls back to http); the stream, each event and an error body are size-capped.
 */
export async function streamSse(
  req: StreamRequest,
  onEvent: (event: EventSourceMessage) => void,
  limits: Partial<typeof DEFAULT_LIMITS> = {},
): Promise<void> {
  const idle = new IdleWatch(req.signal, req.idleTimeoutMs);
  try {
    await stream(req, idle, onEvent, limits);
  } catch (err) {
    if (idle.timedOut && !req.signal?.aborted) throw new ProviderError(idle.message(req.provider));
    throw err;
  } finally {
    idle.dispose();
  }
}

async function stream(
  req: StreamRequest,
  idle: IdleWatch,
  onEvent: (event: EventSourceMessage) => void,
  limits: Partial<typeof DEFAULT_LIMITS>,
): Promise<void> {
  if (req.signal?.aborted) throw abortError();
  const caps = { ...DEFAULT_LIMITS, ...limits };
  let body: string;
  try {
    body = JSON.stringify(req.body);
  } catch (err) {
    throw new ProviderError(`${req.provider}: the request could not be built: ${(err as Error).message}`);
  }
  let response = await post(req, req.url, body, idle.signal);
  for (let hops = 0; isRedirect(response.status); hops++) {
    const location = response.headers.get('location') ?? '';
    const from = response.url || req.url;
    void response.body?.cancel().catch(() => undefined);
    if (!redirectAllowed(from, location)) {
      throw new ProviderError(
        `${req.provider}: ${originOf(from)} redirected the request to ${originOf(new URL(location, from).href) ?? 'an invalid address'}; a redirect to another origin is not followed, so the key is not sent there (set the base URL to the final address if you trust it)`,
        response.status,
      );
    }
    if (hops >= MAX_REDIRECTS)
      throw new ProviderError(`${req.provider}: more than ${MAX_REDIRECTS} redirects`, response.status);
    response = await post(req, new URL(location, from).href, body, idle.signal);
  }
  if (!response.ok) throw await httpError(response, req.provider, caps.errorBytes);
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
  const chunks = capStream(response.body, {
    totalBytes: caps.streamBytes,
    eventBytes: caps.eventBytes,
    what: `the answer of ${originOf(req.url) ?? 'the model'}`,
  });
  try {
    for await (const chunk of chunks as unknown as AsyncIterable<Uint8Array>) {
      idle.touch();
      parser.feed(decoder.decode(chunk, { stream: true }));
      if (failure) throw failure;
    }
  } catch (err) {
    if (req.signal?.aborted) throw abortError();
    if (idle.timedOut) throw new ProviderError(idle.message(req.provider));
    if (err instanceof ProviderError) throw err;
    if (err instanceof SizeLimitError) throw new ProviderError(`${req.provider}: ${err.message}`);
    throw new ProviderError(`${req.provider}: the stream broke off: ${(err as Error).message}`);
  }
  if (failure) throw failure;
}

function isRedirect(status: number): boolean {
  return status === 301 || status === 302 || status === 303 || status === 307 || status === 308;
}

/** `signal` is the request's own, which also ends it when the model sends nothing for too long. */
async function post(req: StreamRequest, url: string, body: string, signal: AbortSignal): Promise<Response> {
  try {
    return await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...req.headers },
      body,
      redirect: 'manual',
      signal,
    });
  } catch (err) {
    if (req.signal?.aborted) throw abortError();
    if (signal.aborted) throw err; // the idle timeout: streamSse says so
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    throw new ProviderError(
      `${req.provider}: cannot reach ${originOf(url) ?? url}: ${cause?.code ?? cause?.message ?? (err as Error).message}`,
    );
  }
}

async function httpError(response: Response, provider: string, maxBytes: number): Promise<ProviderError> {
  const text = await readTextCapped(response, maxBytes).catch(() => '');
  let detail = text.slice(0, 300);
  try {
    const json = JSON.parse(text) as { error?: { message?: string } | string; message?: string };
    const message = typeof json.error === 'string' ? json.error : (json.error?.message ?? json.message);
    if (typeof message === 'string') detail = message.slice(0, 1000);
  } catch {
    // not JSON (or cut off): keep the start of the text
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
  return new ProviderError(
    `${provider}: HTTP ${response.status}, ${what}${detail ? `: ${detail}` : ''}`,
    response.status,
    retryAfterMs,
  );
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
export async function withRateLimitRetry<T>(
  fn: () => Promise<T>,
  options: { signal?: AbortSignal; maxWaitMs?: number; attempts?: number; onRetry?: (waitMs: number) => void },
): Promise<T> {
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
  /**
   * @param id e.g. `openai:gpt-4o`
   * @param provider the provider's name for messages, e.g. "Anthropic"
   */
  constructor(
    readonly id: string,
    protected readonly provider: string,
  ) {}

  chat(
    messages: readonly ChatMessage[],
    tools: readonly ToolSchema[],
    options: ChatRequestOptions = {},
  ): Promise<ModelTurn> {
    return withRateLimitRetry(() => this.once(messages, tools, options), {
      ...(options.signal ? { signal: options.signal } : {}),
      onRetry: (ms) => options.onNotice?.(`Rate limited by ${this.provider}; retrying in ${Math.ceil(ms / 1000)} s`),
    });
  }

  protected abstract once(
    messages: readonly ChatMessage[],
    tools: readonly ToolSchema[],
    options: ChatRequestOptions,
  ): Promise<ModelTurn>;
}
