// Commands that download what they run on its first start (a package runner, a container image):
// such a server can be slow to start for the network, not for itself, and its timeout says so.
import type { ServerConfig } from '../config/serverConfig';

/** A package runner's name as the command line has it (its file's name, lower case, without a Windows extension). */
function programName(command: string): string {
  return (command.split(/[\\/]/).pop() ?? command).replace(/\.(cmd|exe|bat|ps1)$/i, '').toLowerCase();
}

const RUNNERS = new Set(['npx', 'pnpx', 'bunx', 'uvx']);
/** Programs that fetch with a subcommand: `pnpm dlx`, `npm exec`, `pipx run`, `docker run`... */
const WITH_SUBCOMMAND: Readonly<Record<string, readonly string[]>> = {
  npm: ['exec', 'x'],
  pnpm: ['dlx'],
  yarn: ['dlx'],
  bun: ['x'],
  pipx: ['run'],
  uv: ['run'],
  docker: ['run'],
  podman: ['run'],
};

/**
 * The runner that fetches what a stdio entry runs (e.g. "npx", "docker run"), or undefined for a program that runs as
 * it is (or a remote server).
 */
export function fetchingRunner(config: ServerConfig): string | undefined {
  if (config.type !== 'stdio') return undefined;
  const { command, args } = config;
  const name = programName(command);
  if (RUNNERS.has(name)) return name;
  const sub = args[0];
  return sub !== undefined && WITH_SUBCOMMAND[name]?.includes(sub) ? `${name} ${sub}` : undefined;
}
