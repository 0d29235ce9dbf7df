/**
 * The Content Security Policy an app's document is served with. An app may run its own inline
 * scripts and styles (apps are single HTML files); everything it loads or reaches beyond that is
 * what its resource declares in `_meta.ui.csp` (`resourceDomains` for scripts, styles, images, fonts
 * and media; `connectDomains` for fetch and sockets; `frameDomains` for frames), and each declared
 * origin must be a plain origin: https or wss anywhere, http or ws only on this machine. Anything
 * else a server writes there (a quote, a semicolon, a keyword, a path) is dropped and reported.
 */

export interface AppCspDomains {
  resourceDomains: string[];
  connectDomains: string[];
  frameDomains: string[];
}

const REMOTE = /^(https|wss):\/\/(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*(:\d{1,5})?$/i;
const LOCAL = /^(http|ws):\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d{1,5})?$/i;
const MAX_DOMAINS = 32;

/** The declared origins that may go into a policy, and what was dropped (for the server's log). */
export function appCspDomains(csp: unknown): { domains: AppCspDomains; dropped: string[] } {
  const dropped: string[] = [];
  const read = (key: keyof AppCspDomains): string[] => {
    const list = typeof csp === 'object' && csp !== null ? (csp as Record<string, unknown>)[key] : undefined;
    if (list === undefined) return [];
    if (!Array.isArray(list)) {
      dropped.push(`${key} (not a list)`);
      return [];
    }
    const kept: string[] = [];
    for (const d of list.slice(0, MAX_DOMAINS)) {
      if (typeof d === 'string' && (REMOTE.test(d) || LOCAL.test(d))) kept.push(d.toLowerCase());
      else dropped.push(`${key}: ${JSON.stringify(typeof d === 'string' ? d.slice(0, 80) : d)}`);
    }
    if (list.length > MAX_DOMAINS) dropped.push(`${key}: ${list.length - MAX_DOMAINS} past the first ${MAX_DOMAINS}`);
    return kept;
  };
  return { domains: { resourceDomains: read('resourceDomains'), connectDomains: read('connectDomains'), frameDomains: read('frameDomains') }, dropped };
}

/** The policy: inline code of the document itself, and the declared origins; nothing else. */
export function appCsp({ resourceDomains, connectDomains, frameDomains }: AppCspDomains): string {
  const list = (base: string[], extra: string[]) => [...base, ...extra].join(' ') || "'none'";
  return [
    "default-src 'none'",
    `script-src ${list(["'unsafe-inline'"], resourceDomains)}`,
    `style-src ${list(["'unsafe-inline'"], resourceDomains)}`,
    `img-src ${list(['data:', 'blob:'], resourceDomains)}`,
    `font-src ${list(['data:'], resourceDomains)}`,
    `media-src ${list(['data:', 'blob:'], resourceDomains)}`,
    `connect-src ${list([], connectDomains)}`,
    `frame-src ${list([], frameDomains)}`,
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}
