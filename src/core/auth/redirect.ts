import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Where the browser comes back after the user signs in: a loopback address (the CLI, and the
 * editor where the server allows only that) or the editor's URI handler. It hands each callback to
 * the sign-in waiting for that `state`; a callback nobody waits for is dropped.
 */
export interface RedirectReceiver {
  readonly redirectUrl: string;
  /** The callback's query for this `state`, or a rejection when `signal` aborts. */
  wait(state: string, signal?: AbortSignal): Promise<URLSearchParams>;
}

/** Waiters by `state`; both receivers deliver through it. */
export class PendingCallbacks {
  private readonly waiters = new Map<string, (params: URLSearchParams) => void>();

  wait(state: string, signal?: AbortSignal): Promise<URLSearchParams> {
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        this.waiters.delete(state);
        reject(new Error('sign-in was cancelled'));
      };
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiters.set(state, (params) => {
        signal?.removeEventListener('abort', onAbort);
        resolve(params);
      });
    });
  }

  /** Delivers a callback; false when no sign-in waits for its `state` (a stale or forged callback). */
  deliver(params: URLSearchParams): boolean {
    const state = params.get('state');
    const waiter = state ? this.waiters.get(state) : undefined;
    if (!state || !waiter) return false;
    this.waiters.delete(state);
    waiter(params);
    return true;
  }
}

const PAGE = (text: string) => `<!doctype html><meta charset="utf-8"><title>MinAgent</title><p>${text}</p>`;

/** A loopback redirect (RFC 8252): `http://127.0.0.1:PORT/callback`, listening only on 127.0.0.1. */
export class LoopbackReceiver implements RedirectReceiver {
  private readonly pending = new PendingCallbacks();

  private constructor(
    private readonly server: Server,
    readonly redirectUrl: string,
  ) {}

  static async start(): Promise<LoopbackReceiver> {
    let receiver: LoopbackReceiver | undefined;
    const server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      if (req.method !== 'GET' || url.pathname !== '/callback') {
        res.writeHead(404).end();
        return;
      }
      const known = receiver?.pending.deliver(url.searchParams) ?? false;
      res.writeHead(known ? 200 : 400, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      res.end(PAGE(known ? 'Signed in. You can close this tab and return to MinAgent.' : 'This sign-in link is not expected (it may be old). Start the sign-in again from MinAgent.'));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    server.unref();
    receiver = new LoopbackReceiver(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`);
    return receiver;
  }

  private waiting = 0;

  /** Waits for the browser; while anyone waits, the listener keeps the process alive (a CLI has nothing else running). */
  wait(state: string, signal?: AbortSignal): Promise<URLSearchParams> {
    if (this.waiting++ === 0) this.server.ref();
    const done = () => {
      if (--this.waiting === 0) this.server.unref();
    };
    const result = this.pending.wait(state, signal);
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
