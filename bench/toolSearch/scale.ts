// Tool search at scale: 1, 10 and 50 servers x 100 tools (real descriptions and schemas from the
// catalogue, cycled): the tokens a deferred request carries against every schema, and a search's
// time against a substring scan over the same 5,000 tools (names and descriptions), in one run.
import { o200kCounter } from '../../src/core/budget/limits';
import { sum, toolTokens } from '../../src/core/budget/tokens';
import { DEFAULT_DEFERRAL, planTools } from '../../src/core/toolSearch/deferral';
import { SEARCH_LOADS, ToolIndex } from '../../src/core/toolSearch/toolIndex';
import { ToolRegistry, type Tool } from '../../src/core/toolRegistry/toolRegistry';
import { alternate, median, record } from '../results';
import type { Query } from './retrieval';

const PER_SERVER = 100;

/** `servers` x 100 tools made from the real ones: each server gets a run of them, under its own name. */
function synthetic(real: readonly Tool[], servers: number): ToolRegistry {
  const tools: Tool[] = [];
  for (let s = 0; s < servers; s++) {
    for (let t = 0; t < PER_SERVER; t++) {
      const from = real[(s * 37 + t) % real.length]!;
      const name = `s${s}_${from.remoteName ?? from.name}_${t}`;
      tools.push({ ...from, name, remoteName: name, server: `server${s}` });
    }
  }
  const registry = new ToolRegistry();
  registry.replaceAll(tools);
  return registry;
}

/** The baseline scan: tools whose name or description holds a query word, most words first. */
function scan(tools: ReadonlyArray<{ text: string }>, query: string, limit: number): number[] {
  const words = query
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length >= 3);
  const hits: Array<[number, number]> = [];
  for (let i = 0; i < tools.length; i++) {
    let n = 0;
    for (const w of words) if (tools[i]!.text.includes(w)) n++;
    if (n) hits.push([i, n]);
  }
  return hits
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .slice(0, limit)
    .map((h) => h[0]);
}

export async function benchSearchScale(real: readonly Tool[], queries: readonly Query[]): Promise<void> {
  const counter = await o200kCounter();
  for (const servers of [1, 10, 50]) {
    const registry = synthetic(real, servers);
    const schemas = registry.schemas();
    const everything = await sum(schemas, (t) => toolTokens(t, counter));
    // A deferred request after one search: search_tools and the matches it loaded.
    const plan = planTools(schemas, new Set(), [], 128_000, DEFAULT_DEFERRAL, [
      ...new Set(registry.list().map((t) => t.server!)),
    ]);
    const deferred = await sum([...plan.tools, ...schemas.slice(0, SEARCH_LOADS)], (t) => toolTokens(t, counter));
    record(
      'tool search',
      `tokens per request, ${servers} server${servers === 1 ? '' : 's'} x ${PER_SERVER} tools (o200k_base; deferred: search_tools and one search's ${SEARCH_LOADS} matches)`,
      {
        deferredToolsSent: plan.deferred ? 1 + SEARCH_LOADS : schemas.length,
        everythingTokens: everything,
        deferredTokens: plan.deferred ? deferred : everything,
        sharePct: ((plan.deferred ? deferred : everything) / everything) * 100,
      },
    );
  }
  // A search over 5,000 tools against a substring scan of the same tools' names and descriptions.
  const registry = synthetic(real, 50);
  const index = new ToolIndex(registry);
  const t0 = performance.now();
  index.search('warm up');
  const buildMs = performance.now() - t0;
  const texts = registry.list().map((t) => ({ text: `${t.name} ${t.description}`.toLowerCase() }));
  const texts5 = queries.map((q) => q.query);
  const pass = (fn: (q: string) => unknown) => async () => {
    const t = performance.now();
    for (const q of texts5) fn(q);
    return (performance.now() - t) / texts5.length;
  };
  const runs = await alternate(
    15,
    pass((q) => scan(texts, q, SEARCH_LOADS)),
    pass((q) => index.search(q, { limit: SEARCH_LOADS })),
  );
  record('tool search', `one search over 5,000 tools (median of 15 passes over ${texts5.length} queries)`, {
    scanMs: median(runs.baseline),
    searchMs: median(runs.subject),
    ratio: median(runs.subject) / median(runs.baseline),
    indexBuildMs: buildMs,
  });
  index.dispose();
}
