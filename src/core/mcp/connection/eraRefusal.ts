import { ProtocolError } from '@modelcontextprotocol/client';
import { errorMessage } from '../../toolRegistry/toolRegistry';
import { MODERN_PROTOCOL_VERSION } from './eraMemory';

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
  if (/mcp-protocol-version/i.test(data.text))
    return `the server refused MinAgent's protocol version (HTTP ${data.status}: ${data.text.slice(0, 200)})`;
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

/**
 * A server remembered as a 2025 one refused the 2025 handshake in a way only a server of a later era would: it is
 * forgotten, and the caller connects once more with the probe, on a new transport.
 */
export class StaleEraVerdict extends Error {
  constructor(override readonly cause: unknown) {
    super(`the 2025 handshake was refused (${errorMessage(cause)}); the server is probed again`);
  }
}

/** An answer to initialize that says the server speaks another era: a JSON-RPC error, a 4xx, a newer version. */
export function refusesLegacy(err: unknown): boolean {
  if (err instanceof ProtocolError || eraRefusal(err) !== undefined) return true;
  const status = (err as { data?: { status?: unknown } } | undefined)?.data?.status;
  if (typeof status === 'number' && status >= 400 && status < 500 && status !== 401 && status !== 403) return true;
  return err instanceof Error && /^Server's protocol version is not supported: /.test(err.message);
}
