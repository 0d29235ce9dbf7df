import { ProtocolError, ProtocolErrorCode, type Client } from '@modelcontextprotocol/client';
import type { Logger } from '../../base/logger';
import { FormSchemaError, parseFormSchema } from './formSchema';

type Handler = (request: { params?: Record<string, unknown> }, ctx: unknown) => Promise<unknown>;

/**
 * The SDK checks an elicitation request against the spec's schema before our handler runs, and a
 * form outside the restricted schema (a nested object, an unknown type) fails there with a long
 * validation dump that names neither the server nor, readably, the field. This puts our own check
 * in front of the SDK's (for both eras: the multi-round-trip driver reads the same handler map),
 * so such a form gets the same clear error as any other bad form. Relies on the SDK 2.4.0
 * Protocol's handler map; without it (a future SDK) the SDK's own check still refuses the form.
 */
export function checkFormsFirst(client: Client, server: string, log: Logger): void {
  const handlers = (client as unknown as { _requestHandlers?: Map<string, Handler> })._requestHandlers;
  const sdkHandler = handlers?.get('elicitation/create');
  if (!handlers || !sdkHandler) return;
  handlers.set('elicitation/create', (request, ctx) => {
    const params = request.params;
    if (params && params.mode !== 'url') {
      try {
        parseFormSchema(server, params.requestedSchema);
      } catch (err) {
        if (!(err instanceof FormSchemaError)) throw err;
        log.warn(err.message);
        return Promise.reject(new ProtocolError(ProtocolErrorCode.InvalidParams, err.message));
      }
    }
    return sdkHandler(request, ctx);
  });
}
