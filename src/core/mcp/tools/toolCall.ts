import type { CallToolResult, Client, Tool as RemoteTool } from '@modelcontextprotocol/client';
import type { ToolCallOptions } from '../../toolRegistry/toolRegistry';
import { progressPace } from './progressPace';
import { asToolResult, reportResource } from './result';
import type { ToolResult } from '../../toolRegistry/toolResult';

/** How often a call's progress reaches the views at most (four times a second). */
const PROGRESS_EVERY_MS = 250;

/**
 * Sends one `tools/call`: the timeout restarts on each progress report, which reaches `onProgress`;
 * the caller's signal cancels it (the server gets `notifications/cancelled`). Rejects on failure.
 */
export async function sendToolCall(
  client: Client,
  remoteName: string,
  args: Record<string, unknown>,
  options: ToolCallOptions,
  timeoutMs: number,
  /** The tool as listed: the SDK mirrors its declared parameters into `Mcp-Param-*` headers (SEP-2243). */
  definition?: RemoteTool,
): Promise<CallToolResult> {
  const paced = options.onProgress && progressPace(options.onProgress, PROGRESS_EVERY_MS);
  try {
    const result = await client.callTool(
      { name: remoteName, arguments: args },
      {
        timeout: timeoutMs,
        // Every report restarts the timeout (the SDK sees them all); the views see them paced.
        resetTimeoutOnProgress: true,
        onprogress: (p) =>
          paced?.report({
            progress: p.progress,
            ...(p.total !== undefined ? { total: p.total } : {}),
            ...(p.message !== undefined ? { message: progressText(p.message) } : {}),
          }),
        ...(options.signal ? { signal: options.signal } : {}),
        ...(definition ? { toolDefinition: definition } : {}),
      },
    );
    return result as CallToolResult;
  } finally {
    paced?.stop();
  }
}

/**
 * A progress message in the user's words: the SDK reports each round of a 2026-07-28 server's
 * input requests as "Fulfilling input required by 'tools/call' (round 1)", its own internals.
 */
export function progressText(message: string): string {
  const round = /^Fulfilling input required by '[^']*' \(round (\d+)\)$/.exec(message)?.[1];
  if (round === undefined) return message;
  return round === '1' ? 'the server asked for your input' : `the server asked for your input (${round} times)`;
}

/**
 * A call's result as the registry returns it: images and resources go to their callbacks, the rest becomes the string
 * (cut at `maxChars`).
 */
export function presentResult(
  result: CallToolResult,
  options: ToolCallOptions,
  maxChars: number,
  server: string,
): ToolResult {
  options.onResult?.(result as Record<string, unknown>);
  if (options.onImage && !result.isError) {
    for (const block of result.content ?? [])
      if (block.type === 'image') options.onImage({ mimeType: block.mimeType, data: block.data });
  }
  if (options.onResource && !result.isError)
    for (const block of result.content ?? []) reportResource(block, server, options.onResource);
  return asToolResult(result, maxChars, server);
}
