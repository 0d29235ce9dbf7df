import { randomBytes } from 'node:crypto';
import {
  auth,
  discoverAuthorizationServerMetadata,
  discoverOAuthProtectedResourceMetadata,
  InsufficientScopeError,
  IssuerMismatchError,
  SdkErrorCode,
  SdkHttpError,
  UnauthorizedError,
  resourceUrlFromServerUrl,
  type FetchLike,
  type OAuthClientMetadata,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
  type StoredOAuthClientInformation,
  type StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import { silentLogger, type Logger } from '../logger';
import type { HttpServerConfig } from '../mcp/config';
import { serverIdentity } from '../mcp/identity';
import { guardedFetch } from './guardedFetch';
import type { RedirectReceiver } from './redirect';
import type { AuthRecord, AuthRecordStore } from './store';

/** How a sign-in reaches the user; the editor and the CLI each supply one. */
export interface SignInUi {
  /** Opens (or prints) the authorization URL; false when the user declined. */
  open(url: URL, server: string): Promise<boolean>;
  /** Last in the spec's order: asks for a client ID when the server offers no other way to get one. */
  askClientId?(server: string, issuer: string): Promise<string | undefined>;
  /** Asks before signing in again for a server that had a session (expired, or it needs more scope). */
  confirmReauthorization?(server: string): Promise<boolean>;
}

/**
 * When a sign-in may reach the user: `always` (the CLI at a terminal), `ask` (the editor: only
 * after the user chose Sign In, or with their consent when a session needs renewing), `never`.
 */
export type Interaction = 'always' | 'ask' | 'never';

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

export class SignInNeeded extends Error {
  constructor(server: string, why: string) {
    super(`sign in needed for "${server}": ${why}`);
  }
}

/** Whether a failure means the user has to sign in (again): no session, an expired one, or too little scope. */
export function isSignInNeeded(err: unknown): boolean {
  if (err instanceof SignInNeeded || err instanceof UnauthorizedError || err instanceof InsufficientScopeError) return true;
  return err instanceof SdkHttpError && (err.code === SdkErrorCode.ClientHttpAuthentication || err.code === SdkErrorCode.ClientHttpForbidden);
}

/**
 * One server's OAuth client, per the MCP authorization spec, over the SDK's `auth()`: discovery,
 * PKCE, the `iss` check, refresh and scope step-up are the SDK's; this class decides which client
 * ID to use (pre-registered, metadata document, dynamic registration, then the user), where tokens
 * live, and when the user is asked.
 */
export class ServerAuth implements OAuthClientProvider {
  readonly identity: string;
  readonly resource: string;
  private readonly log: Logger;
  private verifier: string | undefined;
  private currentState: string | undefined;
  private pending: Promise<URLSearchParams> | undefined;
  private abort = new AbortController();
  private signInRequested = false;
  private issuer: string | undefined;
  private readonly secretListeners = new Set<(value: string) => void>();

  constructor(private readonly options: ServerAuthOptions) {
    this.identity = serverIdentity(options.config);
    this.resource = resourceUrlFromServerUrl(options.config.url).href;
    this.log = options.log ?? silentLogger;
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
    this.signInRequested = true;
  }

  /** Forgets this server's tokens and registration. */
  async signOut(): Promise<void> {
    this.cancel();
    await this.options.store.delete(this.identity, this.resource);
  }

  /** This connection's fetch: credentials only to where they belong (see guardedFetch). */
  guard(base: FetchLike): FetchLike {
    return guardedFetch(base, { serverUrl: this.options.config.url, headerNames: Object.keys(this.options.config.headers), issuer: () => this.issuer });
  }

  /**
   * Waits for the browser to come back from the authorization started by the transport, checks
   * the callback (`state`, then the SDK's `iss` check) and exchanges the code for tokens.
   */
  async completeSignIn(fetchFn: FetchLike): Promise<void> {
    const pending = this.pending;
    if (!pending) throw new SignInNeeded(this.server, 'no sign-in is in progress');
    let params: URLSearchParams;
    try {
      params = await pending;
    } finally {
      this.pending = undefined;
    }
    const code = params.get('code');
    if (!code) {
      // The callback's error text is written by whoever sent the browser here: only a plain error code is shown.
      const error = params.get('error') ?? '';
      throw new SignInNeeded(this.server, `the authorization server did not sign you in${/^[a-z_]{1,40}$/.test(error) ? ` (${error})` : ''}`);
    }
    const iss = params.get('iss');
    const result = await auth(this, { serverUrl: this.options.config.url, authorizationCode: code, ...(iss !== null ? { iss } : {}), fetchFn });
    if (result !== 'AUTHORIZED') throw new SignInNeeded(this.server, 'the authorization server did not issue a token');
    this.signInRequested = false;
    this.log.info('signed in');
  }

  /**
   * After a request stopped on an authorization problem: true when it was put right and the
   * request should run again (a sign-in the user completed, or a 2025-03-26 server's metadata).
   */
  async recover(err: unknown, fetchFn: FetchLike): Promise<boolean> {
    if (this.pending && isSignInNeeded(err)) {
      await this.completeSignIn(fetchFn);
      return true;
    }
    if (err instanceof IssuerMismatchError && err.kind === 'metadata') return this.adoptLegacyMetadata(fetchFn);
    return false;
  }

  /**
   * A 2025-03-26 server has no protected-resource metadata and is its own authorization server:
   * its metadata sits at the root of its origin and may name a path of that origin as its issuer.
   * That issuer is accepted only then, and only on the server's own origin.
   */
  private async adoptLegacyMetadata(fetchFn: FetchLike): Promise<boolean> {
    const url = this.options.config.url;
    const prm = await discoverOAuthProtectedResourceMetadata(url, {}, fetchFn).catch(() => undefined);
    if (prm) return false;
    const root = new URL('/', url);
    const metadata = await discoverAuthorizationServerMetadata(root, { fetchFn, skipIssuerValidation: true }).catch(() => undefined);
    if (!metadata || new URL(metadata.issuer).origin !== root.origin) return false;
    this.log.info(`a 2025-03-26 server: its authorization server metadata names ${metadata.issuer} (same origin) as issuer`);
    await this.saveDiscoveryState({ authorizationServerUrl: root.href, authorizationServerMetadata: metadata });
    return true;
  }

  /** Ends a sign-in that is waiting for the browser. */
  cancel(): void {
    this.abort.abort();
    this.abort = new AbortController();
    this.pending = undefined;
  }

  // --- OAuthClientProvider ---

  get redirectUrl(): string {
    return this.options.receiver.redirectUrl;
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
    this.currentState = randomBytes(24).toString('base64url');
    return this.currentState;
  }

  async clientInformation(): Promise<StoredOAuthClientInformation | undefined> {
    const pre = this.options.config.oauth;
    const stamp = this.issuer ? { issuer: this.issuer } : {};
    if (pre?.clientId) return { client_id: pre.clientId, ...(pre.clientSecret ? { client_secret: pre.clientSecret } : {}), ...stamp };
    const record = await this.record();
    if (record?.client) {
      if (record.client.client_secret) this.emit(record.client.client_secret);
      return record.client;
    }
    if (record?.askedClientId) return { client_id: record.askedClientId, ...stamp };
    // No registration endpoint and no usable metadata document: the spec's last resort is the user.
    const metadata = record?.discovery?.authorizationServerMetadata;
    const cimd = metadata?.client_id_metadata_document_supported === true && this.clientMetadataUrl;
    if (metadata && !metadata.registration_endpoint && !cimd && this.options.ui.askClientId && (await this.mayInteract(false))) {
      const id = (await this.options.ui.askClientId(this.server, metadata.issuer))?.trim();
      if (id) {
        await this.options.store.update(this.identity, this.resource, (r) => ({ ...r, askedClientId: id }));
        return { client_id: id, ...stamp };
      }
    }
    return undefined;
  }

  async saveClientInformation(info: StoredOAuthClientInformation): Promise<void> {
    // A pre-registered or typed client ID is kept as it is; a secret from settings is never copied into the store.
    if (info.client_id === this.options.config.oauth?.clientId || info.client_id === (await this.record())?.askedClientId) return;
    if (info.client_secret) this.emit(info.client_secret);
    await this.options.store.update(this.identity, this.resource, (r) => ({ ...r, client: info }));
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
    if (!(await this.mayInteract(hadSession))) {
      this.log.info(hadSession ? 'the session needs a new sign-in' : 'sign in needed');
      return;
    }
    const state = url.searchParams.get('state') ?? this.currentState;
    if (!state) throw new SignInNeeded(this.server, 'the authorization request has no state');
    const signal = this.abort.signal;
    const timeoutMs = this.options.signInTimeoutMs ?? 300_000;
    const waiting = this.options.receiver.wait(state, AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]));
    this.pending = (async () => {
      this.log.info(`sign-in: opening the authorization page of ${url.origin}`);
      if (!(await this.options.ui.open(url, this.server))) throw new SignInNeeded(this.server, 'sign-in was declined');
      try {
        return await waiting;
      } catch {
        throw new SignInNeeded(this.server, signal.aborted ? 'sign-in was cancelled' : `no answer from the browser within ${Math.round(timeoutMs / 1000)} s`);
      }
    })();
    waiting.catch(() => undefined);
    this.pending.catch(() => undefined);
  }

  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }

  codeVerifier(): string {
    if (!this.verifier) throw new SignInNeeded(this.server, 'no sign-in is in progress');
    return this.verifier;
  }

  async saveDiscoveryState(state: OAuthDiscoveryState): Promise<void> {
    this.issuer = state.authorizationServerMetadata?.issuer ?? state.authorizationServerUrl;
    await this.options.store.update(this.identity, this.resource, (r) => ({ ...r, discovery: state }));
  }

  async discoveryState(): Promise<OAuthDiscoveryState | undefined> {
    const discovery = (await this.record())?.discovery;
    if (discovery) this.issuer = discovery.authorizationServerMetadata?.issuer ?? discovery.authorizationServerUrl;
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

  private async mayInteract(hadSession: boolean): Promise<boolean> {
    if (this.signInRequested || this.options.interaction === 'always') return true;
    if (this.options.interaction === 'never' || !hadSession) return false;
    return (await this.options.ui.confirmReauthorization?.(this.server)) ?? false;
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
