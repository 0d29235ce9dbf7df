/** The message of a tool's `{"error": ...}` result, to show as a line of text rather than as JSON. */
export function resultError(result: string): string | undefined {
  if (!result.startsWith('{"error"')) return undefined;
  try {
    const v = JSON.parse(result) as Record<string, unknown>;
    return typeof v.error === 'string' && Object.keys(v).length === 1 ? v.error : undefined;
  } catch {
    return undefined;
  }
}
