import type { SecretStore } from '../../base/secretStore';

/** The first revision of the stateless era (no initialize; `server/discover`, per-request `_meta`). */
export const MODERN_PROTOCOL_VERSION = '2026-07-28';

/** The protocol era a server spoke: 2026-07-28 (`server/discover`) or the 2025 initialize handshake. */
export type Era = 'modern' | 'legacy';

/** One server's era in a memory, by the key of its identity. */
export interface EraSlot {
  recall(): Promise<Era | undefined>;
  remember(era: Era): void;
  forget(): void;
}

/**
 * How long a remembered 2025 verdict is trusted: a server upgraded to 2026-07-28 still answers initialize, so it is
 * probed again after this.
 */
export const LEGACY_HORIZON_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * The era each server spoke, by the digest of what it is (a stdio program's command, arguments,
 * folder and environment; an HTTP server's address), so its next start goes straight to the
 * handshake it speaks: a 2025 server is not probed again (no wait on a silent one, no second start
 * of one that exits on the probe). A changed entry is a new key and is probed afresh. With a store,
 * the verdicts outlive the process (the editor's global state, the CLI's `eras.json`); keys are
 * digests, never the entry's text, since arguments and environments may hold secrets.
 */
export class EraMemory {
  private readonly known = new Map<string, { era: Era; at: number }>();

  constructor(
    private readonly store?: SecretStore,
    private readonly now: () => number = Date.now,
  ) {}

  slot(key: string): EraSlot {
    return {
      recall: () => this.recall(key),
      remember: (era) => this.remember(key, era),
      forget: () => this.forget(key),
    };
  }

  async recall(key: string): Promise<Era | undefined> {
    let entry = this.known.get(key);
    if (!entry && this.store) {
      entry = parse(await this.store.get(storeKey(key)).catch(() => undefined));
      if (entry) this.known.set(key, entry);
    }
    if (!entry) return undefined;
    if (entry.era === 'legacy' && this.now() - entry.at > LEGACY_HORIZON_MS) return undefined;
    return entry.era;
  }

  remember(key: string, era: Era): void {
    const had = this.known.get(key);
    // Kept fresh in memory; written only when the verdict changed or is a day old (not on every restart).
    const entry = { era, at: this.now() };
    this.known.set(key, entry);
    if (had?.era === era && entry.at - had.at < 24 * 60 * 60 * 1000) return;
    void this.store?.store(storeKey(key), JSON.stringify(entry)).catch(() => undefined);
  }

  forget(key: string): void {
    if (!this.known.delete(key) && !this.store) return;
    void this.store?.delete(storeKey(key)).catch(() => undefined);
  }
}

/** The memory of sources made without one (tests, a source outside a hub): this process only. */
export const processEraMemory = new EraMemory();

function storeKey(key: string): string {
  return `era:${key}`;
}

function parse(text: string | undefined): { era: Era; at: number } | undefined {
  if (!text) return undefined;
  try {
    const v = JSON.parse(text) as { era?: unknown; at?: unknown };
    return (v.era === 'modern' || v.era === 'legacy') && typeof v.at === 'number'
      ? { era: v.era, at: v.at }
      : undefined;
  } catch {
    return undefined;
  }
}
