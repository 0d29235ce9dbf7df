import {
  PROTOCOL_VERSION_META_KEY,
  SdkError,
  SdkErrorCode,
  UnsupportedProtocolVersionError,
  type Client,
  type ClientOptions,
  type JSONRPCMessage,
  type Transport,
} from '@modelcontextprotocol/client';
import { isSignInNeeded } from '../../auth/signInErrors';
import { layerIncoming } from '../../base/accessors';
import { errorMessage } from '../../toolRegistry/toolRegistry';
import { MODERN_PROTOCOL_VERSION, type EraSlot } from './eraMemory';
import { clip, exitAnswer, resultAnswer, rpcErrorAnswer, type ProbeFallback } from './probeAnswer';
import { ProcessTransport } from '../transport/processTransport';
import { refusesLegacy, StaleEraVerdict } from './eraRefusal';

export type { ProbeFallback };

/**
 * Both protocol eras through the SDK's own negotiation: `auto` probes with `server/discover` and
 * speaks 2026-07-28 with a server that offers it, and the initialize handshake (2025-11-25 and
 * older) with the rest. The probe waits at most `probeTimeoutMs` for its answer.
 */
export function eraNegotiation(probeTimeoutMs: number): NonNullable<ClientOptions['versionNegotiation']> {
  return { mode: 'auto', probe: { timeoutMs: probeTimeoutMs } };
}

export { MODERN_PROTOCOL_VERSION };

/**
 * The probe's bound within a connect limit: the setting, and at most half the limit, so the handshake keeps the rest.
 */
export function probeBound(probeTimeoutMs: number, connectTimeoutMs: number): number {
  return Math.max(1, Math.min(probeTimeoutMs, Math.floor(connectTimeoutMs / 2)));
}

export interface EraOptions {
  /** The connect limit (the SDK's own request bound while connecting). */
  timeoutMs: number;
  /** How long the probe waits for its answer (see probeBound). */
  probeTimeoutMs: number;
  /** Straight to the 2025 handshake, no probe: the second try after BadProbeAnswer. */
  legacy?: boolean;
  /** The era this server spoke before (see EraMemory): a 2025 one is not probed again. */
  memory?: EraSlot;
  /** Called once when this connect's probe got a bad answer and the 2025 handshake follows. */
  onFallback?: (fallback: ProbeFallback) => void;
}

/**
 * A connect that failed on the probe's answer where the SDK gives up (an HTTP 5xx, an HTML page, a
 * dropped connection, no answer in time; a stdio server that ended on it): the server gets one more
 * try with the 2025 handshake, on a new transport (`legacy`). `got` says what the probe got.
 */
export class BadProbeAnswer extends Error {
  constructor(
    readonly fallback: ProbeFallback,
    override readonly cause: unknown,
  ) {
    super(`server/discover ${fallback.got}`);
  }
}

/**
 * Connects `client` (made with eraNegotiation) in the era the server speaks, on the one transport
 * it is given: the SDK probes in place with `server/discover` and speaks 2026-07-28 to a server that
 * offers it; any other answer (a JSON-RPC error, a result that is not a discover result, and on
 * stdio no answer within the probe bound) leads it to the 2025 handshake on the same connection.
 * So a stdio server is started once. Where the SDK gives up instead (see BadProbeAnswer, and a
 * stdio server that exits on the probe) the caller tries once more in the 2025 era. A server the
 * memory knows as a 2025 one goes straight to initialize; the era of every session is remembered,
 * and a remembered verdict that does not lead to a session is forgotten.
 */
export async function connectInEra(client: Client, transport: Transport, options: EraOptions): Promise<void> {
  const { timeoutMs, probeTimeoutMs, memory } = options;
  completeResultsWithoutType(transport);
  const remembered = options.legacy ? undefined : await memory?.recall();
  if (options.legacy || remembered === 'legacy') {
    try {
      await client.connect(transport, { timeout: timeoutMs, prior: { kind: 'legacy' } });
    } catch (err) {
      if (!remembered) throw err;
      memory?.forget();
      // The server was upgraded since: it refuses the 2025 handshake, or answers it in the 2026-07-28 era.
      if (refusesLegacy(err)) throw new StaleEraVerdict(err);
      throw err;
    }
    memory?.remember('legacy');
    return;
  }
  const probe = watchProbe(transport, probeTimeoutMs);
  try {
    await client.connect(transport, { timeout: timeoutMs });
  } catch (err) {
    const fallback = probe.badAnswer(err);
    if (fallback !== undefined) throw new BadProbeAnswer(fallback, err);
    probe.reportFallback(options.onFallback);
    throw probeCause(err);
  } finally {
    probe.stop();
  }
  probe.reportFallback(options.onFallback);
  memory?.remember(client.getProtocolEra() === 'modern' ? 'modern' : 'legacy');
}

/** Network errors that mean the server was never reached: trying the handshake would fail the same way. */
const UNREACHED =
  /^(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EAI_NONAME|EHOSTUNREACH|ENETUNREACH|EHOSTDOWN|ENETDOWN|EADDRNOTAVAIL|ETIMEDOUT|UND_ERR_CONNECT_TIMEOUT)$|CERT|TLS|SSL|SELF_SIGNED|UNABLE_TO_/;

/**
 * Watches the probe on an HTTP transport (its `send` and replies, wrapped in place until `stop`):
 * what its answer was, whether the connect was still probing when it failed (badAnswer), and
 * whether the SDK went on to the 2025 handshake by itself (reportFallback).
 */
function watchProbe(
  transport: Transport,
  probeTimeoutMs: number,
): {
  badAnswer(err: unknown): ProbeFallback | undefined;
  reportFallback(onFallback: EraOptions['onFallback']): void;
  stop(): void;
} {
  let probeId: string | number | undefined;
  let fallback: ProbeFallback | undefined;
  let probing = true;
  /** The SDK went on to initialize on its own (a 4xx, a JSON-RPC error, a result that is not a discover result). */
  let handshake = false;
  const send = transport.send;
  transport.send = async (message, options) => {
    const m = message as { id?: string | number; method?: string };
    const isProbe = m.method === 'server/discover' && m.id !== undefined;
    if (isProbe) probeId = m.id;
    else if (m.id !== undefined && m.method !== undefined) probing = false;
    if (m.method === 'initialize') handshake = true;
    try {
      return await send.call(transport, message, options);
    } catch (err) {
      if (isProbe && fallback === undefined) {
        const got = sendFailure(err);
        if (got !== undefined) fallback = { got };
      }
      throw err;
    }
  };
  let watching = true;
  mapIncoming(transport, (message) => {
    const m = message as { id?: string | number; method?: string; error?: { code?: unknown; message?: unknown } };
    // An answer after the handshake began (a stdio server slower than the probe bound) is not what the probe got.
    if (!watching || handshake || probeId === undefined || m.id !== probeId || m.method !== undefined) return message;
    if (fallback === undefined)
      fallback = m.error ? rpcErrorAnswer(m.error) : resultAnswer((m as { result?: unknown }).result);
    return message;
  });
  let reported = false;
  return {
    reportFallback(onFallback) {
      if (reported || !handshake || probeId === undefined) return;
      reported = true;
      // No answer at all: on stdio the SDK takes silence for a 2025 server and goes on in place.
      onFallback?.(fallback ?? { got: `did not answer within ${probeTimeoutMs} ms`, silence: true });
    },
    badAnswer(err) {
      // A server of a later era, a sign-in, or a connect that got past the probe: not the probe's answer.
      if (!probing || probeId === undefined || err instanceof UnsupportedProtocolVersionError || isSignInNeeded(err))
        return undefined;
      // A stdio server that ended on the probe (the SDK cannot fall back in place on a dead process).
      if (transport instanceof ProcessTransport && transport.exit) return exitAnswer(transport.exit);
      if (fallback === undefined && err instanceof SdkError && err.code === SdkErrorCode.RequestTimeout)
        return { got: `did not answer within ${probeTimeoutMs} ms`, silence: true };
      return fallback;
    },
    stop() {
      watching = false;
      if (transport.send !== send) transport.send = send;
    },
  };
}

/**
 * What a failed send of the probe says the server answered; undefined when it was not an answer (never reached, a
 * sign-in).
 */
function sendFailure(err: unknown): string | undefined {
  if (isSignInNeeded(err)) return undefined;
  const data = (err as { data?: { status?: unknown; statusText?: unknown; text?: unknown } } | undefined)?.data;
  if (typeof data?.status === 'number') {
    const text = typeof data.text === 'string' ? clip(data.text) : '';
    return `answered HTTP ${data.status}${typeof data.statusText === 'string' && data.statusText ? ` ${data.statusText}` : ''}${text ? `: ${text}` : ''}`;
  }
  if (
    (err instanceof SdkError && err.code === SdkErrorCode.ClientHttpUnexpectedContent) ||
    (err instanceof Error && err.name === 'SyntaxError')
  ) {
    return `answered something that is not a 2026-07-28 reply (${clip(errorMessage(err))})`;
  }
  if (err instanceof TypeError) {
    const cause = (err as { cause?: { code?: unknown; message?: unknown } }).cause;
    const code = typeof cause?.code === 'string' ? cause.code : undefined;
    if (code !== undefined && UNREACHED.test(code)) return undefined;
    return `closed the connection (${code ?? clip(String(cause?.message ?? err.message))})`;
  }
  return undefined;
}

/**
 * A probe that could not reach the server at all is wrapped by the SDK ("Version negotiation probe
 * failed: fetch failed"); the network error inside says why (ECONNREFUSED, a DNS failure), in the
 * same words as a failure after the probe.
 */
function probeCause(err: unknown): unknown {
  const cause = (err as { cause?: unknown } | undefined)?.cause;
  return err instanceof SdkError && err.code === SdkErrorCode.EraNegotiationFailed && cause instanceof TypeError
    ? cause
    : err;
}

/**
 * A server's protocol in words for a tooltip: its revision and the era it belongs to. The version is the server's word,
 * shown as text.
 */
export function describeProtocol(version: string): string {
  const shown = version.replace(/[^0-9A-Za-z.-]/g, '').slice(0, 32);
  return shown >= MODERN_PROTOCOL_VERSION
    ? `MCP ${shown} (stateless: server/discover, no initialize)`
    : `MCP ${shown} (initialize handshake)`;
}

/**
 * A 2026-07-28 result without `resultType` is complete (SEP-2322: "the client MUST assume
 * `complete` when it is not specified"); the SDK 2.4.0 refuses such a result from a server of that
 * revision. So the results of requests we sent in that era get the default before the SDK reads
 * them. The transport's `send` and `onmessage` are wrapped in place (like tracedTransport), so its
 * class, its other members and an earlier wrapper keep working.
 */
export function completeResultsWithoutType(transport: Transport): Transport {
  const modernIds = new Set<string | number>();
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    const m = message as { id?: string | number; method?: string; params?: { _meta?: Record<string, unknown> } };
    const version = m.params?._meta?.[PROTOCOL_VERSION_META_KEY];
    if (
      m.id !== undefined &&
      m.method !== undefined &&
      typeof version === 'string' &&
      version >= MODERN_PROTOCOL_VERSION
    )
      modernIds.add(m.id);
    return send(message, options);
  };
  return mapIncoming(transport, (message) => {
    const m = message as { id?: string | number; method?: string; result?: unknown };
    if (m.id === undefined || m.method !== undefined || !modernIds.delete(m.id)) return message;
    const result = m.result;
    if (typeof result !== 'object' || result === null || 'resultType' in result) return message;
    return { ...message, result: { ...result, resultType: 'complete' } } as JSONRPCMessage;
  });
}

/**
 * Passes every message the transport delivers through `map` before its reader sees it; `onmessage`
 * is wrapped in place (an accessor over an earlier wrapper's), so the transport keeps its class.
 */
export function mapIncoming(transport: Transport, map: (message: JSONRPCMessage) => JSONRPCMessage): Transport {
  layerIncoming(transport, (handler) => (message, extra) => handler(map(message), extra));
  return transport;
}
