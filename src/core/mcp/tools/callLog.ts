import type { ToolResult } from '../../toolRegistry/toolResult';
import type { Logger } from '../../base/logger';

/**
 * Runs one tool call and logs it: the tool and its arguments (cut), then how it ended and how long it
 * took. A failure is a warning; a cancel is not. The result's text is not logged, only its length.
 */
export async function loggedCall(
  log: Logger,
  tool: string,
  args: Record<string, unknown>,
  run: () => Promise<ToolResult>,
): Promise<ToolResult> {
  const started = Date.now();
  log.info(`tool call "${tool}" ${preview(JSON.stringify(args) ?? '{}')}`);
  const result = await run();
  const ms = Date.now() - started;
  if (result.status === 'ok') log.info(`tool "${tool}" answered in ${ms} ms (${result.text.length} chars)`);
  else if (result.status === 'cancelled') log.info(`tool "${tool}" ${result.error ?? result.text} (after ${ms} ms)`);
  else log.warn(`tool "${tool}" failed after ${ms} ms: ${result.error ?? result.text}`);
  return result;
}

/** Arguments in a log line: enough to recognise the call, never a whole document. */
function preview(text: string): string {
  return text.length > 300 ? `${text.slice(0, 300)}… (${text.length} chars)` : text;
}
