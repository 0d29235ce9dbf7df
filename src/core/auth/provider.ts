import {
  auth,
  IssuerMismatchError,
  resourceUrlFromServerUrl,
  type FetchLike,
  type OAuthClientMetadata,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
  type StoredOAuthClientInformation,
  type StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import { silentLogger, type Logger } from '../base/logger';
import type { HttpServerConfig } from '../mcp/config/serverConfig';
import { serverIdentity } from '../mcp/config/identity';
import { BrowserSignIn } from './browserSignIn';
import { ClientChoice } from './clientChoice';
import { issuerOf, legacyDiscovery } from './discovery';
import { guardedFetch } from './guardedFetch';
import type { RedirectReceiver } from './redirect';
import { isSignInNeeded, SignInNeeded } from './signInErrors';
import { Consent, type Interaction, type SignInUi } from './signInUi';
import type { AuthRecord, AuthRecordStore } from './store';

export interface ServerAuthOptions {
  config: HttpServerConfig;
  store: AuthRecordStore;
  receiver: RedirectReceiver;
  ui: SignInUi;
  interaction: Interaction;
  /** A Client ID Metadata Document URL (https), used where the authorization server supports it. */
  clientMetadataUrl?: () => string | undefined;
  log?: Logger;
  /** How long a sign-in waits for the browser to come back (default 5 minutes). */
  signInTimeoutMs?: number;
}

/**
 * One server's OAuth client, per the MCP authorization spec, over the SDK's `auth()`: discovery,
 * PKCE, the `iss` check, refresh and scope step-up are the SDK's; this class decides which client
 * ID to use (pre-registered, metadata document, dynamic registration, then the user: ClientChoice),
 * where tokens live, and when the user is asked (Consent, BrowserSignIn).
 */
export class ServerAuth implements OAuthClientProvider {
  readonly identity: string;
  readonly resource: string;
  private readonly log: Logger;
  private verifier: string | undefined;
  private readonly consent: Consent;
  private readonly browser: BrowserSignIn;
  private readonly clients: ClientChoice;
  private issuer: string | undefined;
  /** The guarded fetch of the current connection (client registration goes through it too). */
  private fetchFn: FetchLike | undefined;
  /** The server rejected a token: the next authorization reads its metadata afresh (SEP-2352). */
  private rediscover = false;
  private readonly secretListeners = new Set<(value: string) => void>();

  constructor(private readonly options: ServerAuthOptions) {
    this.identity = serverIdentity(options.config);
    this.resource = resourceUrlFromServerUrl(options.config.url).href;
    this.log = options.log ?? silentLogger;
    this.consent = new Consent(this.server, options.interaction, options.ui);
    this.browser = new BrowserSignIn({
      server: this.server,
      receiver: options.receiver,
      ui: options.ui,
      log: this.log,
      timeoutMs: options.signInTimeoutMs ?? 300_000,
    });
    this.clients = new ClientChoice({
      server: this.server,
      config: options.config,
      ui: options.ui,
      consent: this.consent,
      log: this.log,
      issuer: () => this.issuer,
      redirectUrl: () => this.redirectUrl,
      clientMetadataUrl: () => this.clientMetadataUrl,
      clientMetadata: () => this.clientMetadata,
      record: () => this.record(),
      update: (change) => options.store.update(this.identity, this.resource, change),
      fetch: () => this.fetchFn ?? this.guard(fetch),
      secret: (value) => this.emit(value),
    });
  }

  get server(): string {
    return this.options.config.name;
  }

  /** Hears every token and client secret this client reads or stores, so the owner can redact them. */
  onSecret(listener: (value: string) => void): void {
    this.secretListeners.add(listener);
    if (this.options.config.oauth?.clientSecret) listener(this.options.config.oauth.clientSecret);
  }

  /** The user chose Sign In: the next authorization may open the browser. */
  requestSignIn(): void {
    this.consent.requested = true;
  }

  /** Forgets this server's tokens and registration. */
  async signOut(): Promise<void> {
    this.cancel();
    await this.options.store.delete(this.identity, this.resource);
  }

  /** This connection's fetch: credentials only to where they belong (see guardedFetch). */
  guard(base: FetchLike): FetchLike {
    this.fetchFn = guardedFetch(base, {
      server: this.server,
      serverUrl: this.options.config.url,
      headerNames: Object.keys(this.options.config.headers),
      issuer: () => this.issuer,
      onRefused: (message) => this.log.warn(message),
      // SEP-2352: a rejected token sends the next authorization to the server's metadata again, which may name
      // another authorization server now (a client registered with the old one is not used there).
      onTokenRejected: () => {
        this.rediscover = true;
      },
    });
    return this.fetchFn;
  }

  /**
   * Waits for the browser to come back from the authorization started by the transport, checks
   * the callback (`state`, then the SDK's `iss` check) and exchanges the code for tokens.
   */
  async completeSignIn(fetchFn: FetchLike): Promise<void> {
    const metadata = (await this.record())?.discovery?.authorizationServerMetadata;
    const { code, iss } = await this.browser.callback({
      issuer: this.issuer,
      issRequired: metadata?.authorization_response_iss_parameter_supported === true,
    });
    const result = await auth(this, {
      serverUrl: this.options.config.url,
      authorizationCode: code,
      ...(iss !== null ? { iss } : {}),
      fetchFn,
    });
    if (result !== 'AUTHORIZED') throw new SignInNeeded(this.server, 'the authorization server did not issue a token');
    this.consent.requested = false;
    this.log.info('signed in');
  }

  /**
   * After a request stopped on an authorization problem: true when it was put right and the
   * request should run again (a sign-in the user completed, or a 2025-03-26 server's metadata).
   */
  async recover(err: unknown, fetchFn: FetchLike): Promise<boolean> {
    if (this.browser.waiting && isSignInNeeded(err)) {
      await this.completeSignIn(fetchFn);
      return true;
    }
    if (err instanceof IssuerMismatchError && err.kind === 'metadata') return this.adoptLegacyMetadata(fetchFn);
    return false;
  }

  /** A 2025-03-26 server's own metadata, when it is its own authorization server (legacyDiscovery). */
  private async adoptLegacyMetadata(fetchFn: FetchLike): Promise<boolean> {
    const state = await legacyDiscovery(this.options.config.url, fetchFn);
    if (!state) return false;
    this.log.info(
      `a 2025-03-26 server: its authorization server metadata names ${issuerOf(state)} (same origin) as issuer`,
    );
    await this.saveDiscoveryState(state);
    return true;
  }

  /** Ends a sign-in that is waiting for the browser. */
  cancel(): void {
    this.browser.cancel();
  }

  // --- OAuthClientProvider ---

  /** The redirect of the current authorization server: each has its own (the mix-up defence). */
  get redirectUrl(): string {
    return this.options.receiver.redirectUrlFor(this.issuer);
  }

  get clientMetadataUrl(): string | undefined {
    return this.options.clientMetadataUrl?.() || undefined;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'MinAgent',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }

  state(): string {
    return this.browser.state();
  }

  /** The client to use with the current authorization server (ClientChoice). */
  clientInformation(): Promise<StoredOAuthClientInformation | undefined> {
    return this.clients.clientInformation();
  }

  saveClientInformation(info: StoredOAuthClientInformation): Promise<void> {
    return this.clients.saveClientInformation(info);
  }

  async tokens(): Promise<StoredOAuthTokens | undefined> {
    const tokens = (await this.record())?.tokens;
    if (tokens) this.emitTokens(tokens);
    return tokens;
  }

  async saveTokens(tokens: StoredOAuthTokens): Promise<void> {
    this.emitTokens(tokens);
    await this.options.store.update(this.identity, this.resource, (r) => ({ ...r, tokens }));
  }

  async redirectToAuthorization(url: URL): Promise<void> {
    const hadSession = Boolean((await this.record())?.tokens);
    if (!(await this.consent.mayInteract(hadSession))) {
      this.log.info(hadSession ? 'the session needs a new sign-in' : 'sign in needed');
      return;
    }
    this.browser.open(url, this.issuer, () => this.redirectUrl);
  }

  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }

  codeVerifier(): string {
    if (!this.verifier) throw new SignInNeeded(this.server, 'no sign-in is in progress');
    return this.verifier;
  }

  async saveDiscoveryState(state: OAuthDiscoveryState): Promise<void> {
    this.issuer = issuerOf(state);
    await this.options.store.update(this.identity, this.resource, (r) => ({ ...r, discovery: state }));
  }

  async discoveryState(): Promise<OAuthDiscoveryState | undefined> {
    if (this.rediscover) {
      // Once: what this authorization finds is saved, and the callback's check reads it.
      this.rediscover = false;
      return undefined;
    }
    const discovery = (await this.record())?.discovery;
    if (discovery) this.issuer = issuerOf(discovery);
    return discovery;
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    if (scope === 'verifier') {
      this.verifier = undefined;
      return;
    }
    if (scope === 'all') {
      await this.options.store.delete(this.identity, this.resource);
      return;
    }
    const field: keyof AuthRecord = scope;
    await this.options.store.update(this.identity, this.resource, (r) => {
      const next = { ...r };
      delete next[field];
      if (scope === 'client') delete next.askedClientId;
      return next;
    });
  }

  private record(): Promise<AuthRecord | undefined> {
    return this.options.store.read(this.identity, this.resource);
  }

  private emitTokens(tokens: StoredOAuthTokens): void {
    this.emit(tokens.access_token);
    if (tokens.refresh_token) this.emit(tokens.refresh_token);
    if (tokens.id_token) this.emit(tokens.id_token);
  }

  private emit(value: string): void {
    for (const l of this.secretListeners) l(value);
  }
}
