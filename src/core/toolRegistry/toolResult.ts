/**
 * What a tool call comes back as: the text the model reads, and how the call ended. The text of a
 * failure is `{"error": ...}` (the contract the model relies on), but nothing reads the status back
 * from the text: a server whose real output is `{"error":"x"}` succeeded, and says so everywhere.
 */

/**
 * How a call ended: it answered; it failed (the server said so, or it could not be reached); it was stopped; the user
 * said no; it ran out of time.
 */
export type ToolStatus = 'ok' | 'error' | 'cancelled' | 'denied' | 'timeout';

export interface ToolResult {
  /** What the model receives. */
  readonly text: string;
  readonly status: ToolStatus;
  /** A failure's message (its text is `{"error": message}`). */
  readonly error?: string;
}

/** The JSON error text every failed call resolves to. */
export function toolError(message: string): string {
  return JSON.stringify({ error: message });
}

/** A call that answered with `text`, whatever `text` says. */
export function succeeded(text: string): ToolResult {
  return { text, status: 'ok' };
}

/** A call that did not answer: `{"error": message}` for the model, and why. */
export function failed(message: string, status: Exclude<ToolStatus, 'ok'> = 'error'): ToolResult {
  return { text: toolError(message), status, error: message };
}

/**
 * A tool's own answer: a string is an answer (a tool that fails says so with `failed`); a result
 * stays as it is; anything else a tool resolved to is its JSON.
 */
export function asResult(value: unknown): ToolResult {
  if (typeof value === 'string') return succeeded(value);
  if (isToolResult(value)) return value;
  return succeeded(JSON.stringify(value ?? null));
}

function isToolResult(value: unknown): value is ToolResult {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as ToolResult).text === 'string' &&
    typeof (value as ToolResult).status === 'string'
  );
}

/** True unless the call answered. */
export function isFailure(result: ToolResult): boolean {
  return result.status !== 'ok';
}
