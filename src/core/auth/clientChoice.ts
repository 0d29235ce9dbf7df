// Which OAuth client a server's sign-in uses with its authorization server, in the spec's order,
// registering one when that is the way; a client secret goes only to the issuer it is bound to.
import {
  registerClient,
  resolveClientMetadata,
  type FetchLike,
  type OAuthClientMetadata,
  type StoredOAuthClientInformation,
} from '@modelcontextprotocol/client';
import type { Logger } from '../base/logger';
import type { HttpServerConfig } from '../mcp/config/serverConfig';
import { isLoopbackHostname } from '../net/addresses';
import { sameIssuer } from './discovery';
import { endpointProblem, shortHost } from './endpoints';
import { EndpointRefused } from './guardedFetch';
import { ClientSecretUnbound, SignInNeeded } from './signInErrors';
import type { Consent, SignInUi } from './signInUi';
import type { AuthRecord } from './store';

/** What the choice needs of the server's OAuth client (ServerAuth). */
export interface ClientChoiceHost {
  readonly server: string;
  readonly config: HttpServerConfig;
  readonly ui: SignInUi;
  readonly consent: Consent;
  readonly log: Logger;
  /** The current authorization server, once discovery named it. */
  issuer(): string | undefined;
  redirectUrl(): string;
  clientMetadataUrl(): string | undefined;
  clientMetadata(): OAuthClientMetadata;
  /** This server's stored record, and a change to it. */
  record(): Promise<AuthRecord | undefined>;
  update(change: (record: AuthRecord) => AuthRecord): Promise<unknown>;
  /** The connection's guarded fetch (registration goes through it). */
  fetch(): FetchLike;
  /** Hears a client secret read or stored, to be redacted. */
  secret(value: string): void;
}

export class ClientChoice {
  /** An issuer the user bound the entry's client secret to in this session (before the entry is read again). */
  private boundIssuer: string | undefined;

  constructor(private readonly host: ClientChoiceHost) {}

  /**
   * The client to use with the current authorization server, in the spec's order: pre-registered
   * (its secret only for the issuer it is bound to), registered before (for this authorization
   * server's redirect), typed by the user, a metadata document (left to the SDK), registered now
   * (here rather than in the SDK, which would register the redirect it read before discovery),
   * and last the user.
   */
  async clientInformation(): Promise<StoredOAuthClientInformation | undefined> {
    const host = this.host;
    const pre = host.config.oauth;
    const issuer = host.issuer();
    const stamp = issuer ? { issuer } : {};
    if (pre?.clientId) {
      await this.checkPreRegistered(pre.clientId, issuer);
      return {
        client_id: pre.clientId,
        ...(pre.clientSecret ? await this.boundSecret(pre.clientSecret, issuer) : {}),
        ...stamp,
      };
    }
    const record = await host.record();
    // A metadata document's client is the document (its redirects are listed there); a registered one must name this
    // redirect.
    // A client registered with another authorization server is never taken to this one.
    const registeredElsewhere = !!(issuer && record?.client?.issuer && !sameIssuer(record.client.issuer, issuer));
    if (
      record?.client &&
      !registeredElsewhere &&
      (record.client.client_id === host.clientMetadataUrl() || fitsRedirect(record.client, host.redirectUrl()))
    ) {
      if (record.client.client_secret) host.secret(record.client.client_secret);
      return record.client;
    }
    if (record?.client) {
      host.log.info(
        registeredElsewhere
          ? `the client registered earlier belongs to ${record.client.issuer}, not ${issuer}: registering again`
          : `the client registered earlier names another redirect than ${host.redirectUrl()}: registering again`,
      );
      await host.update((r) => ({ ...r, client: undefined }));
    }
    if (record?.askedClientId) {
      // A typed client ID belongs to the authorization server it was typed for; another one asks anew.
      if (!issuer || !record.askedFor || sameIssuer(record.askedFor, issuer))
        return { client_id: record.askedClientId, ...stamp };
      host.log.info(`the client ID typed for ${record.askedFor} is not taken to ${issuer}`);
      await host.update(({ askedClientId: _, askedFor: __, ...r }) => r);
    }
    const discovery = record?.discovery;
    const metadata = discovery?.authorizationServerMetadata;
    const cimd = metadata?.client_id_metadata_document_supported === true && host.clientMetadataUrl();
    if (cimd) return undefined;
    // Registration: at the metadata's endpoint, or (a 2025-03-26 server without metadata) at /register of its origin.
    if (discovery && (metadata ? metadata.registration_endpoint : true)) {
      // Nothing is registered for a server the user has not chosen to sign in to (no request a server can cause without
      // a click).
      if (!host.consent.given) throw new SignInNeeded(host.server, 'the server requires you to sign in');
      const problem = endpointProblem(
        metadata?.registration_endpoint ?? new URL('/register', discovery.authorizationServerUrl),
      );
      if (problem)
        throw new EndpointRefused(`server "${host.server}": refused the registration endpoint: it ${problem}`);
      const registered = await registerClient(discovery.authorizationServerUrl, {
        metadata,
        // The SDK's defaults for a registration, `application_type` among them (SEP-837: native for a loopback or
        // custom-scheme redirect, web otherwise), never over what is set.
        clientMetadata: resolveClientMetadata({
          clientMetadata: host.clientMetadata(),
          redirectUrl: host.redirectUrl(),
        }),
        fetchFn: host.fetch(),
      });
      const info = { ...registered, redirect_uris: registered.redirect_uris ?? [host.redirectUrl()], ...stamp };
      await this.saveClientInformation(info);
      host.log.info(
        `registered a client with ${shortHost(new URL(discovery.authorizationServerUrl))} for the redirect ${host.redirectUrl()}`,
      );
      return info;
    }
    // No registration endpoint and no usable metadata document: the spec's last resort is the user.
    if (metadata && !metadata.registration_endpoint && host.ui.askClientId && (await host.consent.mayInteract(false))) {
      const id = (await host.ui.askClientId(host.server, metadata.issuer))?.trim();
      if (id) {
        await host.update((r) => ({ ...r, askedClientId: id, ...(issuer ? { askedFor: issuer } : {}) }));
        return { client_id: id, ...stamp };
      }
    }
    return undefined;
  }

  /**
   * The entry's pre-registered client ID goes only to the authorization server it was given for: its `oauth.issuer`,
   * else the one it was first used with (kept with the server's sign-in; Sign Out forgets it).
   */
  private async checkPreRegistered(clientId: string, issuer: string | undefined): Promise<void> {
    if (!issuer) return;
    const server = this.host.server;
    const given = this.host.config.oauth?.issuer;
    if (given) {
      if (!sameIssuer(given, issuer))
        throw new ClientSecretUnbound(
          server,
          `its client ID was given for ${given}, but the server now names ${issuer} as its authorization server; the client ID was not sent`,
        );
      return;
    }
    const first = (await this.host.record())?.preRegisteredFor;
    if (!first || first.clientId !== clientId) {
      await this.host.update((r) => ({ ...r, preRegisteredFor: { clientId, issuer } }));
      return;
    }
    if (!sameIssuer(first.issuer, issuer))
      throw new ClientSecretUnbound(
        server,
        `its client ID was used with ${first.issuer}, but the server now names ${issuer} as its authorization server; the client ID was not sent (if it belongs there, add "oauth.issuer": "${issuer}" to the entry)`,
      );
  }

  /**
   * The entry's client secret, only for the authorization server it is bound to (`oauth.issuer`).
   * An entry from before that binding is asked about once; without an answer, no secret goes.
   */
  private async boundSecret(secret: string, issuer: string | undefined): Promise<{ client_secret: string }> {
    const server = this.host.server;
    if (!issuer) throw new SignInNeeded(server, 'the authorization server is not known yet');
    const bound = this.host.config.oauth?.issuer ?? this.boundIssuer;
    if (!bound) {
      if (!(await this.host.consent.mayInteract(false)))
        throw new SignInNeeded(server, 'the server requires you to sign in');
      const ask = this.host.ui.bindClientSecret;
      if (!ask)
        throw new ClientSecretUnbound(
          server,
          `its "oauth.clientSecret" names no authorization server: if it belongs to ${issuer}, add "oauth.issuer": "${issuer}" to the entry`,
        );
      if (!(await ask(server, issuer)))
        throw new ClientSecretUnbound(
          server,
          `its client secret was not sent to ${issuer} (you did not confirm that it belongs there)`,
        );
      // The answer is written to the entry, which restarts the server: that start signs in with the secret.
      this.boundIssuer = issuer;
      throw new SignInNeeded(server, `its client secret is now bound to ${issuer}; signing in again`);
    }
    if (!sameIssuer(bound, issuer))
      throw new ClientSecretUnbound(
        server,
        `its client secret belongs to ${bound}, but the server now names ${issuer} as its authorization server; the secret was not sent`,
      );
    return { client_secret: secret };
  }

  async saveClientInformation(info: StoredOAuthClientInformation): Promise<void> {
    // A pre-registered or typed client ID is kept as it is; a secret from settings is never copied into the store.
    if (
      info.client_id === this.host.config.oauth?.clientId ||
      info.client_id === (await this.host.record())?.askedClientId
    )
      return;
    if (info.client_secret) this.host.secret(info.client_secret);
    await this.host.update((r) => ({ ...r, client: info }));
  }
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
