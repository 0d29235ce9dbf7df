/**
 * The Content Security Policy an app's document is served with. An app may run its own inline
 * scripts and styles (apps are single HTML files); everything it loads or reaches beyond that is
 * what its resource declares in `_meta.ui.csp` (`resourceDomains` for scripts, styles, images, fonts
 * and media; `connectDomains` for fetch and sockets; `frameDomains` for frames), and each declared
 * origin must be a plain origin: https or wss anywhere, http or ws only on this machine. Anything
 * else a server writes there (a quote, a semicolon, a keyword, a path) is dropped and reported.
 */

import { TRUSTED_TYPES_DIRECTIVES } from './appGuard';

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
  return {
    domains: {
      resourceDomains: read('resourceDomains'),
      connectDomains: read('connectDomains'),
      frameDomains: read('frameDomains'),
    },
    dropped,
  };
}

/**
 * The policy: inline code of the document itself, and the declared origins; nothing else. An app
 * that declares no frames gets Trusted Types too: every string that becomes HTML passes the guard's
 * default policy (appGuard.ts), which keeps frames out.
 */
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
    ...(frameDomains.length ? [] : TRUSTED_TYPES_DIRECTIVES),
  ].join('; ');
}

/**
 * The declared origins its server's sandbox lets it reach (THREATS.md, class 6): an app's network is
 * no wider than its server's. `allowedDomains` is the sandbox's list (`example.com`, `*.example.com`,
 * `localhost:8080`); an origin is kept when a listed host matches it (and its port, where one is
 * listed); what is dropped is said for the server's log.
 */
export function withinSandbox(
  domains: AppCspDomains,
  allowedDomains: readonly string[],
): { domains: AppCspDomains; dropped: string[] } {
  const dropped: string[] = [];
  const keep = (key: keyof AppCspDomains) =>
    domains[key].filter((origin) => {
      const ok = reachable(origin, allowedDomains);
      if (!ok) dropped.push(`${key}: ${JSON.stringify(origin)} (its server's sandbox does not reach it)`);
      return ok;
    });
  return {
    domains: {
      resourceDomains: keep('resourceDomains'),
      connectDomains: keep('connectDomains'),
      frameDomains: keep('frameDomains'),
    },
    dropped,
  };
}

const DEFAULT_PORTS: Record<string, string> = { 'https:': '443', 'wss:': '443', 'http:': '80', 'ws:': '80' };

function reachable(origin: string, allowed: readonly string[]): boolean {
  const m = /^([a-z]+:)\/\/(\*\.)?([^:/]+|\[[^\]]+\])(?::(\d+))?$/i.exec(origin);
  if (!m) return false;
  const [, scheme = '', wild, host = '', port = DEFAULT_PORTS[scheme.toLowerCase()] ?? ''] = m;
  return allowed.some((entry) => {
    const e = /^(\*\.)?(.+?)(?::(\d+))?$/.exec(entry.toLowerCase());
    if (!e) return false;
    const [, eWild, eHost = '', ePort] = e;
    if (ePort !== undefined && ePort !== port) return false;
    // A wildcard origin only under a wildcard as wide; a host under its own name or a wildcard above it.
    if (wild) return !!eWild && (host === eHost || host.endsWith(`.${eHost}`));
    return eWild ? host.endsWith(`.${eHost}`) : host === eHost;
  });
}
