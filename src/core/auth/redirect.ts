import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Where the browser comes back after the user signs in: a loopback address (the CLI, and the
 * editor where the server allows only that) or the editor's URI handler. Each authorization server
 * has a redirect of its own (RFC 9700 4.4.2, the mix-up defence), and each sign-in's `state` is
 * bound to the redirect it was started with: a callback that comes back through another
 * authorization server's redirect is refused, and the sign-in it names fails.
 */
export interface RedirectReceiver {
  /** The redirect URI for sign-ins with this authorization server (the same every time for one issuer). */
  redirectUrlFor(issuer: string | undefined): string;
  /**
   * The callback's query for this sign-in, or a rejection when `signal` aborts or the callback came back through
   * another route.
   */
  wait(binding: CallbackBinding, signal?: AbortSignal): Promise<URLSearchParams>;
}

/** What one sign-in waits for: its `state`, through the route of its authorization server. */
export interface CallbackBinding {
  state: string;
  route: string;
}

/**
 * The redirect path segment of an authorization server: its host (readable, so a pre-registered
 * client can register it) and a hash of the whole issuer. Deterministic: the same issuer always
 * gets the same route.
 */
export function redirectRoute(issuer: string | undefined): string {
  if (!issuer) return 'pending';
  let host = 'issuer';
  try {
    host =
      new URL(issuer).host
        .toLowerCase()
        .replace(/[^a-z0-9.-]/g, '-')
        .slice(0, 60) || 'issuer';
  } catch {
    // not a URL: the hash alone tells issuers apart
  }
  return `${host}-${createHash('sha256').update(issuer).digest('hex').slice(0, 10)}`;
}

/** The callback came back through another authorization server's redirect: a mix-up attempt. */
export class MixUpRefused extends Error {}

export type Delivery = 'delivered' | 'unknown' | 'refused';

/** Waiters by `state`, each bound to its route; both receivers deliver through it. */
export class PendingCallbacks {
  private readonly waiters = new Map<
    string,
    { route: string; resolve: (params: URLSearchParams) => void; reject: (err: Error) => void }
  >();

  wait(binding: CallbackBinding, signal?: AbortSignal): Promise<URLSearchParams> {
    const { state, route } = binding;
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        this.waiters.delete(state);
        reject(new Error('sign-in was cancelled'));
      };
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      const settle = () => signal?.removeEventListener('abort', onAbort);
      this.waiters.set(state, {
        route,
        resolve: (params) => (settle(), resolve(params)),
        reject: (err) => (settle(), reject(err)),
      });
    });
  }

  /**
   * Delivers a callback that arrived through `route`: `unknown` when no sign-in waits for its
   * `state` (stale or forged), `refused` when the sign-in it names was sent to another
   * authorization server (that sign-in then fails; nothing of the callback is used).
   */
  deliver(route: string, params: URLSearchParams): Delivery {
    const state = params.get('state');
    const waiter = state ? this.waiters.get(state) : undefined;
    if (!state || !waiter) return 'unknown';
    this.waiters.delete(state);
    if (waiter.route !== route) {
      waiter.reject(
        new MixUpRefused(
          "mix-up refused: the browser came back through another authorization server's address than the one this sign-in was sent to; nothing was sent",
        ),
      );
      return 'refused';
    }
    waiter.resolve(params);
    return 'delivered';
  }
}

const PAGE = (text: string) => `<!doctype html><meta charset="utf-8"><title>MinAgent</title><p>${text}</p>`;
const PAGES: Record<Delivery, [number, string]> = {
  delivered: [200, 'Signed in. You can close this tab and return to MinAgent.'],
  unknown: [400, 'This sign-in link is not expected (it may be old). Start the sign-in again from MinAgent.'],
  refused: [
    400,
    'This sign-in came back from another authorization server than the one it was sent to, and was refused. Nothing was sent. Start the sign-in again from MinAgent.',
  ],
};

/** A loopback redirect (RFC 8252): `http://127.0.0.1:PORT/callback/<route>`, listening only on 127.0.0.1. */
export class LoopbackReceiver implements RedirectReceiver {
  private readonly pending = new PendingCallbacks();

  private constructor(
    private readonly server: Server,
    readonly base: string,
  ) {}

  static async start(): Promise<LoopbackReceiver> {
    let receiver: LoopbackReceiver | undefined;
    const server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const route = /^\/callback\/([a-z0-9.-]{1,80})$/.exec(url.pathname)?.[1];
      if (req.method !== 'GET' || !route) {
        res.writeHead(404).end();
        return;
      }
      const [status, text] = PAGES[receiver?.pending.deliver(route, url.searchParams) ?? 'unknown'];
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      res.end(PAGE(text));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    server.unref();
    receiver = new LoopbackReceiver(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`);
    return receiver;
  }

  redirectUrlFor(issuer: string | undefined): string {
    return `${this.base}/${redirectRoute(issuer)}`;
  }

  private waiting = 0;

  /**
   * Waits for the browser; while anyone waits, the listener keeps the process alive (a CLI has nothing else running).
   */
  wait(binding: CallbackBinding, signal?: AbortSignal): Promise<URLSearchParams> {
    if (this.waiting++ === 0) this.server.ref();
    const done = () => {
      if (--this.waiting === 0) this.server.unref();
    };
    const result = this.pending.wait(binding, signal);
    result.then(done, done);
    return result;
  }

  dispose(): Promise<void> {
    return new Promise((resolve) => {
      this.server.closeIdleConnections();
      this.server.close(() => resolve());
    });
  }
}
