import { AjvJsonSchemaValidator } from '@modelcontextprotocol/client/validators/ajv';
import type { JsonSchema } from './toolRegistry';

let validator: AjvJsonSchemaValidator | undefined;

/** Checks tool arguments against the tool's input schema; returns the problem in words, or undefined. */
export function checkArguments(schema: JsonSchema, args: unknown): string | undefined {
  validator ??= new AjvJsonSchemaValidator();
  try {
    const result = validator.getValidator(schema as never)(args);
    return result.valid ? undefined : result.errorMessage;
  } catch {
    // A schema the validator cannot compile is the server's problem; let the server judge the call.
    return undefined;
  }
}

/** Example arguments from a schema: every required property with its default or an empty value of its type. */
export function exampleArguments(schema: JsonSchema): Record<string, unknown> {
  const properties = (schema.properties ?? {}) as Record<
    string,
    { type?: unknown; default?: unknown; enum?: unknown[] }
  >;
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  const out: Record<string, unknown> = {};
  for (const name of required) {
    const p = properties[name] ?? {};
    if (p.default !== undefined) out[name] = p.default;
    else if (Array.isArray(p.enum) && p.enum.length) out[name] = p.enum[0];
    else out[name] = emptyOf(Array.isArray(p.type) ? p.type[0] : p.type);
  }
  return out;
}

function emptyOf(type: unknown): unknown {
  switch (type) {
    case 'number':
    case 'integer':
      return 0;
    case 'boolean':
      return false;
    case 'array':
      return [];
    case 'object':
      return {};
    case 'null':
      return null;
    default:
      return '';
  }
}
