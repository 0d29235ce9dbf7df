import type { ServerHub } from '../core/mcp/hub/serverHub';
import { ToolIndex } from '../core/toolSearch/toolIndex';
import type { CliArgs } from './args';
import { listStatus, printTable, UsageError, type Output } from './commands';
import type { FailedServer } from './failures';

export interface SearchInput {
  queries: string[];
  limit: number;
  server?: string;
}

/** Checks `tools --search` before any server starts: the queries, `--limit` (1-100, default 10). */
export function parseSearchInput(args: CliArgs): SearchInput | undefined {
  if (!args.search.length) {
    if (args.limit !== undefined)
      throw new UsageError('--limit goes with --search: minagent tools --search QUERY --limit N');
    return undefined;
  }
  if (args.search.some((q) => !q.trim()))
    throw new UsageError('--search needs words: minagent tools --search "create an issue"');
  const limit = args.limit === undefined ? 10 : Number(args.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100)
    throw new UsageError(`--limit must be a whole number from 1 to 100, not "${args.limit}"`);
  return { queries: args.search, limit, ...(args.server !== undefined ? { server: args.server } : {}) };
}

/**
 * `tools --search QUERY...`: each query's ranking as the model's search_tools gets it (registry
 * name, server, score), in the order asked; with --json one array of `{ query, tools }`.
 */
export function searchCommand(
  hub: ServerHub,
  input: SearchInput,
  json: boolean,
  io: Output,
  failed: readonly FailedServer[],
): number {
  if (input.server !== undefined && !hub.servers().some((s) => s.name === input.server))
    throw new UsageError(
      `no server is named "${input.server}"; servers: ${
        hub
          .servers()
          .map((s) => s.name)
          .join(', ') || '(none)'
      }`,
    );
  const index = new ToolIndex(hub.registry, (server) => hub.catalog.serverInstructions(server));
  try {
    const results = input.queries.map((query) => ({
      query,
      tools: index
        .search(query, { limit: input.limit, ...(input.server !== undefined ? { server: input.server } : {}) })
        .map((h) => ({ name: h.name, server: h.server ?? '', score: h.score })),
    }));
    if (json) io.out(JSON.stringify(results, null, 2));
    else
      for (const [i, r] of results.entries()) {
        if (results.length > 1) io.out(`${i ? '\n' : ''}# ${r.query}`);
        if (!r.tools.length) io.out('(no tool matches)');
        printTable(
          io,
          r.tools.map((t) => [t.name, t.server, t.score.toFixed(3)]),
        );
      }
  } finally {
    index.dispose();
  }
  return listStatus(hub, failed, io);
}
