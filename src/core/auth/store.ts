import type {
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import type { SecretStore } from '../base/secretStore';

/** What MinAgent keeps for one server and one protected resource. */
export interface AuthRecord {
  /** The protected resource (the server's URL) these tokens were issued for. */
  resource: string;
  tokens?: StoredOAuthTokens;
  /** A client registered dynamically or by a metadata document URL (pre-registered IDs come from settings). */
  client?: StoredOAuthClientInformation;
  /** A client ID the user typed when the server offered no other way. */
  askedClientId?: string;
  /** The authorization server that typed client ID was given for: it is never taken to another. */
  askedFor?: string;
  /** The authorization server the entry's pre-registered client ID (without an `oauth.issuer`) was first used with. */
  preRegisteredFor?: { clientId: string; issuer: string };
  discovery?: OAuthDiscoveryState;
}

const PREFIX = 'minagent.oauth/';

/**
 * Auth records keyed by server identity and resource: a token is only ever read back for the
 * server entry and URL it was issued to, so a workspace that points a server name at another URL
 * finds nothing.
 */
export class AuthRecordStore {
  /**
   * What this process read or wrote, by key (null: known absent). The secret store is this
   * process's own, so the copy stays true; and VS Code's SecretStorage is a round trip to the
   * window (in a browser-hosted editor a slow one) that a sign-in would otherwise make a dozen times.
   */
  private readonly cache = new Map<string, AuthRecord | null>();
  /** Writes per key, one after another, so two updates never lose each other's fields. */
  private readonly queues = new Map<string, Promise<unknown>>();

  constructor(private readonly secrets: SecretStore) {}

  static key(identity: string, resource: string): string {
    return `${PREFIX}${identity}/${resource}`;
  }

  async read(identity: string, resource: string): Promise<AuthRecord | undefined> {
    const key = AuthRecordStore.key(identity, resource);
    await this.queues.get(key);
    if (this.cache.has(key)) return this.cache.get(key) ?? undefined;
    const record = parseRecord(await this.secrets.get(key), resource);
    this.cache.set(key, record ?? null);
    return record;
  }

  update(identity: string, resource: string, change: (record: AuthRecord) => AuthRecord): Promise<AuthRecord> {
    return this.serialize(AuthRecordStore.key(identity, resource), async (key) => {
      const current = this.cache.has(key)
        ? (this.cache.get(key) ?? undefined)
        : parseRecord(await this.secrets.get(key), resource);
      const next = { ...change(current ?? { resource }), resource };
      this.cache.set(key, next);
      await this.secrets.store(key, JSON.stringify(next));
      return next;
    });
  }

  delete(identity: string, resource: string): Promise<void> {
    return this.serialize(AuthRecordStore.key(identity, resource), async (key) => {
      this.cache.set(key, null);
      await this.secrets.delete(key);
    });
  }

  private serialize<T>(key: string, run: (key: string) => Promise<T>): Promise<T> {
    const next = (this.queues.get(key) ?? Promise.resolve()).then(() => run(key));
    const settled = next.catch(() => undefined);
    this.queues.set(key, settled);
    void settled.then(() => this.queues.get(key) === settled && this.queues.delete(key));
    return next;
  }
}

/**
 * A stored record, if it is one and is for this resource (a record never answers for another, whatever its key says).
 */
function parseRecord(text: string | undefined, resource: string): AuthRecord | undefined {
  if (!text) return undefined;
  try {
    const record = JSON.parse(text) as AuthRecord;
    return record && typeof record === 'object' && record.resource === resource ? record : undefined;
  } catch {
    return undefined;
  }
}
