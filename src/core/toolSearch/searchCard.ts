import { SEARCH_TOOL, type SearchResult } from './deferral';

/**
 * What a search_tools card shows instead of its JSON: one line per tool it loaded, by the name the
 * user knows (the registry's, `analytics.echo`, not the wire's `analytics__echo`) and its server,
 * then what it unloaded. Undefined for any other card, or a result that is not the search's own.
 */
export function searchCardLines(
  tool: { wireName: string; result: string; status: string },
  nameOf: (wire: string) => string | undefined,
): string[] | undefined {
  if (tool.wireName !== SEARCH_TOOL || tool.status !== 'ok') return undefined;
  let parsed: SearchResult;
  try {
    parsed = JSON.parse(tool.result) as SearchResult;
  } catch {
    return undefined;
  }
  if (!parsed || !Array.isArray(parsed.loaded)) return undefined;
  const shown = (wire: unknown) => (typeof wire === 'string' ? (nameOf(wire) ?? wire) : '?');
  const lines = parsed.loaded
    .slice(0, 20)
    .map(
      (t) =>
        `${shown(t.name)}${typeof t.server === 'string' ? ` (${t.server})` : ''}${typeof t.description === 'string' && t.description ? ` — ${t.description}` : ''}`,
    );
  if (!lines.length) lines.push(typeof parsed.note === 'string' ? parsed.note : 'No tool matched.');
  if (Array.isArray(parsed.unloaded) && parsed.unloaded.length)
    lines.push(`Unloaded to make room: ${parsed.unloaded.slice(0, 20).map(shown).join(', ')}`);
  return lines;
}
