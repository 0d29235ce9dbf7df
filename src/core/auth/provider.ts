import { randomBytes } from 'node:crypto';
import {
  auth,
  discoverAuthorizationServerMetadata,
  discoverOAuthProtectedResourceMetadata,
  InsufficientScopeError,
  IssuerMismatchError,
  registerClient,
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
import type { HttpServerConfig } from '../mcp/config/serverConfig';
import { serverIdentity } from '../mcp/config/identity';
import { isLoopbackHostname } from '../net/addresses';
import { endpointProblem, shortHost } from './endpoints';
import { EndpointRefused, guardedFetch } from './guardedFetch';
import { MixUpRefused, redirectRoute, type RedirectReceiver } from './redirect';
import type { AuthRecord, AuthRecordStore } from './store';

/** How a sign-in reaches the user; the editor and the CLI each supply one. */
export interface SignInUi {
  /**
   * Opens (or prints) the authorization URL, saying first which authorization server (`issuer`)
   * the browser goes to; false when the user declined.
   */
  open(url: URL, server: string, issuer: string): Promise<boolean>;
  /** Last in the spec's order: asks for a client ID when the server offers no other way to get one. */
  askClientId?(server: string, issuer: string): Promise<string | undefined>;
  /** Asks before signing in again for a server that had a session (expired, or it needs more scope). */
  confirmReauthorization?(server: string): Promise<boolean>;
  /**
   * An entry with a client secret but no `oauth.issuer` (written before secrets were bound): asks
   * once whether the secret belongs to `issuer`, the authorization server the server names now,
   * and on yes writes it to the entry (which restarts the server; the sign-in goes on from there). Without it (the CLI) such an entry is refused, with the line to add.
   */
  bindClientSecret?(server: string, issuer: string): Promise<boolean>;
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
  /** The guarded fetch of the current connection (client registration goes through it too). */
  private fetchFn: FetchLike | undefined;
  /** An issuer the user bound the entry's client secret to in this session (before the entry is read again). */
  private boundIssuer: string | undefined;
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
    this.fetchFn = guardedFetch(base, {
      server: this.server,
      serverUrl: this.options.config.url,
      headerNames: Object.keys(this.options.config.headers),
      issuer: () => this.issuer,
      onRefused: (message) => this.log.warn(message),
    });
    return this.fetchFn;
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
    this.currentState = randomBytes(24).toString('base64url');
    return this.currentState;
  }

  /**
   * The client to use with the current authorization server, in the spec's order: pre-registered
   * (its secret only for the issuer it is bound to), registered before (for this authorization
   * server's redirect), typed by the user, a metadata document (left to the SDK), registered now
   * (here rather than in the SDK, which would register the redirect it read before discovery),
   * and last the user.
   */
  async clientInformation(): Promise<StoredOAuthClientInformation | undefined> {
    const pre = this.options.config.oauth;
    const issuer = this.issuer;
    const stamp = issuer ? { issuer } : {};
    if (pre?.clientId) return { client_id: pre.clientId, ...(pre.clientSecret ? await this.boundSecret(pre.clientSecret, issuer) : {}), ...stamp };
    const record = await this.record();
    // A metadata document's client is the document (its redirects are listed there); a registered one must name this redirect.
    if (record?.client && (record.client.client_id === this.clientMetadataUrl || fitsRedirect(record.client, this.redirectUrl))) {
      if (record.client.client_secret) this.emit(record.client.client_secret);
      return record.client;
    }
    if (record?.client) {
      this.log.info(`the client registered earlier names another redirect than ${this.redirectUrl}: registering again`);
      await this.options.store.update(this.identity, this.resource, (r) => ({ ...r, client: undefined }));
    }
    if (record?.askedClientId) return { client_id: record.askedClientId, ...stamp };
    const discovery = record?.discovery;
    const metadata = discovery?.authorizationServerMetadata;
    const cimd = metadata?.client_id_metadata_document_supported === true && this.clientMetadataUrl;
    if (cimd) return undefined;
    // Registration: at the metadata's endpoint, or (a 2025-03-26 server without metadata) at /register of its origin.
    if (discovery && (metadata ? metadata.registration_endpoint : true)) {
      // Nothing is registered for a server the user has not chosen to sign in to (no request a server can cause without a click).
      if (!this.signInRequested && this.options.interaction !== 'always') throw new SignInNeeded(this.server, 'the server requires you to sign in');
      const problem = endpointProblem(metadata?.registration_endpoint ?? new URL('/register', discovery.authorizationServerUrl));
      if (problem) throw new EndpointRefused(`server "${this.server}": refused the registration endpoint: it ${problem}`);
      const registered = await registerClient(discovery.authorizationServerUrl, { metadata, clientMetadata: this.clientMetadata, fetchFn: this.fetchFn ?? this.guard(fetch) });
      const info = { ...registered, redirect_uris: registered.redirect_uris ?? [this.redirectUrl], ...stamp };
      await this.saveClientInformation(info);
      this.log.info(`registered a client with ${shortHost(new URL(discovery.authorizationServerUrl))} for the redirect ${this.redirectUrl}`);
      return info;
    }
    // No registration endpoint and no usable metadata document: the spec's last resort is the user.
    if (metadata && !metadata.registration_endpoint && this.options.ui.askClientId && (await this.mayInteract(false))) {
      const id = (await this.options.ui.askClientId(this.server, metadata.issuer))?.trim();
      if (id) {
        await this.options.store.update(this.identity, this.resource, (r) => ({ ...r, askedClientId: id }));
        return { client_id: id, ...stamp };
      }
    }
    return undefined;
  }

  /**
   * The entry's client secret, only for the authorization server it is bound to (`oauth.issuer`).
   * An entry from before that binding is asked about once; without an answer, no secret goes.
   */
  private async boundSecret(secret: string, issuer: string | undefined): Promise<{ client_secret: string }> {
    if (!issuer) throw new SignInNeeded(this.server, 'the authorization server is not known yet');
    let bound = this.options.config.oauth?.issuer ?? this.boundIssuer;
    if (!bound) {
      if (!(await this.mayInteract(false))) throw new SignInNeeded(this.server, 'the server requires you to sign in');
      const ask = this.options.ui.bindClientSecret;
      if (!ask) throw new ClientSecretUnbound(this.server, `its "oauth.clientSecret" names no authorization server: if it belongs to ${issuer}, add "oauth.issuer": "${issuer}" to the entry`);
      if (!(await ask(this.server, issuer))) throw new ClientSecretUnbound(this.server, `its client secret was not sent to ${issuer} (you did not confirm that it belongs there)`);
      // The answer is written to the entry, which restarts the server: that start signs in with the secret.
      this.boundIssuer = issuer;
      throw new SignInNeeded(this.server, `its client secret is now bound to ${issuer}; signing in again`);
    }
    if (!sameIssuer(bound, issuer)) throw new ClientSecretUnbound(this.server, `its client secret belongs to ${bound}, but the server now names ${issuer} as its authorization server; the secret was not sent`);
    return { client_secret: secret };
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
    const problem = endpointProblem(url);
    if (problem) throw new EndpointRefused(`server "${this.server}": refused to open its authorization endpoint: it ${problem}`);
    const state = url.searchParams.get('state') ?? this.currentState;
    if (!state) throw new SignInNeeded(this.server, 'the authorization request has no state');
    const issuer = this.issuer ?? url.origin;
    const signal = this.abort.signal;
    const timeoutMs = this.options.signInTimeoutMs ?? 300_000;
    const waiting = this.options.receiver.wait({ state, route: redirectRoute(this.issuer) }, AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]));
    this.pending = (async () => {
      this.log.info(`sign-in: opening the authorization page of ${url.origin} (issuer ${issuer}); it returns to ${this.redirectUrl}`);
      if (!(await this.options.ui.open(url, this.server, issuer))) throw new SignInNeeded(this.server, 'sign-in was declined');
      try {
        return await waiting;
      } catch (err) {
        if (err instanceof MixUpRefused) throw err;
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

/** The entry's client secret has no authorization server it may go to. */
export class ClientSecretUnbound extends Error {
  constructor(server: string, why: string) {
    super(`server "${server}": ${why}`);
  }
}

/** Issuers compared as URLs (a trailing slash is not a different server). */
function sameIssuer(a: string, b: string): boolean {
  const norm = (u: string) => u.replace(/\/+$/, '');
  return norm(a) === norm(b);
}

/**
 * Whether a client registered earlier names this redirect (a loopback redirect on any port, RFC
 * 8252 7.3: the port changes every run). Clients registered before each authorization server had
 * its own redirect name the old one and are registered again.
 */
function fitsRedirect(client: StoredOAuthClientInformation, redirect: string): boolean {
  const uris = (client as { redirect_uris?: unknown }).redirect_uris;
  if (!Array.isArray(uris)) return false;
  const key = (u: string) => {
    try {
      const url = new URL(u);
      if (url.protocol === 'http:' && isLoopbackHostname(url.hostname)) url.port = '';
      return url.href;
    } catch {
      return u;
    }
  };
  return uris.some((u) => typeof u === 'string' && key(u) === key(redirect));
}
