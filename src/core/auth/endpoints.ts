import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { ADDRESS_RANK, addressClass, isLoopbackHostname, type AddressClass } from '../net/addresses';

/**
 * Why an OAuth endpoint (authorization, token, registration, metadata) a server or its metadata
 * named may not be used, or undefined when it may: only https, and plain http on this machine.
 * `file:`, `vscode:`, `ms-msdt:`, `smb:` and the like would hand the user's browser or editor to
 * whoever wrote the metadata. The address itself is never echoed (server-written text).
 */
export function endpointProblem(url: string | URL): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'is not a URL';
  }
  if (parsed.protocol === 'https:') return undefined;
  if (parsed.protocol === 'http:')
    return isLoopbackHostname(parsed.hostname)
      ? undefined
      : `uses plain http to ${shortHost(parsed)} (OAuth endpoints must be https, or http on this machine)`;
  return `uses the scheme "${parsed.protocol.slice(0, 20).replace(/[^a-z0-9+.:-]/gi, '?')}" (OAuth endpoints must be https, or http on this machine)`;
}

/** A host for a message: bounded, and only the characters a host name has. */
export function shortHost(url: URL): string {
  const host = url.host.replace(/[^a-z0-9.:[\]-]/gi, '?');
  return host.length > 80 ? `${host.slice(0, 80)}…` : host;
}

/**
 * Where a server's sign-in requests may go: to places no closer than the server itself. A server
 * on the internet may not make MinAgent reach this machine or the local network (blind SSRF through
 * `resource_metadata`, a registration endpoint or a redirect); a server on the local network may
 * reach the local network; one on this machine anywhere.
 */
export class AddressPolicy {
  private serverClass: Promise<AddressClass> | undefined;

  constructor(
    private readonly serverUrl: string,
    private readonly resolve: (host: string) => Promise<string[]> = defaultResolve,
  ) {}

  /** The server's own class (its least privileged address, when it has several). */
  server(): Promise<AddressClass> {
    this.serverClass ??= (async () => {
      const host = new URL(this.serverUrl).hostname.replace(/^\[|\]$/g, '');
      if (isIP(host)) return addressClass(host);
      if (isLoopbackHostname(host)) return 'loopback';
      const addresses = await this.resolve(host).catch(() => [] as string[]);
      if (!addresses.length) return 'public';
      return addresses.map(addressClass).reduce((a, b) => (ADDRESS_RANK[a] <= ADDRESS_RANK[b] ? a : b));
    })();
    return this.serverClass;
  }

  /** Why `address` may not be reached for this server's sign-in, or undefined. */
  check(address: string, serverClass: AddressClass): string | undefined {
    const target = addressClass(address);
    if (ADDRESS_RANK[target] <= ADDRESS_RANK[serverClass]) return undefined;
    const where = target === 'loopback' ? 'this machine' : 'the local network';
    return `${address} is on ${where}, and the server is ${serverClass === 'public' ? 'on the internet' : 'on the local network'}`;
  }
}

async function defaultResolve(host: string): Promise<string[]> {
  return (await lookup(host, { all: true })).map((a) => a.address);
}
