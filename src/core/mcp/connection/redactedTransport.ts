import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import type { Redactor } from '../../base/redact';
import { mapIncoming } from './era';

/**
 * The one place a server's words enter MinAgent: every message the server sends (results, errors,
 * notifications and its own requests, in either era) has its secrets replaced before the SDK parses it,
 * so tool results, resources, prompts, completions, lists and descriptions, instructions, progress
 * and elicitation or sampling requests all arrive redacted, and a feature added later cannot forget to
 * redact. Only `params`, `result` and `error` are touched (never `id` or `method`). The redactor is read
 * per message, so a secret it learns later (an OAuth token) counts from then on. The transport's
 * `onmessage` is wrapped in place by mapIncoming, so its class and its other members keep working.
 */
export function redactedTransport(transport: Transport, redactor: Redactor): Transport {
  const redact = (message: JSONRPCMessage): JSONRPCMessage => {
    if (redactor.empty) return message;
    const m = message as { params?: unknown; result?: unknown; error?: unknown };
    if (m.params !== undefined) m.params = redactor.redactJson(m.params);
    if (m.result !== undefined) m.result = redactor.redactJson(m.result);
    if (m.error !== undefined) m.error = redactor.redactJson(m.error);
    return message;
  };
  return mapIncoming(transport, redact);
}
