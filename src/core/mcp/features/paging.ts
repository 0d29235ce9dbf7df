import type { Client } from '@modelcontextprotocol/client';
import { z } from 'zod';
import { pageTtl, shorterTtl } from './freshness';

/** Something a server listed that was skipped or changed, naming the server and the item. */
export interface ListProblem {
  server: string;
  /** The item's name (or `#N` when it has none); empty for the list as a whole. */
  item: string;
  message: string;
}

const MAX_PAGES = 200;

/**
 * Follows every page of a list method (`resources/list`, `prompts/list`, ...), tolerantly: the
 * page's `key` array is returned item by item, unparsed, so one malformed item costs only itself
 * (the caller checks each). A repeated cursor or too many pages stop the listing with a problem.
 */
export async function listPages(
  client: Client,
  method: string,
  key: string,
  server: string,
  timeoutMs: number,
): Promise<{ items: unknown[]; problems: ListProblem[]; ttlMs?: number }> {
  const schema = z.looseObject({ [key]: z.array(z.unknown()), nextCursor: z.string().optional() });
  const items: unknown[] = [];
  const problems: ListProblem[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  let ttlMs: number | undefined;
  const done = () => ({ items, problems, ...(ttlMs !== undefined ? { ttlMs } : {}) });
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = (await client.request({ method, params: cursor !== undefined ? { cursor } : {} }, schema, {
      timeout: timeoutMs,
    })) as Record<string, unknown> & { nextCursor?: string };
    ttlMs = shorterTtl(ttlMs, pageTtl(result));
    items.push(...(result[key] as unknown[]));
    cursor = result.nextCursor;
    if (cursor === undefined) return done();
    if (seen.has(cursor)) {
      problems.push({
        server,
        item: '',
        message: `server "${server}" repeated the page cursor "${cursor}" of ${method}; listing stopped at ${items.length} items`,
      });
      return done();
    }
    seen.add(cursor);
  }
  problems.push({
    server,
    item: '',
    message: `server "${server}" listed more than ${MAX_PAGES} pages of ${method}; listing stopped at ${items.length} items`,
  });
  return done();
}

/** The item as a plain object with the string fields it must have, or a problem saying what is missing. */
export function checkItem(
  raw: unknown,
  required: readonly string[],
  what: string,
  server: string,
  index: number,
  problems: ListProblem[],
): Record<string, unknown> | undefined {
  const position = `#${index + 1}`;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    problems.push({
      server,
      item: position,
      message: `server "${server}" listed ${what} ${position} that is not an object; it was skipped`,
    });
    return undefined;
  }
  const item = raw as Record<string, unknown>;
  for (const field of required) {
    if (typeof item[field] !== 'string' || item[field] === '') {
      const name = typeof item.name === 'string' && item.name ? `"${item.name}"` : position;
      problems.push({
        server,
        item: typeof item.name === 'string' ? item.name : position,
        message: `server "${server}" listed ${what} ${name} without a valid "${field}"; it was skipped`,
      });
      return undefined;
    }
  }
  return item;
}

/** An optional string field, or undefined when absent or not a string. */
export function optionalString(item: Record<string, unknown>, field: string): string | undefined {
  const v = item[field];
  return typeof v === 'string' ? v : undefined;
}
