import { PROTOCOL_VERSION_META_KEY, SdkError, SdkErrorCode, type Client, type ClientOptions, type Implementation, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/client';
import { probeStdioEra } from './transport/eraProbe';
import { ProcessTransport } from './transport/processTransport';

/**
 * Both protocol eras through the SDK's own negotiation: `auto` probes with `server/discover` and
 * speaks 2026-07-28 with a server that offers it, and the initialize handshake (2025-11-25 and
 * older) with the rest.
 */
export const ERA_NEGOTIATION: NonNullable<ClientOptions['versionNegotiation']> = { mode: 'auto' };

/** The first revision of the stateless era (no initialize; `server/discover`, per-request `_meta`). */
export const MODERN_PROTOCOL_VERSION = '2026-07-28';

/**
 * The era of each stdio program (command, arguments, cwd, environment) probed in this process, so a
 * restart, or a second entry for the same program, does not probe again (the SDK's `prior` verdict).
 * A verdict that fails to connect is dropped; a program upgraded to 2026-07-28 while cached as legacy
 * still answers initialize, and speaks the new era from the next process on.
 */
const stdioVerdicts = new Map<string, Promise<'modern' | 'legacy'>>();

/**
 * Connects `client` (made with ERA_NEGOTIATION) in the era the server speaks. Over HTTP the SDK
 * probes in place. A stdio server is probed on a disposable sibling first (see probeStdioEra), so
 * that a legacy server that is silent to the probe, or exits on it, connects at once on its own
 * untouched process; a modern one is then negotiated in place by the SDK (one more round trip,
 * which also opens its list-change subscription). The verdict is kept per program (stdioVerdicts).
 */
export async function connectInEra(client: Client, transport: Transport, clientInfo: Implementation, timeoutMs: number): Promise<void> {
  completeResultsWithoutType(transport);
  if (transport instanceof ProcessTransport) {
    const key = transport.identity;
    let verdict = stdioVerdicts.get(key);
    if (!verdict) {
      verdict = probeStdioEra(transport.sibling(), clientInfo, timeoutMs);
      stdioVerdicts.set(key, verdict);
    }
    try {
      const era = await verdict;
      // Closed by its owner while probing: the probe was cut short and says nothing about the program.
      if (transport.closed && stdioVerdicts.get(key) === verdict) stdioVerdicts.delete(key);
      if (era === 'legacy') return await client.connect(transport, { timeout: timeoutMs, prior: { kind: 'legacy' } });
      await client.connect(transport, { timeout: timeoutMs });
      return;
    } catch (err) {
      // A verdict that did not lead to a session is not kept: the next start probes again.
      if (stdioVerdicts.get(key) === verdict) stdioVerdicts.delete(key);
      throw err;
    }
  }
  try {
    await client.connect(transport, { timeout: timeoutMs });
  } catch (err) {
    throw probeCause(err);
  }
}

/**
 * A probe that could not reach the server at all is wrapped by the SDK ("Version negotiation probe
 * failed: fetch failed"); the network error inside says why (ECONNREFUSED, a DNS failure), in the
 * same words as a failure after the probe.
 */
function probeCause(err: unknown): unknown {
  const cause = (err as { cause?: unknown } | undefined)?.cause;
  return err instanceof SdkError && err.code === SdkErrorCode.EraNegotiationFailed && cause instanceof TypeError ? cause : err;
}

/**
 * Why a connect failed when the server refused only the era we offered (the unsupported-version
 * error, -32022, or a missing MCP-Protocol-Version header): the server does speak Streamable HTTP,
 * so falling back to the old SSE transport would be wrong. Undefined for any other failure.
 */
export function eraRefusal(err: unknown): string | undefined {
  const data = (err as { data?: { status?: unknown; text?: unknown } } | undefined)?.data;
  if (typeof data?.status !== 'number' || typeof data.text !== 'string') return undefined;
  const rpc = parseRpcError(data.text);
  if (rpc?.code === -32022) {
    const supported = (rpc.data as { supported?: unknown } | undefined)?.supported;
    const list = Array.isArray(supported) ? supported.filter((v): v is string => typeof v === 'string') : [];
    return list.length
      ? `the server speaks only protocol ${list.join(', ')}, which MinAgent does not (it speaks ${MODERN_PROTOCOL_VERSION} and 2025-11-25 or older)`
      : `the server refused MinAgent's protocol version (HTTP ${data.status}: ${rpc.message})`;
  }
  if (/mcp-protocol-version/i.test(data.text)) return `the server refused MinAgent's protocol version (HTTP ${data.status}: ${data.text.slice(0, 200)})`;
  return undefined;
}

function parseRpcError(text: string): { code: number; message: string; data?: unknown } | undefined {
  try {
    const error = (JSON.parse(text) as { error?: { code?: unknown; message?: unknown; data?: unknown } }).error;
    if (typeof error?.code !== 'number') return undefined;
    return { code: error.code, message: typeof error.message === 'string' ? error.message : '', data: error.data };
  } catch {
    return undefined;
  }
}

/** A server's protocol in words for a tooltip: its revision and the era it belongs to. The version is the server's word, shown as text. */
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
    if (m.id !== undefined && m.method !== undefined && typeof version === 'string' && version >= MODERN_PROTOCOL_VERSION) modernIds.add(m.id);
    return send(message, options);
  };
  const fix = (message: JSONRPCMessage): JSONRPCMessage => {
    const m = message as { id?: string | number; method?: string; result?: unknown };
    if (m.id === undefined || m.method !== undefined || !modernIds.delete(m.id)) return message;
    const result = m.result;
    if (typeof result !== 'object' || result === null || 'resultType' in result) return message;
    return { ...message, result: { ...result, resultType: 'complete' } } as JSONRPCMessage;
  };
  const prior = accessorOf(transport, 'onmessage');
  let wrapped: Transport['onmessage'];
  Object.defineProperty(transport, 'onmessage', {
    configurable: true,
    enumerable: true,
    get: () => (prior ? prior.get!.call(transport) : wrapped) as Transport['onmessage'],
    set: (handler: Transport['onmessage']) => {
      wrapped = handler ? (message, extra) => handler(fix(message), extra) : undefined;
      prior?.set!.call(transport, wrapped);
    },
  });
  return transport;
}

/** The get/set pair of an accessor property (an earlier wrapper's), if `key` is one. */
export function accessorOf(target: object, key: string): PropertyDescriptor | undefined {
  for (let o: object | null = target; o; o = Object.getPrototypeOf(o) as object | null) {
    const d = Object.getOwnPropertyDescriptor(o, key);
    if (d) return d.get && d.set ? d : undefined;
  }
  return undefined;
}
