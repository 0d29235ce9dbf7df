import { DisposableStore } from '../../event';
import type { Tool } from '../../tools';
import type { ServerConfig } from '../config/serverConfig';
import type { McpToolSource } from '../connection/source';
import { CrashCounter, type RestartPolicy, type RestartState } from './restarts';

/** One configured server as the hub keeps it: its entry, its current source, and what outlives a source. */
export interface Entry extends RestartState {
  config: ServerConfig;
  /** Identity of the entry's settings: a change restarts the server. */
  key: string;
  source: McpToolSource | undefined;
  connecting: Promise<void> | undefined;
  listeners: DisposableStore;
  /**
   * The tools the last running source registered (under the server's own names, calls routed
   * through the hub), with the identity they were listed under: kept while a crashed server restarts.
   */
  lastTools: { tools: readonly Tool[]; identity: string } | undefined;
  /** Set while the current source registers its tools. */
  registering: Promise<void> | undefined;
}

export function newEntry(config: ServerConfig, policy: RestartPolicy): Entry {
  return {
    config,
    key: keyOf(config),
    source: undefined,
    connecting: undefined,
    listeners: new DisposableStore(),
    crashes: new CrashCounter(policy),
    restartNote: undefined,
    restartTimer: undefined,
    restarting: false,
    lastTools: undefined,
    registering: undefined,
  };
}

/** The settings that make a server what it is: all of its entry but where it was written. */
export function keyOf(config: ServerConfig): string {
  const { origin: _origin, ...rest } = config;
  return JSON.stringify(rest);
}
