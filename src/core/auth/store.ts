import type { OAuthDiscoveryState, StoredOAuthClientInformation, StoredOAuthTokens } from '@modelcontextprotocol/client';

/**
 * Where secrets live: VS Code's SecretStorage in the editor, a 0600 file for the CLI, memory in
 * tests. Values are opaque strings; nothing here is ever logged.
 */
export interface SecretStore {
  get(key: string): Promise<string | undefined>;
  store(key: string, value: string): Promise<void>;
  delete(key: string): Promise<void>;
}

export class MemorySecretStore implements SecretStore {
  readonly values = new Map<string, string>();
  get(key: string): Promise<string | undefined> {
    return Promise.resolve(this.values.get(key));
  }
  store(key: string, value: string): Promise<void> {
    this.values.set(key, value);
    return Promise.resolve();
  }
  delete(key: string): Promise<void> {
    this.values.delete(key);
    return Promise.resolve();
  }
}

/** What MinAgent keeps for one server and one protected resource. */
export interface AuthRecord {
  /** The protected resource (the server's URL) these tokens were issued for. */
  resource: string;
  tokens?: StoredOAuthTokens;
  /** A client registered dynamically or by a metadata document URL (pre-registered IDs come from settings). */
  client?: StoredOAuthClientInformation;
  /** A client ID the user typed when the server offered no other way. */
  askedClientId?: string;
  discovery?: OAuthDiscoveryState;
}

const PREFIX = 'minagent.oauth/';

/**
 * Auth records keyed by server identity and resource: a token is only ever read back for the
 * server entry and URL it was issued to, so a workspace that points a server name at another URL
 * finds nothing.
 */
export class AuthRecordStore {
  constructor(private readonly secrets: SecretStore) {}

  static key(identity: string, resource: string): string {
    return `${PREFIX}${identity}/${resource}`;
  }

  async read(identity: string, resource: string): Promise<AuthRecord | undefined> {
    const text = await this.secrets.get(AuthRecordStore.key(identity, resource));
    if (!text) return undefined;
    try {
      const record = JSON.parse(text) as AuthRecord;
      // A record for another resource never answers for this one, whatever its key says.
      return record && typeof record === 'object' && record.resource === resource ? record : undefined;
    } catch {
      return undefined;
    }
  }

  async update(identity: string, resource: string, change: (record: AuthRecord) => AuthRecord): Promise<AuthRecord> {
    const next = change((await this.read(identity, resource)) ?? { resource });
    await this.secrets.store(AuthRecordStore.key(identity, resource), JSON.stringify({ ...next, resource }));
    return next;
  }

  delete(identity: string, resource: string): Promise<void> {
    return this.secrets.delete(AuthRecordStore.key(identity, resource));
  }
}
