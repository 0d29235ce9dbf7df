import type { JSONRPCMessage, Transport, TransportSendOptions } from '@modelcontextprotocol/client';
import { layerIncoming } from '../../base/accessors';

/** What a call whose response stream was cut reads (the model, the user): at once, not after the call's timeout. */
export const CUT_STREAM_MESSAGE =
  "the connection dropped during the call: the server's response stream ended before its answer (the call may have run on the server)";

/** The JSON-RPC error code the cut call's answer carries (implementation-defined server error range). */
const CUT_STREAM_CODE = -32000;

/**
 * A request whose HTTP response stream ends without its answer, where the transport cannot resume it (no event id to
 * resume from, or its retries ran out), fails at once with CUT_STREAM_MESSAGE. The SDK tells a stream's end only to
 * a request that asked (`onRequestStreamEnd`, which its own listen uses); any other request would wait out its whole
 * timeout for an answer that cannot come. Requests that asked keep their own handler.
 */
export function endCutRequests(transport: Transport): Transport {
  const waiting = new Set<string | number>();
  // The handler above this layer: a cut call's answer is handed there, so the trace below never shows it as the
  // server's.
  let above: Transport['onmessage'];
  layerIncoming(transport, (handler) => {
    above = handler;
    return (message, extra) => {
      if ('id' in message && !('method' in message) && message.id !== undefined && message.id !== null)
        waiting.delete(message.id);
      handler(message, extra);
    };
  });
  const send = transport.send.bind(transport);
  transport.send = (message: JSONRPCMessage, options?: TransportSendOptions) => {
    if (!('method' in message) || !('id' in message) || options?.onRequestStreamEnd) return send(message, options);
    const id = message.id;
    waiting.add(id);
    return send(message, {
      ...options,
      onRequestStreamEnd: () => {
        if (!waiting.delete(id)) return;
        above?.({ jsonrpc: '2.0', id, error: { code: CUT_STREAM_CODE, message: CUT_STREAM_MESSAGE } });
      },
    }).catch((err: unknown) => {
      waiting.delete(id);
      throw err;
    });
  };
  return transport;
}
