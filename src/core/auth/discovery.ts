// Which authorization server a server names, beyond what the SDK's discovery finds.
import {
  discoverAuthorizationServerMetadata,
  discoverOAuthProtectedResourceMetadata,
  type FetchLike,
  type OAuthDiscoveryState,
} from '@modelcontextprotocol/client';

/** The issuer a discovery found: the metadata's, else the authorization server's URL. */
export function issuerOf(state: OAuthDiscoveryState): string {
  return state.authorizationServerMetadata?.issuer ?? state.authorizationServerUrl;
}

/** Issuers compared as URLs (a trailing slash is not a different server). */
export function sameIssuer(a: string, b: string): boolean {
  const norm = (u: string) => u.replace(/\/+$/, '');
  return norm(a) === norm(b);
}

/**
 * A 2025-03-26 server has no protected-resource metadata and is its own authorization server:
 * its metadata sits at the root of its origin and may name a path of that origin as its issuer.
 * That issuer is accepted only then, and only on the server's own origin; undefined otherwise.
 */
export async function legacyDiscovery(url: string, fetchFn: FetchLike): Promise<OAuthDiscoveryState | undefined> {
  const prm = await discoverOAuthProtectedResourceMetadata(url, {}, fetchFn).catch(() => undefined);
  if (prm) return undefined;
  const root = new URL('/', url);
  const metadata = await discoverAuthorizationServerMetadata(root, { fetchFn, skipIssuerValidation: true }).catch(
    () => undefined,
  );
  if (!metadata || new URL(metadata.issuer).origin !== root.origin) return undefined;
  return { authorizationServerUrl: root.href, authorizationServerMetadata: metadata };
}
