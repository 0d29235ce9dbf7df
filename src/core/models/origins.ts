/**
 * Where a provider key may go. A stored key is bound to one origin (scheme, host and port): the one
 * the user entered it for. A request to another origin carries the key only once the user has
 * confirmed that origin; plain http leaves the machine only to an origin the user confirmed. Pure
 * functions: the extension keeps the bound and confirmed origins and asks the user.
 */

export type OriginCheck =
  | { kind: 'invalid'; message: string }
  /** The request may go as it is (with the key when there is one). */
  | { kind: 'ok'; origin: string }
  /** The user must confirm `origin` first; `reasons` say why (both may apply). */
  | { kind: 'confirm'; origin: string; host: string; reasons: OriginReason[] };

/** Why an origin needs the user: the key is bound elsewhere, plain http off this machine, a workspace chose it. */
export type OriginReason = 'key' | 'plainHttp' | 'workspace';

export interface OriginPolicyInput {
  baseUrl: string;
  /** The origin the stored key is bound to; undefined when there is no key. */
  keyOrigin?: string;
  /** Origins the user confirmed (for the key, for plain http and for a workspace's choice). */
  confirmed: readonly string[];
  /**
   * The base URL comes from a workspace's settings, not the user's: its origin gets nothing (not a
   * request, not a probe) until the user confirmed it, key or no key, unless it is an origin the
   * user chose themselves (`userOrigins`: their own models' base URLs, else the vendor's) or the key's.
   */
  fromWorkspace?: boolean;
  userOrigins?: readonly string[];
}

/** The origin of a URL (`https://api.openai.com`), or undefined when it is not a URL. */
export function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

/** True for localhost, 127.0.0.0/8 and ::1: plain http there never leaves the machine. */
export function isLoopback(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return false;
  }
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host === '[::1]' ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)
  );
}

/** Decides whether a request to `baseUrl` may go now, and with the key or not. */
export function checkOrigin({
  baseUrl,
  keyOrigin,
  confirmed,
  fromWorkspace,
  userOrigins = [],
}: OriginPolicyInput): OriginCheck {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return { kind: 'invalid', message: `the base URL "${baseUrl}" is not a URL` };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return { kind: 'invalid', message: `the base URL must use https or http, not ${url.protocol.replace(/:$/, '')}` };
  if (url.username || url.password)
    return {
      kind: 'invalid',
      message: 'the base URL must not carry a user name or password; keep the key in MinAgent: Set API Key',
    };
  const origin = url.origin;
  if (confirmed.includes(origin)) return { kind: 'ok', origin };
  const reasons: OriginReason[] = [];
  if (keyOrigin !== undefined && keyOrigin !== origin) reasons.push('key');
  if (url.protocol === 'http:' && !isLoopback(baseUrl)) reasons.push('plainHttp');
  if (fromWorkspace && !userOrigins.includes(origin) && origin !== keyOrigin) reasons.push('workspace');
  return reasons.length ? { kind: 'confirm', origin, host: url.host, reasons } : { kind: 'ok', origin };
}

/** Whether a redirect from `from` to `location` may be followed: only within the same origin. */
export function redirectAllowed(from: string, location: string): boolean {
  try {
    return new URL(location, from).origin === new URL(from).origin;
  } catch {
    return false;
  }
}

/**
 * The origin a key is bound to when it is stored (or, for a key stored before binding existed,
 * when it is first used): the first of the user's own base URLs for this provider (the model being
 * set up or selected first), else the vendor's default. Only user-scope values are passed in: a
 * workspace never decides where a key belongs.
 */
export function keyOriginFor(vendorDefault: string, userBaseUrls: readonly string[]): string {
  for (const url of userBaseUrls) {
    const origin = originOf(url);
    if (origin) return origin;
  }
  return originOf(vendorDefault)!;
}
