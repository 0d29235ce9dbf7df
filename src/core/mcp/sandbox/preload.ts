import { join } from 'node:path';

/**
 * The module every Node process of a sandboxed server loads first (netPreload.cjs): beside this
 * file in the sources, beside the bundle in dist/ (the build copies it).
 */
export function preloadPath(): string {
  return join(__dirname, 'netPreload.cjs');
}

/** The loopback hosts among the allowed ones: these go through the proxy, other loopback stays in the sandbox. */
export function loopbackHosts(allowedDomains: readonly string[]): string[] {
  return allowedDomains.filter((d) => /^(localhost|127\.\d+\.\d+\.\d+|\[::1\]):\d+$/.test(d));
}
