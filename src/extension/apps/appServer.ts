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
 * Serves each app's document from this machine's loopback, at an address of its own that nobody
 * can guess, with its own Content-Security-Policy header. The chat frames it in a sandbox without
 * `allow-same-origin`, so the app runs in an opaque origin: not the chat's, not this server's. A
 * document loaded from `srcdoc` or `blob:` would carry the chat's own policy instead, and widening
 * that policy for one app would widen it for the chat.
 *
 * Only GET of a published address, only with this server's own Host (a page elsewhere that points
 * a name at 127.0.0.1 gets nothing); every response is uncacheable and sends no referrer.
 */
export class AppServer {
  private readonly apps = new Map<string, ServedApp>();

  private constructor(
    private readonly server: Server,
    readonly origin: string,
  ) {}

  static async start(): Promise<AppServer> {
    let self: AppServer | undefined;
    const server = createServer((req, res) => self?.handle(req, res));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    server.unref();
    const { port } = server.address() as AddressInfo;
    self = new AppServer(server, `http://127.0.0.1:${port}`);
    return self;
  }

  /** Publishes a document; the returned address serves it until `revoke`. */
  publish(app: ServedApp): { url: string; revoke: () => void } {
    const token = randomBytes(24).toString('base64url');
    this.apps.set(token, app);
    return { url: `${this.origin}/app/${token}`, revoke: () => this.apps.delete(token) };
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const deny = (code: number) => {
      res.writeHead(code, { 'Content-Type': 'text/plain', 'Cache-Control': 'no-store' });
      res.end();
    };
    if (req.headers.host !== this.origin.slice('http://'.length)) return deny(421);
    if (req.method !== 'GET') return deny(405);
    const match = /^\/app\/([A-Za-z0-9_-]{32})$/.exec(req.url ?? '');
    const app = match ? this.apps.get(match[1]!) : undefined;
    if (!app) return deny(404);
    res.writeHead(200, {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': app.csp,
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
