import type { Tool, ToolRegistry } from '../../tools';
import type { ServerConfig } from '../config/config';
import type { ServerState } from '../connection/state';
import type { Entry } from './entry';
import { isRestarting } from './restarts';

/** A server as the UI shows it. */
export interface ServerInfo {
  name: string;
  config: ServerConfig;
  state: ServerState;
  /** This server's tools as registered (registry names). */
  readonly tools: Tool[];
  stderrTail: string;
  /** True while a crashed server waits for (or makes) an automatic restart: its error is not final yet. */
  willRestart: boolean;
  /** What became of a crashed server ("restarting in 1 s (attempt 1 of 5)", "gave up ..."); also in its error message. */
  restartNote?: string;
}

/** A server's info as it is now; its tools are looked up in `registry` when read. */
export function serverInfo(name: string, entry: Entry, registry: ToolRegistry): ServerInfo {
  const source = entry.source;
  // A source waits a tick before it connects; it is starting from the moment it exists.
  const own = source?.state ?? { kind: 'stopped' as const };
  const state: ServerState = own.kind === 'stopped' && entry.connecting ? { kind: 'starting' } : own;
  return {
    name,
    config: entry.config,
    state: state.kind === 'error' && entry.restartNote ? { ...state, message: `${state.message}; ${entry.restartNote}` } : state,
    // Worked out when read: the tree and status bar ask for many infos and rarely for the tools.
    get tools() {
      return registry.list().filter((t) => t.server === name);
    },
    stderrTail: source?.stderrTail ?? '',
    willRestart: isRestarting(entry),
    ...(entry.restartNote ? { restartNote: entry.restartNote } : {}),
  };
}
