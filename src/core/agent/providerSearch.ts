import { SEARCH_TOOL } from '../toolSearch/deferral';
import { firstLine } from '../toolSearch/toolIndex';
import type { ToolRegistry } from '../toolRegistry/toolRegistry';
import type { ProviderSearch } from '../agentTypes/messages';

/**
 * A search the provider ran itself (Anthropic's tool search) as the step of a search_tools call, so
 * the user sees it as a card like the client's own search: what it searched for and what it loaded.
 */
export function searchStep(registry: ToolRegistry, search: ProviderSearch, callId: string) {
  const loaded = search.found.map((wire) => {
    const tool = registry.get(registry.resolve(wire) ?? wire);
    return {
      name: wire,
      ...(tool?.server !== undefined ? { server: tool.server } : {}),
      description: firstLine(tool?.description ?? ''),
    };
  });
  const result = JSON.stringify({ loaded, note: "Searched by the model's provider (its own tool search)." });
  return {
    callId,
    images: [],
    name: SEARCH_TOOL,
    wireName: SEARCH_TOOL,
    arguments: { query: search.query } as unknown,
    result,
    isError: false,
    status: 'ok' as const,
    durationMs: 0,
  };
}
