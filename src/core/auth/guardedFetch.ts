import type { FetchLike } from '@modelcontextprotocol/client';
import { originOf } from '../models/origins';
import { AddressRefused, pinnedFetch } from '../net/pinnedFetch';
import { AddressPolicy, endpointProblem, shortHost } from './endpoints';

export interface FetchGuard {
  /** The server entry's name, for messages. */
  server: string;
  /** The MCP server's URL: the only origin that gets the entry's headers and the access token. */
  serverUrl: string;
  /** Names of the headers the server entry sets (they may hold API keys). */
  headerNames: readonly string[];
  /** The authorization server's issuer, once discovery found it. */
  issuer(): string | undefined;
  /** Hears each refusal (the SDK may swallow the error and try its next discovery address). */
  onRefused?(message: string): void;
  /** Where the server's sign-in requests may go (tests give their own resolver). */
  policy?: AddressPolicy;
  /** Hears a 401 to a request of the server's that carried a token: its authorization server may have changed. */
  onTokenRejected?(): void;
}

/** Thrown instead of sending a credential where it does not belong. */
export class CredentialOriginError extends Error {}

/** Thrown instead of a sign-in request to an endpoint or address the server may not make us reach. */
export class EndpointRefused extends Error {}

/** Redirects a discovery GET may follow, each hop checked like the first. */
const MAX_HOPS = 3;
/** Metadata, registration and token replies are small; a bigger one is cut. */
const SIGN_IN_REPLY_BYTES = 256 * 1024;
const SIGN_IN_REQUEST_MS = 30_000;

/**
 * Every request of a server's connection and of its sign-in goes through this:
 * - the entry's headers and any bearer token go only to the server's own origin;
 * - an authorization code or refresh token goes only to the authorization server's own origin
 *   (metadata that points its token endpoint elsewhere is refused, not followed);
 * - a sign-in request that leaves the server's origin (and any `/.well-known/` discovery request)
 *   goes only to an https endpoint (http on this machine), only to addresses no closer than the
 *   server itself (checked on the address connected to), and follows a redirect only after the
 *   same checks.
 */
export function guardedFetch(base: FetchLike, guard: FetchGuard): FetchLike {
  const serverOrigin = new URL(guard.serverUrl).origin;
  const names = new Set(guard.headerNames.map((n) => n.toLowerCase()));
  const policy = guard.policy ?? new AddressPolicy(guard.serverUrl);
  const refuse = (message: string): never => {
    const text = `server "${guard.server}": ${message}`;
    guard.onRefused?.(text);
    throw new EndpointRefused(text);
  };
  const outbound = async (target: URL, init: RequestInit | undefined): Promise<Response> => {
    const serverClass = await policy.server();
    const send = pinnedFetch({
      check: (address) => policy.check(address, serverClass),
      maxBytes: SIGN_IN_REPLY_BYTES,
      timeoutMs: SIGN_IN_REQUEST_MS,
    });
    let url = target;
    for (let hop = 0; ; hop++) {
      let response: Response;
      try {
        response = await send(url, init);
      } catch (err) {
        if (err instanceof AddressRefused)
          refuse(`refused a sign-in request to ${shortHost(url)}: ${(err as Error).message}`);
        throw err;
      }
      const location = response.headers.get('location');
      const method = (init?.method ?? 'GET').toUpperCase();
      if (response.status < 300 || response.status > 399 || !location || method !== 'GET' || hop >= MAX_HOPS)
        return response;
      const next = new URL(location, url);
      const problem = endpointProblem(next);
      if (problem) refuse(`refused a redirect of a sign-in request: the next address ${problem}`);
      if (next.origin !== url.origin) init = { ...init, headers: stripCredentials(init?.headers, names) };
      url = next;
    }
  };
  return async (url, init) => {
    const target = new URL(url);
    const discovery = target.pathname.startsWith('/.well-known/');
    if (target.origin === serverOrigin && !discovery) {
      const response = await base(url, init);
      if (response.status === 401 && /^bearer\s/i.test(new Headers(init?.headers).get('authorization') ?? ''))
        guard.onTokenRejected?.();
      return response;
    }
    if (target.origin === serverOrigin) return outbound(target, init);
    const problem = endpointProblem(target);
    if (problem) refuse(`refused a sign-in endpoint that ${problem}`);
    const headers = stripCredentials(init?.headers, names);
    const grant = grantType(init?.body);
    if (grant === 'authorization_code' || grant === 'refresh_token') {
      const issuer = guard.issuer();
      const issuerOrigin = issuer ? originOf(issuer) : undefined;
      if (!issuerOrigin || issuerOrigin !== target.origin) {
        throw new CredentialOriginError(
          `refused to send ${grant === 'refresh_token' ? 'a refresh token' : 'an authorization code'} to ${target.origin}: the token endpoint is not on the authorization server's origin (${issuerOrigin ?? 'unknown'})`,
        );
      }
    }
    return outbound(target, { ...init, headers });
  };
}

/** The headers without the entry's own (they may hold keys) and without a bearer or DPoP token. */
function stripCredentials(init: HeadersInit | undefined, names: Set<string>): Headers {
  const headers = new Headers(init);
  for (const name of names) headers.delete(name);
  if (/^(bearer|dpop)\s/i.test(headers.get('authorization') ?? '')) headers.delete('authorization');
  return headers;
}

function grantType(body: unknown): string | undefined {
  if (body instanceof URLSearchParams) return body.get('grant_type') ?? undefined;
  if (typeof body === 'string') return new URLSearchParams(body).get('grant_type') ?? undefined;
  return undefined;
}
