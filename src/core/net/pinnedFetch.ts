import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';

/** Says why an address may not be reached, or undefined when it may. */
export type AddressCheck = (address: string) => string | undefined;

export class AddressRefused extends Error {}

export interface PinnedFetchOptions {
  check: AddressCheck;
  /** Most bytes of a reply read (the rest is cut and the reply fails). */
  maxBytes: number;
  /** Most time one request may take. */
  timeoutMs: number;
}

/**
 * A fetch over node:http(s) whose connections go only to addresses `check` allows: the check runs
 * on the very address the socket connects to (in its DNS lookup), so a name that resolves to a
 * public address when asked and to 127.0.0.1 when connecting (DNS rebinding) is still refused.
 * Redirects are returned, never followed (the caller decides, and checks the next hop the same
 * way). A reply is read whole, up to `maxBytes`.
 */
export function pinnedFetch(
  options: PinnedFetchOptions,
): (input: string | URL, init?: RequestInit) => Promise<Response> {
  const lookup: LookupFunction = (hostname, lookupOptions, callback) => {
    dnsLookup(hostname, { ...lookupOptions, all: true }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err, '', 0);
      const refused = addresses.map((a) => options.check(a.address)).find((why) => why !== undefined);
      if (refused) return callback(new AddressRefused(refused), '', 0);
      if (lookupOptions.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      const first = addresses[0]!;
      callback(null, first.address, first.family);
    });
  };
  return (input, init = {}) =>
    new Promise<Response>((resolve, reject) => {
      const url = new URL(input);
      if (url.protocol !== 'http:' && url.protocol !== 'https:')
        return reject(new AddressRefused(`only http and https can be fetched, not ${url.protocol}`));
      const literal = url.hostname.replace(/^\[|\]$/g, '');
      if (isIP(literal)) {
        const refused = options.check(literal);
        if (refused) return reject(new AddressRefused(refused));
      }
      const headers: Record<string, string> = {};
      new Headers(init.headers).forEach((value, name) => (headers[name] = value));
      const body = requestBody(init.body);
      if (body !== undefined && headers['content-length'] === undefined)
        headers['content-length'] = String(body.length);
      const signals = [AbortSignal.timeout(options.timeoutMs), ...(init.signal ? [init.signal] : [])];
      const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
      const req = send(
        url,
        { method: init.method ?? 'GET', headers, lookup, signal: AbortSignal.any(signals) },
        (res) => {
          readCapped(res, options.maxBytes).then((bytes) => {
            const status = res.statusCode ?? 502;
            const replyHeaders = new Headers();
            for (const [name, value] of Object.entries(res.headers)) {
              if (value === undefined) continue;
              for (const v of Array.isArray(value) ? value : [value]) replyHeaders.append(name, v);
            }
            const noBody = [101, 204, 205, 304].includes(status) || init.method === 'HEAD';
            resolve(
              new Response(noBody ? null : new Uint8Array(bytes), {
                status: status < 200 || status > 599 ? 502 : status,
                statusText: res.statusMessage ?? '',
                headers: replyHeaders,
              }),
            );
          }, reject);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
}

function requestBody(body: RequestInit['body']): Buffer | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return Buffer.from(body);
  if (body instanceof URLSearchParams) return Buffer.from(body.toString());
  if (body instanceof Uint8Array) return Buffer.from(body);
  if (body instanceof ArrayBuffer) return Buffer.from(body);
  throw new TypeError('unsupported request body');
}

function readCapped(res: IncomingMessage, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    res.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        res.destroy();
        reject(new Error(`the reply was larger than ${maxBytes} bytes`));
        return;
      }
      chunks.push(chunk);
    });
    res.on('end', () => resolve(Buffer.concat(chunks)));
    res.on('error', reject);
  });
}
