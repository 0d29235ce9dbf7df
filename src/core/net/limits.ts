/**
 * Size caps on what a remote server may send: a response body, one SSE event, an error body. A
 * body over its cap fails with a SizeLimitError that says which cap and how big, instead of
 * filling memory; the caller turns it into a clear error for the user.
 */

/** Default caps; the stdio transport's line cap is the same 64 MB. */
export const DEFAULT_LIMITS = {
  /** A whole JSON response (an MCP reply over HTTP). */
  bodyBytes: 64 * 1024 * 1024,
  /** One server-sent event (an MCP message over SSE, one model stream chunk). */
  eventBytes: 8 * 1024 * 1024,
  /** A whole model stream (one answer). */
  streamBytes: 64 * 1024 * 1024,
  /** The text of an error response that is shown to the user. */
  errorBytes: 64 * 1024,
} as const;

export class SizeLimitError extends Error {
  constructor(
    readonly what: string,
    readonly limit: number,
  ) {
    super(`${what} is larger than the ${formatBytes(limit)} limit; it was cut off`);
    this.name = 'SizeLimitError';
  }
}

export function formatBytes(n: number): string {
  if (n >= 1024 * 1024) return `${+(n / 1024 / 1024).toFixed(1)} MB`;
  if (n >= 1024) return `${+(n / 1024).toFixed(1)} KB`;
  return `${n} bytes`;
}

export interface StreamCaps {
  /** Most bytes in total. */
  totalBytes?: number;
  /** Most bytes of one SSE event (between blank lines). */
  eventBytes?: number;
  /** Names the body in the error, e.g. "the reply of server \"remote\"". */
  what: string;
  /**
   * For an event over the cap: SSE text to send in its place (given the event's first bytes), after
   * which the stream ends; undefined (or no hook) fails the stream instead.
   */
  replaceEvent?: (head: string, error: SizeLimitError) => string | undefined;
}

const HEAD_BYTES = 512;

/** Passes a body through, failing the stream (or replacing an oversized event) once a cap is passed. */
export function capStream(body: ReadableStream<Uint8Array>, caps: StreamCaps): ReadableStream<Uint8Array> {
  let total = 0;
  let event = 0;
  let head: number[] = [];
  let lastNewline = false;
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        total += chunk.byteLength;
        if (caps.totalBytes !== undefined && total > caps.totalBytes) {
          controller.error(new SizeLimitError(caps.what, caps.totalBytes));
          return;
        }
        if (caps.eventBytes === undefined) {
          controller.enqueue(chunk);
          return;
        }
        // An event ends at an empty line: "\n\n" (a "\r" in between is skipped).
        for (let i = 0; i < chunk.length; i++) {
          const b = chunk[i]!;
          if (b === 10) {
            if (lastNewline) {
              event = 0;
              head = [];
            }
            lastNewline = true;
          } else if (b !== 13) {
            lastNewline = false;
            event++;
          }
          if (head.length < HEAD_BYTES) head.push(b);
        }
        if (event > caps.eventBytes) {
          const error = new SizeLimitError(`one event of ${caps.what}`, caps.eventBytes);
          const replacement = caps.replaceEvent?.(new TextDecoder().decode(new Uint8Array(head)), error);
          if (replacement === undefined) {
            controller.error(error);
            return;
          }
          // The bytes of the event so far have passed: end it (a parser drops it as malformed) first.
          controller.enqueue(new TextEncoder().encode(`\n\n${replacement}`));
          controller.terminate();
          return;
        }
        controller.enqueue(chunk);
      },
    }),
  );
}

/** Reads at most `maxBytes` of a response as text (the rest is dropped and the body cancelled). */
export async function readTextCapped(response: Response, maxBytes: number): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < maxBytes) {
      const { done, value } = await reader.read();
      if (done) break;
      parts.push(value);
      size += value.byteLength;
    }
  } finally {
    void reader.cancel().catch(() => undefined);
  }
  const all = new Uint8Array(Math.min(size, maxBytes));
  let at = 0;
  for (const p of parts) {
    const take = p.subarray(0, all.length - at);
    all.set(take, at);
    at += take.length;
    if (at >= all.length) break;
  }
  return new TextDecoder().decode(all);
}

export type Fetch = (input: string | URL, init?: RequestInit) => Promise<Response>;

/**
 * A fetch whose answers are capped: an event stream per event, anything else as a whole. For the
 * MCP SDK's HTTP transports, which read whatever a server sends.
 */
export function cappedFetch(
  what: string,
  limits: { bodyBytes?: number; eventBytes?: number } = {},
  base: Fetch = fetch,
): Fetch {
  return async (input, init) => {
    const response = await base(input, init);
    if (!response.body || [101, 204, 205, 304].includes(response.status)) return response;
    const sse = (response.headers.get('content-type') ?? '').includes('text/event-stream');
    const body = capStream(
      response.body,
      sse
        ? { eventBytes: limits.eventBytes ?? DEFAULT_LIMITS.eventBytes, what, replaceEvent: jsonRpcErrorEvent }
        : { totalBytes: limits.bodyBytes ?? DEFAULT_LIMITS.bodyBytes, what },
    );
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

/**
 * An oversized JSON-RPC reply in an event stream becomes an error reply to the same request, so
 * the call fails at once with the reason instead of waiting for its timeout. The id is read from
 * the event's first bytes; without one the stream fails as it is.
 */
function jsonRpcErrorEvent(head: string, error: SizeLimitError): string | undefined {
  const data =
    head
      .split('\n')
      .find((line) => line.startsWith('data:'))
      ?.slice(5) ?? '';
  const id =
    /^\s*\{\s*"jsonrpc"\s*:\s*"2\.0"\s*,\s*"id"\s*:\s*(\d+|"(?:[^"\\]|\\.)*")/.exec(data)?.[1] ??
    /^\s*\{\s*"id"\s*:\s*(\d+|"(?:[^"\\]|\\.)*")/.exec(data)?.[1];
  if (id === undefined) return undefined;
  return `event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: JSON.parse(id) as unknown, error: { code: -32000, message: error.message } })}\n\n`;
}
