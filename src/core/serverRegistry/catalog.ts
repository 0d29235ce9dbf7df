import type { ListOptions, Listing } from './client';
import type { RegistryServer } from './serverJson';

/** What is kept of one registry between sessions: the latest version of each server, and when it was read. */
export interface CatalogState {
  url: string;
  servers: RegistryServer[];
  /**
   * The registry's own time of the newest change seen (its `updatedAt`): the next read asks only for what changed
   * since.
   */
  updatedSince?: string;
  /** When it was last read (ms since the epoch, this machine's clock). */
  checkedAt: number;
}

/** How often a registry is read again without the user asking (the gallery reads it on opening). */
export const DAILY_MS = 24 * 60 * 60 * 1000;

/**
 * The registry read again: in full the first time, afterwards only what changed since the newest
 * change seen (`updated_since`), merged by server name (a newer latest version replaces the old one).
 */
export async function refreshCatalog(
  previous: CatalogState | undefined,
  url: string,
  list: (options: ListOptions) => Promise<Listing>,
  now = Date.now(),
): Promise<{ state: CatalogState; skipped: string[] }> {
  const incremental = previous?.url === url && previous.updatedSince !== undefined;
  const listing = await list(incremental ? { updatedSince: previous.updatedSince } : {});
  const byName = new Map((incremental ? previous.servers : []).map((s) => [s.server.name, s]));
  for (const s of listing.servers) if (s.meta.isLatest !== false) byName.set(s.server.name, s);
  const stamps = [...byName.values()]
    .map((s) => s.meta.updatedAt ?? s.meta.publishedAt)
    .filter((t): t is string => !!t && !Number.isNaN(Date.parse(t)));
  const newest = stamps.sort().at(-1) ?? previous?.updatedSince;
  return {
    state: {
      url,
      servers: [...byName.values()].sort((a, b) => a.server.name.localeCompare(b.server.name)),
      ...(newest ? { updatedSince: newest } : {}),
      checkedAt: now,
    },
    skipped: listing.skipped,
  };
}

/** Whether the catalog is due to be read again without being asked (at most once a day). */
export function due(state: CatalogState | undefined, now = Date.now()): boolean {
  return !state || now - state.checkedAt >= DAILY_MS;
}

/**
 * An organisation's allowlist (`minagent.registryAllowlist`): server names, `*` matching any run of
 * characters. Empty or unset: every server is shown.
 */
export function allowedBy(patterns: readonly string[] | undefined, name: string): boolean {
  if (!patterns?.length) return true;
  return patterns.some((p) =>
    new RegExp(
      `^${p
        .split('*')
        .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
        .join('.*')}$`,
    ).test(name),
  );
}
