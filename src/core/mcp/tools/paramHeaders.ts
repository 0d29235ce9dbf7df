import type { Tool as RemoteTool } from '@modelcontextprotocol/client';

/**
 * SEP-2243 (2026-07-28, Streamable HTTP): a tool may name input properties to be mirrored into `Mcp-Param-<Name>`
 * headers with `x-mcp-header`. A declaration is valid only on a property reached from the schema's root through
 * `properties` alone, typed string, integer or boolean, named by a non-empty RFC 9110 token unique whatever its
 * case; anywhere else (under items, a combinator, a conditional, definitions) it makes the whole tool invalid, and a
 * client MUST leave such a tool out. The SDK mirrors a valid tool's parameters when it is handed the tool
 * (`toolDefinition`); this decides which tools are kept.
 */

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const TYPES = new Set(['string', 'integer', 'boolean']);
/** Where a declaration is not statically reachable: any subschema that is not a `properties` value. */
const ELSEWHERE = [
  'items',
  'prefixItems',
  'contains',
  'additionalProperties',
  'unevaluatedProperties',
  'unevaluatedItems',
  'propertyNames',
  'patternProperties',
  'dependentSchemas',
  'oneOf',
  'anyOf',
  'allOf',
  'not',
  'if',
  'then',
  'else',
  '$defs',
  'definitions',
];

/** Why a tool's `x-mcp-header` declarations are invalid, or undefined when they are valid (or there are none). */
export function paramHeaderProblem(inputSchema: unknown): string | undefined {
  const seen = new Map<string, string>();
  const visit = (node: unknown, path: string[], reachable: boolean, depth: number): string | undefined => {
    if (node === null || typeof node !== 'object' || depth > 64) return undefined;
    const schema = node as Record<string, unknown>;
    const where = path.length ? `property ${JSON.stringify(path.join('.'))}` : 'the schema itself';
    if ('x-mcp-header' in schema) {
      const name = schema['x-mcp-header'];
      if (!reachable || !path.length) return `x-mcp-header on ${where}: only a property reached through "properties"`;
      if (typeof name !== 'string' || !TOKEN.test(name))
        return `x-mcp-header on ${where}: ${JSON.stringify(name)} is not a header name (an RFC 9110 token)`;
      if (typeof schema.type !== 'string' || !TYPES.has(schema.type))
        return `x-mcp-header on ${where}: its type is ${JSON.stringify(schema.type ?? null)}, not string, integer or boolean`;
      const before = seen.get(name.toLowerCase());
      if (before !== undefined) return `x-mcp-header "${name}" is declared twice (also as "${before}")`;
      seen.set(name.toLowerCase(), name);
    }
    const properties = schema.properties;
    if (properties && typeof properties === 'object')
      for (const [key, child] of Object.entries(properties)) {
        const problem = visit(child, [...path, key], reachable, depth + 1);
        if (problem) return problem;
      }
    for (const keyword of ELSEWHERE) {
      const sub = schema[keyword];
      if (sub === undefined) continue;
      const branches = Array.isArray(sub)
        ? sub
        : ['$defs', 'definitions', 'patternProperties', 'dependentSchemas'].includes(keyword) &&
            sub !== null &&
            typeof sub === 'object'
          ? Object.values(sub)
          : [sub];
      for (const branch of branches) {
        const problem = visit(branch, [...path, `<${keyword}>`], false, depth + 1);
        if (problem) return problem;
      }
    }
    return undefined;
  };
  return visit(inputSchema, [], true, 0);
}

/** The tools to keep and, for each left out, why (a 2026-07-28 Streamable HTTP connection must leave them out). */
export function withValidParamHeaders(tools: RemoteTool[]): {
  kept: RemoteTool[];
  left: Array<{ tool: string; why: string }>;
} {
  const kept: RemoteTool[] = [];
  const left: Array<{ tool: string; why: string }> = [];
  for (const tool of tools) {
    const why = paramHeaderProblem(tool.inputSchema);
    if (why) left.push({ tool: tool.name, why });
    else kept.push(tool);
  }
  return { kept, left };
}
