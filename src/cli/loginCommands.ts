import { silentLogger, type Logger } from '../core/base/logger';
import type { LoadedConfig } from '../core/settingsFile';
import type { ServerConfig } from '../core/mcp/config/serverConfig';
import { failureText, type ServerHub } from '../core/mcp/hub/serverHub';
import type { CliAuth } from './signIn';
import type { Output } from './commands';
import { stderr } from './terminalText';

function httpServer(servers: readonly ServerConfig[], name: string): ServerConfig | string {
  const server = servers.find((s) => s.name === name);
  if (!server) return `no server "${name}" in the settings`;
  if (server.type === 'stdio') return `server "${name}" is a stdio server; sign-in is for http and sse servers`;
  return server;
}

/** `login NAME`: connects that one server with an interactive sign-in and says how it went. */
export async function loginCommand(
  hub: ServerHub,
  auth: CliAuth | undefined,
  config: LoadedConfig,
  name: string,
  io: Output,
): Promise<number> {
  const server = httpServer(config.servers, name);
  if (typeof server === 'string' || !auth) {
    stderr(`minagent: ${typeof server === 'string' ? server : 'no http server'}\n`);
    return 1;
  }
  auth.manager.requestSignIn(name);
  hub.reconcile([server], [], config.settings);
  await hub.whenIdle();
  const info = hub.servers()[0];
  const state = info?.state;
  if (state?.kind !== 'running') {
    stderr(`minagent: server "${name}": ${info && state?.kind === 'error' ? failureText(info) : 'did not start'}\n`);
    return 1;
  }
  io.out(`signed in to "${name}" (${state.toolCount} tools)`);
  return 0;
}

/** `logout NAME`: forgets the server's tokens and registration. */
export async function logoutCommand(
  auth: CliAuth | undefined,
  servers: readonly ServerConfig[],
  name: string,
  out: (line: string) => void,
): Promise<number> {
  const server = httpServer(servers, name);
  if (typeof server === 'string' || !auth) {
    stderr(`minagent: ${typeof server === 'string' ? server : 'no http server'}\n`);
    return 1;
  }
  auth.manager.forServer(server, silentLogger);
  await auth.manager.signOut(name);
  out(`signed out of "${name}"`);
  return 0;
}

/** After connecting: a server that needs a sign-in is named with the command that does it. */
export function signInHints(hub: ServerHub, log: Logger): void {
  for (const s of hub.servers())
    if (s.state.kind === 'signIn') log.warn(`server "${s.name}" needs a sign-in: run \`minagent login ${s.name}\``);
}
