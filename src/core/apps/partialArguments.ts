import { parse } from 'partial-json';

/**
 * A tool call's arguments while the model still writes them (`ui/notifications/tool-input-partial`): the JSON so far,
 * read as far as it goes (an open string or object is closed where it stops). Anything that is not an object so far
 * (nothing yet, malformed text) is an empty object: an app is never told more than the model wrote.
 */
export function partialArguments(text: string): Record<string, unknown> {
  if (!text.trim()) return {};
  try {
    const value: unknown = parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}
