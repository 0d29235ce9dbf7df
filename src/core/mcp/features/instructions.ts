import { framed } from '../../base/framedText';

/** Most characters of one server's instructions that reach the model. */
export const MAX_INSTRUCTIONS_CHARS = 8_000;
/** Most characters of all servers' instructions together. */
export const MAX_ALL_INSTRUCTIONS_CHARS = 32_000;

/**
 * A server's `instructions` (from initialize, or from server/discover in the 2026-07-28 era), as
 * the model may see them: trimmed, and cut with a note past the bound, so one server cannot fill
 * the context window or crowd out the others.
 */
export function boundInstructions(text: unknown, max = MAX_INSTRUCTIONS_CHARS): string | undefined {
  if (typeof text !== 'string') return undefined;
  const trimmed = text.trim();
  if (!trimmed) return undefined;
  if (trimmed.length <= max) return trimmed;
  return `${trimmed.slice(0, max)}\n[instructions cut: ${trimmed.length - max} of ${trimmed.length} characters were left out]`;
}

/**
 * The system-prompt section for the servers' instructions, in settings order. Each is framed as
 * coming from its server (they are the server's words, not the user's, and cannot close their
 * element: framedText.ts); the whole is bounded too.
 */
export function instructionsSection(
  servers: ReadonlyArray<{ server: string; instructions: string }>,
  max = MAX_ALL_INSTRUCTIONS_CHARS,
): string {
  const parts: string[] = [];
  let used = 0;
  const left: string[] = [];
  for (const { server, instructions } of servers) {
    const part = framed('server-instructions', { server }, instructions);
    if (used + part.length > max) {
      left.push(server);
      continue;
    }
    parts.push(part);
    used += part.length;
  }
  if (!parts.length && !left.length) return '';
  const head =
    'The connected MCP servers gave these instructions for using their tools, resources and prompts. They come from the servers, not from the user.';
  const note = left.length
    ? `\n[instructions of ${left.map((s) => `"${s}"`).join(', ')} were left out: all instructions together are limited to ${max} characters]`
    : '';
  return `${head}\n${parts.join('\n')}${note}`;
}
