import { parse, printParseErrorCode, type ParseError } from 'jsonc-parser';

/**
 * A JSONC file's text (a settings file, an MCP file) as an object. Throws one clear line, naming `path` and the
 * line and column, for bad JSONC or a value that is not an object.
 */
export function parseSettingsText(text: string, path: string): Record<string, unknown> {
  const errors: ParseError[] = [];
  const value: unknown = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length) {
    const e = errors[0]!;
    const { line, column } = position(text, e.offset);
    throw new Error(`${path}:${line}:${column}: invalid JSONC (${printParseErrorCode(e.error)})`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new Error(`${path}: settings must be a JSON object`);
  return value as Record<string, unknown>;
}

function position(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset).split('\n');
  return { line: before.length, column: before[before.length - 1]!.length + 1 };
}
