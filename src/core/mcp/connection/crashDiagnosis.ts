import { SdkError, SdkErrorCode, type Transport } from '@modelcontextprotocol/client';
import { isSignInNeeded, SignInNeeded } from '../../auth/signInErrors';
import { errorMessage } from '../../toolRegistry/toolRegistry';
import type { ServerConfig } from '../config/serverConfig';
import { PROCESS_NOT_RUNNING, ProcessTransport } from '../transport/processTransport';
import { SpawnError } from '../transport/spawnError';
import { ConnectTimeout } from './connectLimit';
import { sandboxDenials, stderrGist } from './errorLine';
import { fetchingRunner } from './fetchingRunner';

/** What a call says when there is no session: the seed's words. */
export const NOT_CONNECTED = 'mcp server not connected';

/** When a server failed: while it started, during a call, or while it ran between calls. */
export type FailurePhase = 'start' | 'call' | 'run';

/**
 * How long the diagnosis waits for a dying process to say how it ended. A write on a dead pipe
 * (EPIPE) comes before the exit event; the exit status comes a moment after the pipe closed; the last
 * stderr lines (why it died) come while its pipes drain.
 */
export const EXIT_WAITS = { afterPipeFailureMs: 500, exitStatusMs: 20, drainMs: 1_000 } as const;

/** What the diagnosis looks at besides the failure itself. */
export interface FailureContext {
  config: ServerConfig;
  /** The session's transport (a process has an exit status). */
  transport: Transport | undefined;
  /** The server's stderr as it is when asked (read after the waits). */
  stderr: () => string;
  /** True when the server has an OAuth client (then a 401 means signing in). */
  hasAuth: boolean;
  /** True when the server runs in a sandbox: what it denied goes into the message. */
  sandboxed?: boolean;
}

/**
 * Says why a start, call or session failed, with the exit status and stderr of a process that ended; not yet redacted.
 */
export async function describeFailure(err: unknown, phase: FailurePhase, context: FailureContext): Promise<string> {
  if (err instanceof ConnectTimeout) return timeoutMessage(err, context);
  if (err instanceof SpawnError) return err.message;
  // Without an OAuth client (stdio, or an entry with its own Authorization header) a 401 is about the headers.
  if (isSignInNeeded(err) && (context.hasAuth || err instanceof SignInNeeded)) return signInMessage(err);
  const transport = context.transport;
  const closed = err instanceof SdkError && err.code === SdkErrorCode.ConnectionClosed;
  const pipe = !closed && phase === 'call' && isPipeFailure(err);
  if (transport instanceof ProcessTransport && (closed || pipe || transport.exit || phase === 'run')) {
    if (pipe) await transport.exitWithin(EXIT_WAITS.afterPipeFailureMs);
    await new Promise((r) => setTimeout(r, EXIT_WAITS.exitStatusMs));
    // Exited: wait until its pipes are drained, since the last stderr lines say why it died.
    if (transport.exit) await transport.exitWithin(EXIT_WAITS.drainMs);
    const exit = transport.exit;
    if (exit) {
      const how = exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;
      const when = phase === 'start' ? 'during startup' : phase === 'call' ? 'during the call' : '';
      const tail = stderrGist(context.stderr());
      const denied = context.sandboxed ? sandboxDenials(context.stderr()) : '';
      return `server process ${how}${when ? ` ${when}` : ''}${denied}${tail ? `; stderr: ${tail}` : ''}`;
    }
  }
  if (closed) return phase === 'call' ? NOT_CONNECTED : 'connection closed';
  const c = context.config;
  return describeNetworkError(err, c.type === 'stdio' ? undefined : c.url, phase) ?? errorMessage(err);
}

/**
 * A start that timed out, with what its stderr said and, for a process still running under a package
 * runner (npx, uvx, docker run...), that the runner may still have been downloading: a first start
 * fetches the package, and a slow registry holds it past the limit.
 */
function timeoutMessage(err: ConnectTimeout, context: FailureContext): string {
  const runner = err.patientMs ? fetchingRunner(context.config) : undefined;
  const hint = runner
    ? `; ${runner} downloads what it runs on a first start and may still have been at it: start the server again once that is done`
    : '';
  const tail = stderrGist(context.stderr());
  return `${err.message}${hint}${tail ? `; stderr: ${tail}` : ''}`;
}

function signInMessage(err: unknown): string {
  const text = errorMessage(err);
  return text.startsWith('sign in needed')
    ? text
    : `sign in needed: ${/insufficient_scope|InsufficientScope/i.test(`${(err as Error).name} ${text}`) ? 'the server asks for more permissions than this session has' : 'the server requires you to sign in'}`;
}

function isPipeFailure(err: unknown): boolean {
  return (err as NodeJS.ErrnoException | undefined)?.code === 'EPIPE' || errorMessage(err) === PROCESS_NOT_RUNNING;
}

/** The HTTP status an SDK error carries, if any. */
export function httpStatus(err: unknown): number | undefined {
  const data = (err as { data?: { status?: unknown } } | undefined)?.data;
  return typeof data?.status === 'number' ? data.status : undefined;
}

/** HTTP failures in words a user can act on: the status, or why the host could not be reached. */
function describeNetworkError(err: unknown, url: string | undefined, phase: FailurePhase): string | undefined {
  if (url === undefined) return undefined;
  const status = httpStatus(err);
  if (status !== undefined) {
    const data = (err as { data: { statusText?: string; text?: string } }).data;
    const body = (data.text ?? '').slice(0, 200);
    const hint = status === 401 || status === 403 ? ' (check the credentials in the entry\'s "headers")' : '';
    return `HTTP ${status}${data.statusText ? ` ${data.statusText}` : ''} from ${url}${hint}${body ? `: ${body}` : ''}`;
  }
  const cause = (err as { cause?: { code?: string; message?: string } } | undefined)?.cause;
  if (err instanceof TypeError && cause) {
    const why = cause.code ?? cause.message;
    return phase === 'call' && cause.code !== 'ECONNREFUSED'
      ? `the connection to ${url} dropped during the call (${why})`
      : `cannot reach ${url}: ${why}`;
  }
  return undefined;
}
