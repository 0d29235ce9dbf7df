// How long a list a server sent stays fresh (2026-07-28, `ttlMs` on list results). A server that gives a TTL and no
// `listChanged` relies on the client to list again once it is stale; MinAgent does that before a turn uses the list.

/** The longest TTL honoured: a server cannot pin a list for longer than a day. */
export const MAX_LIST_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * The page's `ttlMs`: undefined when it sent none (no hint: the list is fresh until `list_changed`), 0 for an invalid
 * or negative one (stale at once, as the revision reads it), capped at a day.
 */
export function pageTtl(page: unknown): number | undefined {
  if (typeof page !== 'object' || page === null || !('ttlMs' in page)) return undefined;
  const ttl = (page as { ttlMs: unknown }).ttlMs;
  if (typeof ttl !== 'number' || !Number.isFinite(ttl) || ttl < 0) return 0;
  return Math.min(ttl, MAX_LIST_TTL_MS);
}

/** The TTL of a list of several pages: the shortest any page gave (a page without one adds nothing). */
export function shorterTtl(a: number | undefined, b: number | undefined): number | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return Math.min(a, b);
}

/** When each of a server's lists goes stale, by list; a list with no TTL never does by time. */
export class ListFreshness<K extends string> {
  private readonly expires = new Map<K, number>();

  constructor(private readonly now: () => number = Date.now) {}

  /** The list was just fetched with this TTL (undefined: none given). */
  fetched(list: K, ttlMs: number | undefined): void {
    if (ttlMs === undefined) this.expires.delete(list);
    else this.expires.set(list, this.now() + ttlMs);
  }

  /** True once the list's TTL has run out. */
  stale(list: K): boolean {
    const at = this.expires.get(list);
    return at !== undefined && this.now() >= at;
  }

  clear(): void {
    this.expires.clear();
  }
}
