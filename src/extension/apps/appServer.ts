import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One app document as served: its HTML and the policy that goes with it. */
export interface ServedApp {
  html: string;
  csp: string;
  clipboardWrite: boolean;
}

/**
 * Where the browser that shows the chat reaches a loopback address of the extension host: the address
 * itself when both are on one machine, or the editor's forwarding of it (`asExternalUri`: code-server's
 * `/proxy/<port>/`, a remote window's forwarded port). Throws or returns the same address where there
 * is nothing to forward.
 */
export type Externalize = (loopback: string) => Promise<string>;

/**
 * Serves each app's document from this machine's loopback, at an address of its own that nobody
 * can guess, with its own Content-Security-Policy header. The chat frames it in a sandbox without
 * `allow-same-origin`, so the app runs in an opaque origin: not the chat's, not this server's. A
 * document loaded from `srcdoc` or `blob:` would carry the chat's own policy instead, and widening
 * that policy for one app would widen it for the chat. The policy sandboxes the document as well:
 * forwarded through code-server it is served from the editor's own origin, and a frame or a tab that
 * opened it without the sandbox attribute would otherwise run it as the editor.
 *
 * Only GET of a published address, only with this server's own Host or its forwarded one (a page
 * elsewhere that points a name at 127.0.0.1 gets nothing); every response is uncacheable and sends
 * no referrer.
 */
export class AppServer {
  private readonly apps = new Map<string, ServedApp>();

  private constructor(
    private readonly server: Server,
    /** The address every document is published under, ending in "/": the loopback, or its forwarding. */
    private readonly base: URL,
    /** The Host headers a request may carry: the loopback's, and the forwarding's (which keeps the browser's). */
    private readonly hosts: ReadonlySet<string>,
  ) {}

  static async start(externalize?: Externalize): Promise<AppServer> {
    let self: AppServer | undefined;
    const server = createServer((req, res) => self?.handle(req, res));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    server.unref();
    const { port } = server.address() as AddressInfo;
    const loopback = new URL(`http://127.0.0.1:${port}/`);
    const base = await forwarded(loopback, externalize);
    self = new AppServer(server, base, new Set([loopback.host, base.host]));
    return self;
  }

  /**
   * Where the apps' documents are served from, as a frame-src source: the origin, and the forwarding's path where
   * there is one (a path-prefixed forwarding frames only this server, not all of the editor's origin).
   */
  get origin(): string {
    return this.base.pathname === '/' ? this.base.origin : this.base.href;
  }

  /** Publishes a document; the returned address serves it until `revoke`. */
  publish(app: ServedApp): { url: string; revoke: () => void } {
    const token = randomBytes(24).toString('base64url');
    this.apps.set(token, app);
    return { url: new URL(`app/${token}`, this.base).href, revoke: () => this.apps.delete(token) };
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const deny = (code: number) => {
      res.writeHead(code, { 'Content-Type': 'text/plain', 'Cache-Control': 'no-store' });
      res.end();
    };
    if (!this.hosts.has(req.headers.host ?? '')) return deny(421);
    if (req.method !== 'GET') return deny(405);
    // Its own path, or the forwarding's where that passes its prefix on (code-server's /absproxy/).
    const path = req.url ?? '';
    const own = path.startsWith(this.base.pathname) ? path.slice(this.base.pathname.length - 1) : path;
    const match = /^\/app\/([A-Za-z0-9_-]{32})$/.exec(own);
    const app = match ? this.apps.get(match[1]!) : undefined;
    if (!app) return deny(404);
    res.writeHead(200, {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': `${app.csp}; sandbox allow-scripts`,
      'Cache-Control': 'no-store',
      'Referrer-Policy': 'no-referrer',
      'X-Content-Type-Options': 'nosniff',
      'Cross-Origin-Opener-Policy': 'same-origin',
      'Permissions-Policy': `camera=(), microphone=(), geolocation=(), display-capture=(), clipboard-read=()${app.clipboardWrite ? '' : ', clipboard-write=()'}`,
    });
    res.end(app.html);
  }

  dispose(): void {
    this.apps.clear();
    this.server.close();
    this.server.closeAllConnections();
  }
}

/** The forwarding of `loopback` as an address ending in "/", or the loopback itself (nothing to forward, no answer). */
async function forwarded(loopback: URL, externalize: Externalize | undefined): Promise<URL> {
  if (!externalize) return loopback;
  try {
    const external = new URL(await externalize(loopback.href));
    if (external.protocol !== 'http:' && external.protocol !== 'https:') return loopback;
    external.search = '';
    external.hash = '';
    if (!external.pathname.endsWith('/')) external.pathname += '/';
    return external;
  } catch {
    return loopback;
  }
}
