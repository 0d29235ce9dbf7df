import { isLoopbackHostname } from '../net/addresses';
import { readTextCapped } from '../net/limits';
import { unreachableCause } from '../net/unreachable';
import { errorMessage } from '../toolRegistry/toolRegistry';
import { parseRegistryServer, registryText, type RegistryServer } from './serverJson';

/**
 * A client of an MCP registry's read-only API (v0.1): `GET /v0.1/servers` (search, cursor,
 * updated_since), `/v0.1/servers/{name}/versions` and `/v0.1/servers/{name}/versions/{version}`.
 * Every answer is read within a size and a time bound; a document that breaks the schema's rules
 * is left out and reported, not the page it came in.
 */

type Fetch = (input: string | URL, init?: RequestInit) => Promise<Response>;

export interface RegistryLimits {
  /** The largest answer read (bytes). */
  bodyBytes: number;
  /** How long one request may take (ms). */
  timeoutMs: number;
  /** The most pages one listing reads. */
  maxPages: number;
}

export const DEFAULT_REGISTRY_LIMITS: RegistryLimits = { bodyBytes: 5 * 1024 * 1024, timeoutMs: 15_000, maxPages: 50 };

export interface ListOptions {
  search?: string;
  /** Only servers changed since (RFC 3339). */
  updatedSince?: string;
  /** Servers per page (the registry may give fewer). */
  limit?: number;
}

export interface Listing {
  servers: RegistryServer[];
  /** Documents left out, each with why (named by server where it had a name). */
  skipped: string[];
  /** True when more pages were listed than `maxPages` allowed. */
  truncated: boolean;
}

export class RegistryError extends Error {}

/** The registry gave no answer at all: `why` in words (no such host, refused, no answer in time). */
export class RegistryUnreachable extends RegistryError {
  constructor(
    /** The registry's base URL. */
    readonly registry: string,
    readonly why: string,
    message: string,
  ) {
    super(message);
  }
}

export class RegistryClient {
  private readonly base: URL;

  constructor(
    url: string,
    private readonly limits: RegistryLimits = DEFAULT_REGISTRY_LIMITS,
    private readonly fetchImpl: Fetch = fetch,
  ) {
    const base = parseRegistryUrl(url);
    if (typeof base === 'string') throw new RegistryError(base);
    this.base = base;
  }

  get url(): string {
    return this.base.href;
  }

  /** The latest version of each server, every page followed (up to the page bound). */
  async list(options: ListOptions = {}): Promise<Listing> {
    const out: Listing = { servers: [], skipped: [], truncated: false };
    let cursor: string | undefined;
    for (let page = 0; ; page++) {
      if (page >= this.limits.maxPages) {
        out.truncated = true;
        break;
      }
      const query: Record<string, string> = { version: 'latest', limit: String(options.limit ?? 100) };
      if (options.search) query.search = options.search;
      if (options.updatedSince) query.updated_since = options.updatedSince;
      if (cursor) query.cursor = cursor;
      const body = await this.get('servers', query);
      const items = isObject(body) && Array.isArray(body.servers) ? body.servers : undefined;
      if (!items) throw new RegistryError(`${this.base.origin}: the server list is not { servers: [...] }`);
      this.collect(items, out);
      const meta = isObject(body) && isObject(body.metadata) ? body.metadata : {};
      const next = meta.nextCursor ?? meta.next_cursor;
      if (typeof next !== 'string' || !next || next === cursor) break;
      cursor = next;
    }
    return out;
  }

  /** One version of a server (`latest` by default). */
  async version(name: string, version = 'latest'): Promise<RegistryServer> {
    const body = await this.get(`servers/${encodeURIComponent(name)}/versions/${encodeURIComponent(version)}`);
    try {
      return parseRegistryServer(body);
    } catch (err) {
      throw new RegistryError(`${this.base.origin}: ${name}@${version}: ${errorMessage(err)}`);
    }
  }

  /** Every version the registry lists of a server. */
  async versions(name: string): Promise<Listing> {
    const body = await this.get(`servers/${encodeURIComponent(name)}/versions`);
    const items = isObject(body) && Array.isArray(body.servers) ? body.servers : undefined;
    if (!items)
      throw new RegistryError(
        `${this.base.origin}: the versions of ${registryText(name, 100)} are not { servers: [...] }`,
      );
    const out: Listing = { servers: [], skipped: [], truncated: false };
    this.collect(items, out);
    return out;
  }

  private collect(items: unknown[], out: Listing): void {
    for (const item of items) {
      try {
        out.servers.push(parseRegistryServer(item));
      } catch (err) {
        out.skipped.push(errorMessage(err));
      }
    }
  }

  private async get(path: string, query: Record<string, string> = {}): Promise<unknown> {
    const url = new URL(`v0.1/${path}`, this.base);
    for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
    const where = `${this.base.origin}${url.pathname}`;
    let response: Response;
    try {
      response = await this.fetchImpl(url, {
        headers: { accept: 'application/json' },
        redirect: 'error',
        signal: AbortSignal.timeout(this.limits.timeoutMs),
      });
    } catch (err) {
      if ((err as { name?: string }).name === 'TimeoutError')
        throw new RegistryUnreachable(
          this.base.href,
          `no answer within ${this.limits.timeoutMs / 1000} s`,
          `${where} did not answer within ${this.limits.timeoutMs / 1000} s`,
        );
      const why = unreachableCause(err, url);
      throw new RegistryUnreachable(this.base.href, why, `cannot reach ${where}: ${why}`);
    }
    if (response.status === 404) {
      void response.body?.cancel().catch(() => undefined);
      throw new RegistryError(`${where}: not found (404)`);
    }
    if (!response.ok) {
      void response.body?.cancel().catch(() => undefined);
      throw new RegistryError(`${where}: HTTP ${response.status}`);
    }
    const text = await readTextCapped(response, this.limits.bodyBytes + 1);
    if (text.length > this.limits.bodyBytes)
      throw new RegistryError(
        `${where}: the answer is larger than ${Math.round(this.limits.bodyBytes / 1024 / 1024)} MB; not read`,
      );
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new RegistryError(`${where}: the answer is not JSON`);
    }
  }
}

/** A registry's base URL: https (http only on this machine), no credentials; a string says what is wrong. */
export function parseRegistryUrl(text: string): URL | string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return `"${registryText(text, 200)}" is not a URL`;
  }
  if (url.username || url.password) return `${url.origin}: a registry URL must not hold credentials`;
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackHostname(url.hostname)))
    return `${url.origin}: a registry must be https (http only on this machine)`;
  // The API lives under the base: `https://host/` and `https://host/v0.1` name the same registry.
  url.pathname = `${url.pathname.replace(/\/v0(\.1)?\/?$/, '/').replace(/\/?$/, '/')}`;
  url.search = '';
  url.hash = '';
  return url;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return !!value && typeof value === 'object' && !Array.isArray(value);
}
