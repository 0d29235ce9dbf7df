import type { ChatMessage, ToolCall } from '../agentTypes/messages';
import type { ToolRegistry } from '../toolRegistry/toolRegistry';
import { SEARCH_TOOL } from '../toolSearch/deferral';

/**
 * The servers whose results the model has read in this conversation (earlier turns included):
 * the server of every tool result in `messages`, by the tool's registry entry (a built-in that
 * routes by its arguments, read_resource, by the server it reached). MinAgent's own search_tools
 * is no server's: it only reads the registry. A result whose tool is no longer listed counts as an
 * unknown source, named by the tool (unlistedSource).
 */
export function resultSources(messages: readonly ChatMessage[], registry: ToolRegistry): string[] {
  const calls = new Map<string, ToolCall>();
  for (const m of messages) if (m.role === 'assistant') for (const c of m.toolCalls ?? []) calls.set(c.id, c);
  const sources = new Set<string>();
  for (const m of messages) {
    if (m.role !== 'tool') continue;
    const name = registry.resolve(m.name);
    const tool = name === undefined ? undefined : registry.get(name);
    if (!tool) {
      if (m.name !== SEARCH_TOOL) sources.add(unlistedSource(m.name));
      continue;
    }
    if (tool.server !== undefined) {
      sources.add(tool.server);
      continue;
    }
    const args = argumentsOf(calls.get(m.toolCallId));
    const target = args && tool.targetServer?.(args);
    if (target !== undefined) sources.add(target);
  }
  return [...sources];
}

function argumentsOf(call: ToolCall | undefined): Record<string, unknown> | undefined {
  let args: unknown = call?.arguments;
  if (typeof args === 'string') {
    try {
      args = JSON.parse(args);
    } catch {
      return undefined;
    }
  }
  return args && typeof args === 'object' && !Array.isArray(args) ? (args as Record<string, unknown>) : undefined;
}

const UNLISTED = /^the tool ".*" \(no longer listed\)$/s;

/** The source of a result whose tool the registry no longer lists, as the approval names it. */
export function unlistedSource(tool: string): string {
  return `the tool ${JSON.stringify(tool)} (no longer listed)`;
}

/** Whether a source from resultSources is a tool no longer listed rather than a server's name. */
export function isUnlistedSource(source: string): boolean {
  return UNLISTED.test(source);
}
