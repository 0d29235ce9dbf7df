import { join } from 'node:path';
import { serverIdentity } from '../config/identity';
import type { ServerConfig } from '../config/serverConfig';
import { sandboxPolicy, type PolicyContext, type SandboxPolicy, type SandboxReason } from './policy';

/** What happens to the servers a workspace brings (`minagent.sandbox.workspaceServers`, user scope). */
export const WORKSPACE_SANDBOX_RULES = ['always', 'ask', 'off'] as const;
export type WorkspaceSandboxRule = (typeof WORKSPACE_SANDBOX_RULES)[number];

/** The host's sandbox rules, given to the hub. */
export interface SandboxRules {
  /**
   * Workspace servers: in a sandbox (`always`, the default), in one until the user answers whether
   * to keep it there (`ask`, asked by the host once per server), or as their entries say (`off`).
   */
  workspaceServers: WorkspaceSandboxRule;
  /** Whether an entry was written by the workspace (its settings or its MCP files), not by the user. */
  fromWorkspace(config: ServerConfig): boolean;
  /** The servers the user took out of the sandbox, by identity (asked, and remembered by the host). */
  exempt?(identity: string): boolean;
  context: PolicyContext;
}

/**
 * Why a server runs in a sandbox, or undefined when it does not. A workspace's server is sandboxed
 * by the rule whatever its entry says (an entry the repository wrote cannot turn its own sandbox
 * off); only the user takes it out, per server. The user's own servers are sandboxed when their
 * entry asks. HTTP servers do not run here: nothing to sandbox.
 */
export function sandboxReason(config: ServerConfig, rules: SandboxRules | undefined): SandboxReason | undefined {
  if (config.type !== 'stdio' || !rules) return undefined;
  if (rules.fromWorkspace(config)) {
    if (rules.exempt?.(serverIdentity(config))) return undefined;
    if (rules.workspaceServers !== 'off') return 'workspace';
  }
  return config.sandbox ? 'entry' : undefined;
}

/** The sandbox a server runs in, if any. */
export function sandboxFor(config: ServerConfig, rules: SandboxRules | undefined): SandboxPolicy | undefined {
  const reason = sandboxReason(config, rules);
  return reason && config.type === 'stdio' && rules ? sandboxPolicy(config, reason, rules.context) : undefined;
}

/** Where MinAgent keeps what sandboxes need (an npx server's own npm cache): `$XDG_CACHE_HOME/minagent/sandbox`. */
export function sandboxCacheRoot(env: NodeJS.ProcessEnv, home: string): string {
  return join(env.XDG_CACHE_HOME || join(home, '.cache'), 'minagent', 'sandbox');
}

/** A rule from a setting or a flag (one of `allowed`); anything else is reported and `always` kept. */
export function parseWorkspaceRule(
  value: unknown,
  where: string,
  allowed: readonly WorkspaceSandboxRule[] = WORKSPACE_SANDBOX_RULES,
): { rule: WorkspaceSandboxRule; problem?: string } {
  if (value === undefined || value === null || value === '') return { rule: 'always' };
  if (allowed.includes(value as WorkspaceSandboxRule)) return { rule: value as WorkspaceSandboxRule };
  return { rule: 'always', problem: `${where} must be one of ${allowed.join(', ')}; using "always"` };
}
