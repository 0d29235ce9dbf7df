import type { Tool } from '../../toolRegistry/toolRegistry';
import { failed } from '../../toolRegistry/toolResult';
import { isFeatureError, type FeatureError, type ReadResourceResult } from './featureTypes';
import { formatReadResult } from './resources';

export const READ_RESOURCE = 'read_resource';

/**
 * The built-in tool that lets the model read a resource by (server, URI). It exists only while a
 * server offers resources, and is approved like any other tool: it has no read-only hint (a
 * resource can hold anything), and the approval names the server it reads from, so "always allow"
 * holds for that server only.
 */
export function readResourceTool(
  name: string,
  servers: ReadonlyArray<{ server: string; examples: string[] }>,
  read: (server: string, uri: string, signal?: AbortSignal) => Promise<ReadResourceResult | FeatureError>,
  maxChars: () => number,
): Tool {
  const names = servers.map((s) => s.server);
  const listing = servers
    .map((s) => `"${s.server}"${s.examples.length ? ` (e.g. ${s.examples.map((u) => `<${u}>`).join(', ')})` : ''}`)
    .join('; ');
  return {
    name,
    description: `Read a resource of an MCP server by its URI: a resource the server listed, a URI built from one of its resource templates, or a resource link a tool returned. Servers with resources: ${listing}.`,
    parameters: {
      type: 'object',
      properties: {
        server: { type: 'string', enum: names, description: 'The server that has the resource.' },
        uri: { type: 'string', description: 'The resource URI, exactly as the server gave it.' },
      },
      required: ['server', 'uri'],
      additionalProperties: false,
    },
    targetServer: (args) => (typeof args.server === 'string' ? args.server : undefined),
    call: async (args, options) => {
      const { server, uri } = args;
      if (typeof server !== 'string' || !server) return failed(`${name} needs "server", one of: ${names.join(', ')}`);
      if (typeof uri !== 'string' || !uri) return failed(`${name} needs "uri", the resource's URI`);
      if (!names.includes(server))
        return failed(`server "${server}" has no resources; servers with resources: ${names.join(', ') || '(none)'}`);
      const result = await read(server, uri, options?.signal);
      if (isFeatureError(result)) return failed(result.error, options?.signal?.aborted ? 'cancelled' : 'error');
      return formatReadResult(result, maxChars());
    },
  };
}
