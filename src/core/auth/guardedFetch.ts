import type { FetchLike } from '@modelcontextprotocol/client';

export interface FetchGuard {
  /** The MCP server's URL: the only origin that gets the entry's headers and the access token. */
  serverUrl: string;
  /** Names of the headers the server entry sets (they may hold API keys). */
  headerNames: readonly string[];
  /** The authorization server's issuer, once discovery found it. */
  issuer(): string | undefined;
}

/** Thrown instead of sending a credential where it does not belong. */
export class CredentialOriginError extends Error {}

/**
 * Every request of a server's connection and of its sign-in goes through this:
 * - the entry's headers and any bearer token go only to the server's own origin;
 * - an authorization code or refresh token goes only to the authorization server's own origin
 *   (metadata that points its token endpoint elsewhere is refused, not followed).
 */
export function guardedFetch(base: FetchLike, guard: FetchGuard): FetchLike {
  const serverOrigin = new URL(guard.serverUrl).origin;
  const names = new Set(guard.headerNames.map((n) => n.toLowerCase()));
  return async (url, init) => {
    const target = new URL(url);
    if (target.origin === serverOrigin) return base(url, init);
    const headers = new Headers(init?.headers);
    for (const name of names) headers.delete(name);
    if (/^(bearer|dpop)\s/i.test(headers.get('authorization') ?? '')) headers.delete('authorization');
    const grant = grantType(init?.body);
    if (grant === 'authorization_code' || grant === 'refresh_token') {
      const issuer = guard.issuer();
      const issuerOrigin = issuer ? safeOrigin(issuer) : undefined;
      if (!issuerOrigin || issuerOrigin !== target.origin) {
        throw new CredentialOriginError(
          `refused to send ${grant === 'refresh_token' ? 'a refresh token' : 'an authorization code'} to ${target.origin}: the token endpoint is not on the authorization server's origin (${issuerOrigin ?? 'unknown'})`,
        );
      }
    }
    return base(url, { ...init, headers });
  };
}

function grantType(body: unknown): string | undefined {
  if (body instanceof URLSearchParams) return body.get('grant_type') ?? undefined;
  if (typeof body === 'string') return new URLSearchParams(body).get('grant_type') ?? undefined;
  return undefined;
}

function safeOrigin(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}
