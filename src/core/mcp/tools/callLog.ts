import type { Logger } from '../../logger';

/**
 * Runs one tool call and logs it: the tool and its arguments (cut), then how it ended and how long it
 * took. A failure is a warning; a cancel is not. The result's text is not logged, only its length.
 */
export async function loggedCall(log: Logger, tool: string, args: Record<string, unknown>, run: () => Promise<string>): Promise<string> {
  const started = Date.now();
  log.info(`tool call "${tool}" ${preview(JSON.stringify(args) ?? '{}')}`);
  const result = await run();
  const ms = Date.now() - started;
  const error = errorOf(result);
  if (error === undefined) log.info(`tool "${tool}" answered in ${ms} ms (${result.length} chars)`);
  else if (error.startsWith('cancelled')) log.info(`tool "${tool}" ${error} (after ${ms} ms)`);
  else log.warn(`tool "${tool}" failed after ${ms} ms: ${error}`);
  return result;
}

/** Arguments in a log line: enough to recognise the call, never a whole document. */
function preview(text: string): string {
  return text.length > 300 ? `${text.slice(0, 300)}… (${text.length} chars)` : text;
}

/** The message of an `{"error": ...}` result; undefined for any other result. */
function errorOf(result: string): string | undefined {
  if (!result.startsWith('{"error"')) return undefined;
  try {
    const v = JSON.parse(result) as { error?: unknown };
    return typeof v.error === 'string' ? v.error : undefined;
  } catch {
    return undefined;
  }
}
