import type { Logger } from '../base/logger';
import type { HttpServerConfig, ServerConfig } from '../mcp/config/serverConfig';
import { serverIdentity } from '../mcp/config/identity';
import { ServerAuth } from './provider';
import type { Interaction, SignInUi } from './signInUi';
import type { RedirectReceiver } from './redirect';
import { AuthRecordStore } from './store';
import type { SecretStore } from '../base/secretStore';

export interface AuthManagerOptions {
  secrets: SecretStore;
  receiver: RedirectReceiver;
  ui: SignInUi;
  interaction: Interaction;
  /**
   * A Client ID Metadata Document URL (setting `minagent.oauth.clientMetadataUrl`, CLI `--client-metadata-url`); read
   * at each sign-in.
   */
  clientMetadataUrl?: string | (() => string | undefined);
}

/**
 * The OAuth clients of the HTTP servers, one per server entry, kept across restarts of its
 * connection so a Sign In survives the reconnect it causes. Hand `forServer` to the hub.
 */
export class AuthManager {
  private readonly clients = new Map<string, ServerAuth>();
  /** Sign-ins asked for before the server's client existed (the CLI's `login`). */
  private readonly requested = new Set<string>();
  readonly store: AuthRecordStore;

  constructor(private readonly options: AuthManagerOptions) {
    this.store = new AuthRecordStore(options.secrets);
  }

  /** The OAuth client for an HTTP server entry (a changed entry gets a new one). */
  forServer(config: ServerConfig, log: Logger): ServerAuth | undefined {
    if (config.type === 'stdio') return undefined;
    // A server on a local socket (unix:, pipe:) has no web origin for OAuth to be bound to: its entry's headers only.
    if (/^(unix|pipe):/i.test(config.url)) return undefined;
    // An entry that sends its own Authorization header chose static credentials: a 401 is about those.
    if (Object.keys(config.headers ?? {}).some((h) => h.toLowerCase() === 'authorization')) return undefined;
    const key = serverIdentity(config);
    const existing = this.clients.get(config.name);
    if (existing && existing.identity === key) return existing;
    existing?.cancel();
    const client = new ServerAuth({
      config: config as HttpServerConfig,
      store: this.store,
      receiver: this.options.receiver,
      ui: this.options.ui,
      interaction: this.options.interaction,
      clientMetadataUrl:
        typeof this.options.clientMetadataUrl === 'function'
          ? this.options.clientMetadataUrl
          : () => this.options.clientMetadataUrl as string | undefined,
      log,
    });
    this.clients.set(config.name, client);
    if (this.requested.delete(config.name)) client.requestSignIn();
    return client;
  }

  /** Marks the server for an interactive sign-in; the caller then (re)starts its connection. */
  requestSignIn(server: string): boolean {
    const client = this.clients.get(server);
    if (client) client.requestSignIn();
    else this.requested.add(server);
    return client !== undefined;
  }

  /** Forgets the server's tokens and registration; the caller then restarts its connection. */
  async signOut(server: string): Promise<boolean> {
    const client = this.clients.get(server);
    await client?.signOut();
    return client !== undefined;
  }

  dispose(): void {
    for (const client of this.clients.values()) client.cancel();
    this.clients.clear();
  }
}
