import MiniSearch from 'minisearch';
import type { Disposable } from '../base/event';
import { forModel, type Tool, type ToolRegistry } from '../toolRegistry/toolRegistry';
import { expansions } from './synonyms';
import { normalizeTerm, tokenize } from './terms';

/** One ranked match: the tool under its registry and wire names, its server, its description's first line. */
export interface ToolHit {
  name: string;
  wireName: string;
  server?: string;
  description: string;
  score: number;
}

export interface ToolSearchOptions {
  /** Only this server's tools. */
  server?: string;
  /** Most hits returned (default 10). */
  limit?: number;
  /** Tools that may be found (e.g. those switched on); all the model may see otherwise. */
  filter?: (tool: Tool) => boolean;
}

interface ToolDoc {
  id: string;
  name: string;
  title: string;
  description: string;
  params: string;
  server: string;
}

/** How much each part of a tool counts: its name most, then its title, its description, its parameters, its server. */
const BOOST = { name: 3, title: 2, description: 1, params: 0.6, server: 1.5 };
/**
 * The most a server's instructions add to one of its tools' score, as a share of it: reached when every
 * word the tool matches is also a word of the instructions.
 */
const INSTRUCTIONS = 0.3;
/** How much more a tool of a server the query names weighs. */
const NAMED_SERVER = 2.5;
/** How many matches one search loads (search_tools' result): the first places of a ranking. */
export const SEARCH_LOADS = 5;
/** The most of those places one server takes while another server's tool matches, unless the query names it. */
export const SERVER_PLACES = 3;
/** The longest description indexed per tool (a server that writes a book per tool gets no more weight for it). */
const MAX_DESCRIPTION = 4_000;

/**
 * A full-text index (BM25, MiniSearch) over the registry's tools: name, title, description,
 * parameter names and descriptions, and the server's name; the server's instructions weigh what its
 * tools match (INSTRUCTIONS). It follows the registry:
 * after a change only the servers whose tools changed are indexed again, at the next search.
 */
export class ToolIndex implements Disposable {
  private readonly index = new MiniSearch<ToolDoc>({
    idField: 'id',
    fields: ['name', 'title', 'description', 'params', 'server'],
    tokenize,
    processTerm: normalizeTerm,
    // Prefixes for longer words ("deploy" finds deployment); no fuzzy matching: it cost a third of a search's time for
    // one query in 122.
    searchOptions: { boost: BOOST, prefix: (term) => term.length >= 4, combineWith: 'OR' },
  });
  /** Per server: what its tools looked like when indexed, and their document ids. */
  private readonly indexed = new Map<string, { fingerprint: string; ids: string[] }>();
  private stale = true;
  private readonly listener: Disposable;
  /** Registry names by every lower-case name a tool goes by (registry, wire, server's own), and by server. */
  private lookup = { names: new Map<string, string[]>(), servers: new Map<string, string[]>() };
  /** Per server, the words (as indexed) of its instructions. */
  private instructions = new Map<string, ReadonlySet<string>>();

  constructor(
    private readonly registry: ToolRegistry,
    /** A server's own words about itself (its instructions): they weigh its tools' matches (see INSTRUCTIONS). */
    private readonly serverText: (server: string) => string | undefined = () => undefined,
  ) {
    this.listener = registry.onDidChange(() => (this.stale = true));
  }

  /**
   * Ranked matches for `query`; a query that is exactly a tool's name, or a server's, ranks that first.
   * No server holds more than SERVER_PLACES of the first SEARCH_LOADS places unless the query names it.
   */
  search(query: string, options: ToolSearchOptions = {}): ToolHit[] {
    this.refresh();
    const limit = options.limit ?? 10;
    const filter = options.filter ?? (() => true);
    const usable = (tool: Tool | undefined): tool is Tool =>
      !!tool && forModel(tool) && (options.server === undefined || tool.server === options.server) && filter(tool);
    const q = query.trim().toLowerCase();
    const typed = tokenize(query).map((w) => w.toLowerCase());
    const inQuery = (server: string | undefined) => server !== undefined && typed.includes(server.toLowerCase());
    // The query as typed, and the tool words its words stand for (see synonyms.ts). Weighed alike:
    // on the benchmark's tuning queries a lower weight for the added words found fewer tools.
    const added = [...new Set(typed.flatMap((w) => [...(expansions(w) ?? [])]))].filter((w) => !typed.includes(w));
    const scored = new Map<string, number>();
    let top = 0;
    for (const r of this.index.search([query, ...added].join(' '))) {
      const tool = this.registry.get(r.id as string);
      if (!usable(tool)) continue;
      // A server named among the words ("on GitLab"): its matching tools weigh more (a server
      // named like a common word must not drown the rest).
      let score = inQuery(tool.server) ? r.score * NAMED_SERVER : r.score;
      // The server's instructions weigh a tool only for the words the tool itself matches, and at most
      // by a share: long instructions neither give a tool a word it lacks nor lift every tool of the server.
      const words = this.instructions.get(tool.server ?? '');
      if (words)
        score *=
          1 + (INSTRUCTIONS * r.queryTerms.filter((t) => words.has(t)).length) / Math.max(1, r.queryTerms.length);
      scored.set(tool.name, score);
      top = Math.max(top, score);
    }
    // Named exactly: the tool, by any of its names (the whole query, or a word of it that is a name of
    // several parts), first; then every tool of the server the whole query names.
    top += 1;
    for (const word of new Set([q, ...q.split(/\s+/).filter(isCompoundName)])) {
      for (const name of this.lookup.names.get(word) ?? [])
        if (usable(this.registry.get(name))) scored.set(name, top * 2 + (scored.get(name) ?? 0));
    }
    for (const name of this.lookup.servers.get(q) ?? [])
      if (usable(this.registry.get(name)) && (scored.get(name) ?? 0) < top * 2)
        scored.set(name, top + (scored.get(name) ?? 0));
    const ranked = [...scored.keys()].sort((a, b) => scored.get(b)! - scored.get(a)! || a.localeCompare(b));
    const named = (server: string) => options.server !== undefined || q === server.toLowerCase() || inQuery(server);
    return shared(ranked, (name) => this.registry.get(name)!.server, named)
      .slice(0, limit)
      .map((name) => {
        const score = scored.get(name)!;
        const tool = this.registry.get(name)!;
        return {
          name,
          wireName: this.registry.wireName(name) ?? name,
          ...(tool.server !== undefined ? { server: tool.server } : {}),
          description: firstLine(tool.description),
          score: Math.round(score * 1000) / 1000,
        };
      });
  }

  /** Indexes again the servers whose tools changed since the last search. */
  private refresh(): void {
    if (!this.stale) return;
    this.stale = false;
    const byServer = new Map<string, Tool[]>();
    const lookup = { names: new Map<string, string[]>(), servers: new Map<string, string[]>() };
    const add = <T>(map: Map<string, T[]>, key: string, item: T) => {
      const list = map.get(key);
      if (list) list.push(item);
      else map.set(key, [item]);
    };
    for (const tool of this.registry.list()) {
      if (!forModel(tool)) continue;
      const key = tool.server ?? '';
      add(byServer, key, tool);
      for (const n of new Set([tool.name, this.registry.wireName(tool.name), tool.remoteName]))
        if (n) add(lookup.names, n.toLowerCase(), tool.name);
      if (tool.server !== undefined) add(lookup.servers, tool.server.toLowerCase(), tool.name);
    }
    this.lookup = lookup;
    this.instructions = new Map(
      [...byServer.keys()].flatMap((server) => {
        const text = server ? this.serverText(server) : undefined;
        return text ? [[server, terms(text.slice(0, MAX_DESCRIPTION))] as const] : [];
      }),
    );
    // Every changed server's old documents go before any new one comes: a registry name can pass
    // from one server to another (settings reordered), and an id is indexed once.
    const changed: Array<{ server: string; docs: ToolDoc[]; fingerprint: string }> = [];
    for (const [server, seen] of this.indexed) {
      if (byServer.has(server)) continue;
      for (const id of seen.ids) this.index.discard(id);
      this.indexed.delete(server);
    }
    for (const [server, tools] of byServer) {
      const docs = tools.map((t) => toDoc(t, server));
      const fingerprint = JSON.stringify(docs);
      const before = this.indexed.get(server);
      if (before?.fingerprint === fingerprint) continue;
      for (const id of before?.ids ?? []) this.index.discard(id);
      changed.push({ server, docs, fingerprint });
    }
    for (const { server, docs, fingerprint } of changed) {
      this.index.addAll(docs);
      this.indexed.set(server, { fingerprint, ids: docs.map((d) => d.id) });
    }
  }

  dispose(): void {
    this.listener.dispose();
  }
}

/**
 * The ranking with no server in more than SERVER_PLACES of its first SEARCH_LOADS places, unless
 * `named`: a tool past its server's share waits below those places, and takes one only when no other
 * server's tool is left for it. A server with many tools about a query's words (or written to match
 * every query) leaves room for the other servers' best.
 */
function shared(
  ranked: readonly string[],
  serverOf: (name: string) => string | undefined,
  named: (server: string) => boolean,
): string[] {
  const first: string[] = [];
  const waiting: string[] = [];
  const taken = new Map<string, number>();
  let i = 0;
  for (; i < ranked.length && first.length < SEARCH_LOADS; i++) {
    const name = ranked[i]!;
    const server = serverOf(name);
    if (server !== undefined && !named(server)) {
      const n = taken.get(server) ?? 0;
      if (n >= SERVER_PLACES) {
        waiting.push(name);
        continue;
      }
      taken.set(server, n + 1);
    }
    first.push(name);
  }
  // Past the places (or with none left for the others) the waiting come first: they ranked above the rest.
  return [...first, ...waiting, ...ranked.slice(i)];
}

function toDoc(tool: Tool, server: string): ToolDoc {
  return {
    // The registry name: unique, and what a hit is looked up by.
    id: tool.name,
    name: [tool.name, tool.remoteName ?? ''].join(' '),
    title: tool.title ?? tool.annotations?.title ?? '',
    description: tool.description.slice(0, MAX_DESCRIPTION),
    params: paramText(tool.parameters),
    server,
  };
}

/** The parameters' names and descriptions (top level, and one level into objects). */
function paramText(schema: Record<string, unknown>, depth = 0): string {
  const props = schema.properties;
  if (!props || typeof props !== 'object' || depth > 1) return '';
  const out: string[] = [];
  for (const [key, value] of Object.entries(props as Record<string, unknown>)) {
    out.push(key);
    if (value && typeof value === 'object') {
      const v = value as Record<string, unknown>;
      if (typeof v.description === 'string') out.push(v.description.slice(0, 300));
      out.push(paramText(v, depth + 1));
    }
  }
  return out.join(' ');
}

/**
 * Whether a query's word can only be a tool's name: parts joined by `_`, `-` or `.` (read_file,
 * lint-files). A plain word is every sentence's: a server whose tools are named `a`, `new` and `issue`
 * would take every place of "create a new issue" if such a word named a tool among other words.
 */
function isCompoundName(word: string): boolean {
  return /[\p{L}\p{N}][_.-]+[\p{L}\p{N}]/u.test(word);
}

/** A text's words as the index keeps them. */
function terms(text: string): Set<string> {
  return new Set(tokenize(text).flatMap((w) => normalizeTerm(w) ?? []));
}

/** A description's first line, at most 160 characters: what a search result shows of a tool. */
export function firstLine(text: string): string {
  const line = text.trim().split(/\r?\n/, 1)[0] ?? '';
  return line.length > 160 ? `${line.slice(0, 159)}…` : line;
}
