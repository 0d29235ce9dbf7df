import { errorMessage } from '../toolRegistry/toolRegistry';

const UNRESOLVED = /^(ENOTFOUND|EAI_AGAIN|EAI_NONAME|EAI_FAIL|EAI_NODATA)$/;
const NO_ROUTE = /^(EHOSTUNREACH|ENETUNREACH|ENETDOWN|EHOSTDOWN|EADDRNOTAVAIL)$/;
const CUT = /^(ECONNRESET|EPIPE|UND_ERR_SOCKET)$/;
const CERTIFICATE = /CERT|TLS|SSL|SELF_SIGNED|UNABLE_TO_/;

/**
 * Why a fetch of `url` got no answer, in words a user can act on, the system's code beside them
 * ("registry.invalid does not resolve (ENOTFOUND: ...)"). Node's fetch fails with "fetch failed"
 * alone; what happened is in its cause.
 */
export function unreachableCause(err: unknown, url: URL): string {
  const cause = (err as { cause?: { code?: unknown; message?: unknown } } | undefined)?.cause;
  const code = typeof cause?.code === 'string' ? cause.code : '';
  const message = typeof cause?.message === 'string' ? cause.message : '';
  if (UNRESOLVED.test(code))
    return `${url.hostname} does not resolve (${code}: no such host name, or no network to ask DNS)`;
  if (code === 'ECONNREFUSED') return `${url.host} refused the connection (${code}: nothing listens there)`;
  if (code === 'ETIMEDOUT' || code === 'UND_ERR_CONNECT_TIMEOUT')
    return `${url.host} did not take the connection in time (${code})`;
  if (NO_ROUTE.test(code)) return `no route to ${url.host} (${code}: offline, or on a network that does not reach it)`;
  if (CUT.test(code)) return `the connection to ${url.host} was cut (${code})`;
  if (CERTIFICATE.test(code)) return `${url.hostname}'s TLS certificate was not accepted (${code})`;
  if (message === 'bad port')
    return `${url.host}: fetch never connects to port ${url.port} (the Fetch standard's "bad ports")`;
  if (/redirect/i.test(message)) return `${url.host} answered with a redirect, which is not followed`;
  return code || message || errorMessage(err);
}
