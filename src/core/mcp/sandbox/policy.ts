import { basename, join } from 'node:path';
import { createHash } from 'node:crypto';
import type { SandboxEntry, StdioServerConfig } from '../config/serverConfig';
import { knownNpmRegistry, withRegistry } from './npmRegistry';

/**
 * What a sandboxed server may do. Reads: everywhere but `denyRead`. Writes: only `allowWrite` (and
 * the sandbox's own temp folder). Network: only `allowedDomains`, through the sandbox's proxy.
 */
export interface SandboxPolicy {
  allowWrite: string[];
  denyRead: string[];
  allowedDomains: string[];
  /** Why the server is in a sandbox: its entry asked, or it is a workspace's server (the rule for those). */
  reason: SandboxReason;
  /** The npm cache of an npx server: its own, so nothing it plants there runs in another server. */
  npmCache?: string;
  /** The registry an npx server installs from (the host's `npm config get registry`). */
  npmRegistry?: string;
}

export type SandboxReason = 'entry' | 'workspace';

/** What the host knows that the defaults are made of. */
export interface PolicyContext {
  home: string;
  /** Where MinAgent keeps a sandboxed npx server's own npm cache (one folder per server). */
  cacheRoot: string;
  /** Folders of the host that hold its secrets (the editor's storage, the CLI's config): never readable. */
  privatePaths: readonly string[];
  /** The workspace folders: their `.env` files are never readable. */
  workspaceFolders: readonly string[];
  /** The registry `npm config get registry` names, for an npx server. */
  npmRegistry?: string;
}

/** Secrets under the home folder that no sandboxed server reads. */
export const HOME_SECRETS: readonly string[] = [
  '.ssh',
  '.aws',
  '.azure',
  '.config/gcloud',
  '.config/gh',
  '.gnupg',
  '.kube',
  '.docker',
  '.netrc',
  '.git-credentials',
  '.npmrc',
  '.pypirc',
  // The editors' storage (secrets, tokens, other extensions' state) and the CLI's own.
  '.config/Code',
  '.config/Code - Insiders',
  '.config/VSCodium',
  '.config/code-server',
  '.local/share/code-server',
  '.vscode-server/data',
  '.config/minagent',
];

/** The policy for a server that is sandboxed: the defaults, with what its entry adds. */
export function sandboxPolicy(config: StdioServerConfig, reason: SandboxReason, ctx: PolicyContext): SandboxPolicy {
  const own: SandboxEntry = config.sandbox || { allowWrite: [], denyRead: [], allowedDomains: [] };
  const npx = isNpx(config.command);
  const npmCache = npx ? join(ctx.cacheRoot, 'npm', serverFolder(config, reason)) : undefined;
  const envFiles = [...new Set([config.cwd, ...ctx.workspaceFolders])].map((folder) => join(folder, '.env*'));
  const policy: SandboxPolicy = {
    allowWrite: unique([config.cwd, ...(npmCache ? [npmCache] : []), ...own.allowWrite]),
    denyRead: unique([...HOME_SECRETS.map((p) => join(ctx.home, p)), ...ctx.privatePaths, ...envFiles, ...own.denyRead]),
    allowedDomains: unique(own.allowedDomains),
    reason,
    ...(npmCache ? { npmCache } : {}),
  };
  return npx ? withRegistry(policy, ctx.npmRegistry ?? knownNpmRegistry()) : policy;
}

/** `npx`, `npx.cmd` or a path to either. */
export function isNpx(command: string): boolean {
  return /^npx(\.cmd)?$/i.test(basename(command));
}

/** The policy as lines a person reads (the tree's tooltip, `minagent servers`). */
export function describePolicy(p: SandboxPolicy): string[] {
  const list = (xs: string[]) => (xs.length ? xs.join(', ') : 'nothing');
  return [
    `sandboxed (${p.reason === 'workspace' ? "a workspace's server" : 'its entry asks'})`,
    `writes: ${list(p.allowWrite)} (never a repository's .git/config or hooks, nor .vscode: git and the editor run those outside the sandbox)`,
    `network: ${describeNetwork(p)}`,
    `cannot read: ${p.denyRead.length} secret locations (~/.ssh, ~/.aws, .env files, the editor's storage, ...)`,
  ];
}

/** The hosts a sandboxed server may reach, as its log, its tooltip and `minagent servers` all say it. */
export function describeNetwork(p: SandboxPolicy): string {
  const hosts = p.allowedDomains.length ? p.allowedDomains.join(', ') : 'none';
  // An npx server reaches npm's registry too, once `npm config get registry` named it (as it starts).
  return p.npmCache && !p.npmRegistry ? `${hosts === 'none' ? '' : `${hosts}, `}npm's registry (as \`npm config get registry\` names it)` : hosts;
}

/**
 * One folder per command line and kind of server: the editor and the CLI use the same one for the same
 * workspace entry (the editor names its origin, the CLI cannot), and a workspace's server never shares
 * one with a server of the user's (nothing one plants there runs in the other).
 */
function serverFolder(config: StdioServerConfig, reason: SandboxReason): string {
  return createHash('sha256').update(JSON.stringify({ reason, command: config.command, args: config.args })).digest('hex').slice(0, 16);
}

function unique(xs: string[]): string[] {
  return [...new Set(xs)];
}
