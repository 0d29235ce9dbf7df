import { request } from 'node:http';
import { Readable } from 'node:stream';
import type { Fetch } from './limits';

/** Statuses whose response has no body (the Fetch standard's null body statuses). */
const NO_BODY = new Set([101, 103, 204, 205, 304]);

/**
 * Where a `unix:` or `pipe:` server URL points: the socket (or Windows named pipe) to connect to, and the HTTP URL
 * whose path is asked for over it (`unix:///tmp/server.sock#/mcp` is `/mcp` on /tmp/server.sock; no fragment: `/`).
 * Undefined for any other URL.
 */
export function socketEndpoint(url: string): { socketPath: string; url: URL } | undefined {
  const u = new URL(url);
  if (u.protocol !== 'unix:' && u.protocol !== 'pipe:') return undefined;
  const path = decodeURIComponent(u.pathname);
  const socketPath = u.protocol === 'pipe:' ? `\\\\.\\pipe\\${path.replace(/^\/(pipe\/)?/, '')}` : path;
  const sub = u.hash.slice(1) || '/';
  return { socketPath, url: new URL(sub.startsWith('/') ? sub : `/${sub}`, 'http://localhost') };
}

/**
 * A fetch that speaks HTTP/1.1 over a local socket instead of TCP, for servers that listen on one (VS Code's
 * `unix:///` and `pipe:///` URLs). Node's own fetch cannot be pointed at a socket without the undici package (about
 * half a megabyte in each bundle); the MCP SDK's transports need only a request with a body and a streamed response,
 * which node:http gives. The response body streams as it arrives (an SSE stream stays open), and the request's
 * signal aborts it.
 */
export function socketFetch(socketPath: string): Fetch {
  return (input, init) =>
    new Promise<Response>((resolve, reject) => {
      const target = new URL(String(input));
      const headers = new Headers(init?.headers);
      const body = init?.body;
      if (body !== undefined && body !== null && typeof body !== 'string' && !(body instanceof Uint8Array)) {
        reject(new TypeError('a socket request body must be text or bytes'));
        return;
      }
      const req = request(
        {
          socketPath,
          path: `${target.pathname}${target.search}`,
          method: init?.method ?? 'GET',
          headers: { ...Object.fromEntries(headers), host: target.host },
          ...(init?.signal ? { signal: init.signal } : {}),
        },
        (res) => {
          const responseHeaders = new Headers();
          for (const [key, value] of Object.entries(res.headers))
            for (const v of [value ?? []].flat()) responseHeaders.append(key, v);
          const status = res.statusCode ?? 502;
          const stream = NO_BODY.has(status) ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>);
          if (!stream) res.resume();
          resolve(new Response(stream, { status, statusText: res.statusMessage ?? '', headers: responseHeaders }));
        },
      );
      req.on('error', reject);
      req.end(body ?? undefined);
    });
}
