import { describeProblem } from '../core/mcp/config/describe';
import type { ParsedServers } from '../core/mcp/config/serverConfig';
import { failureText, type ServerHub } from '../core/mcp/hub/serverHub';

/**
 * Servers that did not connect, and what the CLI says about them. A list of tools from a server that
 * failed is not an empty list: every command names the failed servers on stderr, `--json` carries
 * them, a list command whose servers all failed exits 1, and a name that is not found says which
 * failed server might have had it.
 */
export interface FailedServer {
  server: string;
  error: string;
}

/**
 * Configured servers that are not running (connection failed, or waiting for sign-in), then broken entries, in settings
 * order.
 */
export function failedServers(hub: ServerHub, parsed: ParsedServers): FailedServer[] {
  const failed: FailedServer[] = [];
  for (const s of hub.servers()) {
    if (s.state.kind === 'error' || s.state.kind === 'signIn') failed.push({ server: s.name, error: failureText(s) });
  }
  for (const p of parsed.problems) {
    if (p.severity === 'error' && p.server && !failed.some((f) => f.server === p.server))
      failed.push({ server: p.server, error: describeProblem(p) });
  }
  return failed;
}

/** Whether a list command has nothing honest to show: servers are configured and none of them runs. */
export function allFailed(hub: ServerHub, failed: readonly FailedServer[]): boolean {
  return failed.length > 0 && !hub.servers().some((s) => s.state.kind === 'running');
}

/** One stderr line per failed server. */
export function failureLines(failed: readonly FailedServer[]): string[] {
  return failed.map((f) => `minagent: server "${f.server}" did not connect: ${f.error}`);
}

/**
 * What to add to "not found": the failed servers that could have had the name. A name with a
 * server's prefix (`git.git_log`) points at that server alone; any other name at every failed one.
 */
export function couldHaveBeen(
  name: string,
  failed: readonly FailedServer[],
  what: 'tools' | 'resources' | 'prompts',
): string {
  if (!failed.length) return '';
  const prefixed = failed.filter((f) => name.startsWith(`${f.server}.`));
  const which = prefixed.length ? prefixed : failed;
  const list = which.map((f) => `"${f.server}" (${f.error})`).join('; ');
  return `; ${which.length === 1 ? 'server' : 'servers'} ${list} did not connect, so ${which.length === 1 ? 'its' : 'their'} ${what} are not known`;
}
