import type { Tool, ToolRegistry } from '../../toolRegistry/toolRegistry';
import type { ServerConfig } from '../config/serverConfig';
import type { ServerState } from '../connection/state';
import type { ServerEntry } from './serverEntry';
import type { SandboxPolicy } from '../sandbox/policy';
import { isRestarting } from './restarts';

/** A server as the UI shows it. */
export interface ServerInfo {
  name: string;
  config: ServerConfig;
  /** Its session's state; an error's message is the server's own (what comes next is `restartNote`). */
  state: ServerState;
  /** This server's tools as registered (registry names). */
  readonly tools: Tool[];
  stderrTail: string;
  /** Its process while it has one (a stdio server, from spawn on, also while it starts or after it failed). */
  pid?: number;
  /** True while a crashed server waits for (or makes) an automatic restart: its error is not final yet. */
  willRestart: boolean;
  /** What became of a crashed server ("restarting in 1 s (attempt 1 of 5)", "gave up ..."). */
  restartNote?: string;
  /** The sandbox it runs in, if any. */
  sandbox?: SandboxPolicy;
}

/** A server's info as it is now; its tools are looked up in `registry` when read. */
export function serverInfo(
  name: string,
  entry: ServerEntry,
  registry: ToolRegistry,
  sandbox?: SandboxPolicy,
): ServerInfo {
  const source = entry.source;
  // A source waits a tick before it connects; it is starting from the moment it exists.
  const own = source?.state ?? { kind: 'stopped' as const };
  const state: ServerState = own.kind === 'stopped' && entry.connecting ? { kind: 'starting' } : own;
  return {
    name,
    config: entry.config,
    state,
    // Worked out when read: the tree and status bar ask for many infos and rarely for the tools.
    get tools() {
      return registry.list().filter((t) => t.server === name);
    },
    stderrTail: source?.stderrTail ?? '',
    ...(source?.pid ? { pid: source.pid } : {}),
    willRestart: isRestarting(entry),
    ...(entry.restartNote ? { restartNote: entry.restartNote } : {}),
    ...(sandbox ? { sandbox } : {}),
  };
}

/**
 * A failed server's message as one line for the user: its error, then what becomes of it (the
 * restart note), e.g. "server process exited with code 1; restarting in 1 s (attempt 1 of 5)".
 * Empty for a server that has not failed.
 */
export function failureText(info: Pick<ServerInfo, 'state' | 'restartNote'>): string {
  const state = info.state;
  if (state.kind === 'signIn') return state.message;
  if (state.kind !== 'error') return '';
  return info.restartNote ? `${state.message}; ${info.restartNote}` : state.message;
}
