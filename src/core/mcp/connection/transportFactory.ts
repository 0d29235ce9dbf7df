import { SSEClientTransport, StreamableHTTPClientTransport, type Transport } from '@modelcontextprotocol/client';
import type { ServerAuth } from '../../auth/provider';
import type { Logger } from '../../base/logger';
import { cappedFetch, type Fetch } from '../../net/limits';
import { socketEndpoint, socketFetch } from '../../net/socketFetch';
import { errorMessage } from '../../toolRegistry/toolRegistry';
import { describeEndpoint } from '../config/describe';
import type { ServerConfig } from '../config/serverConfig';
import type { ServerPriority } from '../config/hubSettings';
import { serverEnvironment } from '../config/env';
import { DEFAULT_CLOSE_TIMINGS, ProcessTransport, type CloseTimings } from '../transport/processTransport';
import { httpStatus } from './crashDiagnosis';
import { npmConfigRead, type SandboxPolicy } from '../sandbox/policy';
import { sandboxedServerEnvironment } from '../sandbox/environment';
import { sandboxedSpawn } from '../sandbox/spawn';
import { eraRefusal } from './eraRefusal';
import { isErrorLine, SANDBOX_NOTE } from './errorLine';
import type { StderrTail } from './stderrTail';

/** Which transport to make: the entry's own (stdio or Streamable HTTP), or the older SSE one. */
export type TransportKind = 'primary' | 'sse';

/** What a server's transports are made with: its entry, its log and stderr tail, and the session's limits. */
export interface TransportSettings {
  config: ServerConfig;
  log: Logger;
  stderr: StderrTail;
  closeTimings?: CloseTimings;
  maxMessageBytes?: number;
  httpLimits?: { bodyBytes?: number; eventBytes?: number };
  auth?: ServerAuth;
  serverPriority?: ServerPriority;
  sandbox?: SandboxPolicy;
}

/** A new transport to the server: a process for stdio, else an HTTP client of the given kind. */
export function createTransport(kind: TransportKind, s: TransportSettings): Transport {
  const c = s.config;
  if (c.type === 'stdio') {
    // In a sandbox, its policy says where it starts (a workspace's entry stays in the workspace).
    const cwd = s.sandbox?.cwd ?? c.cwd;
    s.log.info(`starting: ${describeEndpoint(c)} (cwd ${cwd})${s.sandbox ? ', in a sandbox' : ''}`);
    return new ProcessTransport(
      {
        command: c.command,
        args: c.args,
        // A sandboxed server gets what a server needs of the host's environment and its entry's own
        // variables, no more (a token in the editor's environment is a secret as ~/.aws is).
        env: s.sandbox ? sandboxedServerEnvironment(c.env) : serverEnvironment(c.env),
        cwd,
        onStderr: (text) => s.stderr.write(text, (line) => line && logStderr(s.log, line, s.sandbox)),
        ...(s.maxMessageBytes ? { maxMessageBytes: s.maxMessageBytes } : {}),
        ...(s.serverPriority === 'low' ? { lowPriority: true } : {}),
        // What the host sees the sandbox deny goes where the server's own denials (its preload's) go.
        ...(s.sandbox
          ? { sandbox: sandboxedSpawn(s.sandbox, s.log, (denied) => s.stderr.add(`${SANDBOX_NOTE}${denied}`)) }
          : {}),
        onGarbage: (line) => {
          const shown = line.length > 200 ? `${line.slice(0, 200)}…` : line;
          s.stderr.add(`[stdout, not JSON-RPC] ${shown}`);
          s.log.warn(`ignored a stdout line that is not JSON-RPC: ${shown}`);
        },
      },
      s.closeTimings ?? DEFAULT_CLOSE_TIMINGS,
    );
  }
  // A `unix:` or `pipe:` URL: HTTP over that local socket, to the path after its `#`.
  const socket = socketEndpoint(c.url);
  const url = socket?.url ?? new URL(c.url);
  const requestInit = { headers: c.headers };
  // Whatever the server sends is read through size caps, so one huge reply cannot fill memory.
  const fetch = httpFetch(s, socket && socketFetch(socket.socketPath));
  const auth = s.auth ? { authProvider: s.auth } : {};
  const where = socket ? `${socket.socketPath} (path ${url.pathname})` : `${url.origin}${url.pathname}`;
  s.log.info(`connecting to ${where} (${kind === 'sse' ? 'SSE' : 'Streamable HTTP'})`);
  return kind === 'sse'
    ? new SSEClientTransport(url, { requestInit, fetch, ...auth })
    : new StreamableHTTPClientTransport(url, { requestInit, fetch, ...auth });
}

/** The fetch a server's HTTP transport reads through: capped in size, and guarded by its OAuth client if it has one. */
export function httpFetch(s: Pick<TransportSettings, 'config' | 'httpLimits' | 'auth'>, base?: Fetch) {
  const capped = cappedFetch(`the reply of server "${s.config.name}"`, s.httpLimits, base);
  return s.auth ? s.auth.guard(capped) : capped;
}

/**
 * The spec's backwards compatibility: connects with `primary`; an HTTP server that answers its POST
 * with 400, 404 or 405 is tried once with the older SSE transport (`sse`). What is thrown is the
 * first failure, unless the server refused only the era offered (it speaks Streamable HTTP: no SSE).
 */
export async function withSseFallback(
  s: Pick<TransportSettings, 'config' | 'log'>,
  closing: () => boolean,
  primary: () => Promise<void>,
  sse: () => Promise<void>,
): Promise<void> {
  try {
    await primary();
  } catch (err) {
    if (s.config.type !== 'http' || closing() || ![400, 404, 405].includes(httpStatus(err) ?? 0)) throw err;
    const refusal = eraRefusal(err);
    if (refusal) throw new Error(refusal);
    s.log.info(`Streamable HTTP failed (${errorMessage(err)}); trying the older SSE transport`);
    try {
      await sse();
    } catch {
      throw err;
    }
  }
}

/** A stderr line in the log: one that reports an error (`Error: ...`, `fatal: ...`) as a warning. */
function logStderr(log: Logger, line: string, sandbox: SandboxPolicy | undefined): void {
  // What the sandbox's preload says of a refused connection or a hidden read (netPreload.cjs, readNotes.cjs).
  if (sandbox && line.startsWith(SANDBOX_NOTE)) {
    const note = line.slice(SANDBOX_NOTE.length);
    // npm's own start, every time: said for --verbose; a failure's message still names it (sandboxDenials).
    if (npmConfigRead(sandbox, note))
      log.info(
        `sandbox: npm read ${sandbox.npmUserConfig}, which is hidden (it may hold tokens): npm installs from the registry \`npm config get registry\` names; the file's other settings (tokens, scoped registries) do not apply in the sandbox`,
      );
    else log.warn(`sandbox denied: ${note}`);
  } else if (isErrorLine(line)) log.warn(`stderr: ${line}`);
  else log.info(`stderr: ${line}`);
}
