import { basename, join } from 'node:path';
import { createHash } from 'node:crypto';
import type { SandboxEntry, StdioServerConfig } from '../config/serverConfig';
import { hostRefusal, writeRefusal } from './bounds';
import { knownNpmRegistry, withRegistry } from './npmRegistry';

/**
 * What a sandboxed server may do. Reads: everywhere but `denyRead`. Writes: only `allowWrite` (and
 * the sandbox's own temp folder). Network: only `allowedDomains`, through the sandbox's proxy.
 */
export interface SandboxPolicy {
  allowWrite: string[];
  denyRead: string[];
  /** What its entry says it must never write, even inside `allowWrite`. */
  denyWrite?: string[];
  allowedDomains: string[];
  /** Why the server is in a sandbox: its entry asked, or it is a workspace's server (the rule for those). */
  reason: SandboxReason;
  /** The npm cache of an npx server: its own, so nothing it plants there runs in another server. */
  npmCache?: string;
  /** The registry an npx server installs from (the host's `npm config get registry`). */
  npmRegistry?: string;
  /** An npx server's hidden `~/.npmrc`, which npm reads at every start (see npmConfigRead). */
  npmUserConfig?: string;
  /**
   * Where it starts: its entry's `cwd`, or for a workspace's entry that names one outside the workspace, the
   * workspace's folder.
   */
  cwd: string;
  /**
   * What of a workspace's entry was refused, by field (`cwd`, `sandbox.filesystem.allowWrite[0]`, ...): logged as it
   * starts.
   */
  refused: string[];
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
  const asked: SandboxEntry = config.sandbox || { allowWrite: [], denyRead: [], allowedDomains: [] };
  const { own, cwd, cwdWritable, refused } =
    reason === 'workspace'
      ? bounded(config.cwd, asked, ctx)
      : { own: asked, cwd: config.cwd, cwdWritable: true, refused: [] as string[] };
  const allowedDomains = withoutDenied(own.allowedDomains, asked.deniedDomains ?? [], refused);
  const npx = isNpx(config.command);
  const npmCache = npx ? join(ctx.cacheRoot, 'npm', serverFolder(config, reason)) : undefined;
  const envFiles = [...new Set([cwd, ...ctx.workspaceFolders])].map((folder) => join(folder, '.env*'));
  const policy: SandboxPolicy = {
    allowWrite: unique([...(cwdWritable ? [cwd] : []), ...(npmCache ? [npmCache] : []), ...own.allowWrite]),
    denyRead: unique([
      ...HOME_SECRETS.map((p) => join(ctx.home, p)),
      ...ctx.privatePaths,
      ...envFiles,
      ...own.denyRead,
    ]),
    ...(asked.denyWrite?.length ? { denyWrite: unique(asked.denyWrite) } : {}),
    allowedDomains: unique(allowedDomains),
    reason,
    cwd,
    refused,
    ...(npmCache ? { npmCache, npmUserConfig: join(ctx.home, '.npmrc') } : {}),
  };
  return npx ? withRegistry(policy, ctx.npmRegistry ?? knownNpmRegistry()) : policy;
}

/**
 * `allowedDomains` less what `deniedDomains` covers. The sandbox's proxy keeps one allow list per server and no deny
 * list, so an allowed wildcard that covers a denied host cannot be narrowed: it is dropped (the denial wins) and said
 * by field.
 */
function withoutDenied(allowed: readonly string[], denied: readonly string[], refused: string[]): string[] {
  if (!denied.length) return [...allowed];
  const covers = (pattern: string, host: string) => {
    const [p, h] = [pattern.toLowerCase(), host.toLowerCase().replace(/^\*\./, '')];
    return p === host.toLowerCase() || (p.startsWith('*.') && (h === p.slice(2) || h.endsWith(p.slice(1))));
  };
  return allowed.filter((a) => {
    const by = denied.find((d) => covers(d, a) || covers(a, d));
    if (by !== undefined)
      refused.push(
        `sandbox.network.allowedDomains: ${a} is dropped: deniedDomains has ${by}${covers(a, by) && a !== by ? ', which the sandbox cannot cut out of a wildcard' : ''}`,
      );
    return by === undefined;
  });
}

/**
 * A workspace entry's cwd, writable paths and hosts, kept within the workspace (bounds.ts): what goes
 * beyond is refused by field, and a cwd outside it becomes the workspace's folder.
 */
function bounded(cwd: string, asked: SandboxEntry, ctx: PolicyContext) {
  const b = { folders: ctx.workspaceFolders, home: ctx.home };
  const refused: string[] = [];
  const cwdRefusal = writeRefusal(cwd, b);
  const inside = ctx.workspaceFolders[0];
  // Outside the workspace, it starts in the workspace's folder; the workspace's folder itself may be
  // the home folder (a window opened on ~): then it writes none of it.
  const start = cwdRefusal && inside && !writeRefusal(inside, b) ? inside : cwd;
  if (cwdRefusal)
    refused.push(`cwd: ${cwdRefusal}${start !== cwd ? `; it starts in ${start}` : '; it writes none of it'}`);
  const allowWrite = asked.allowWrite.filter((p, i) => {
    const why = writeRefusal(p, b);
    if (why) refused.push(`sandbox.filesystem.allowWrite[${i}]: ${why}`);
    return !why;
  });
  const allowedDomains = asked.allowedDomains.filter((h, i) => {
    const why = hostRefusal(h);
    if (why) refused.push(`sandbox.network.allowedDomains[${i}]: ${why}`);
    return !why;
  });
  return { own: { ...asked, allowWrite, allowedDomains }, cwd: start, cwdWritable: !writeRefusal(start, b), refused };
}

/**
 * Whether a sandbox's note (`read "PATH": hidden by the sandbox ...`, readNotes.cjs) is npm reading the
 * user's ~/.npmrc: npm does at every start of an npx server. Hidden, as it may hold tokens; npm is
 * given the registry instead (npmRegistry.ts). Nothing is wrong then, so it is no warning.
 */
export function npmConfigRead(p: SandboxPolicy, note: string): boolean {
  return p.npmUserConfig !== undefined && note.startsWith(`read ${JSON.stringify(p.npmUserConfig)}:`);
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
    `writes: ${list(p.allowWrite)} and its own temp folder (in a repository's .git only objects, refs, logs, index and HEAD; never .vscode, .devcontainer or .gitmodules: git and the editor run those outside the sandbox)`,
    `network: ${describeNetwork(p)}`,
    `cannot read: ${p.denyRead.length} secret locations (~/.ssh, ~/.aws, .env files, the editor's storage, ...)`,
    "environment: what a server needs (PATH, HOME, locale...) and its entry's env, none of your other variables",
    ...p.refused.map((r) => `refused from its entry: ${r}`),
  ];
}

/** The hosts a sandboxed server may reach, as its log, its tooltip and `minagent servers` all say it. */
export function describeNetwork(p: SandboxPolicy): string {
  const hosts = p.allowedDomains.length ? p.allowedDomains.join(', ') : 'none';
  // An npx server reaches npm's registry too, once `npm config get registry` named it (as it starts).
  return p.npmCache && !p.npmRegistry
    ? `${hosts === 'none' ? '' : `${hosts}, `}npm's registry (as \`npm config get registry\` names it)`
    : hosts;
}

/**
 * One folder per command line and kind of server: the editor and the CLI use the same one for the same
 * workspace entry (the editor names its origin, the CLI cannot), and a workspace's server never shares
 * one with a server of the user's (nothing one plants there runs in the other).
 */
function serverFolder(config: StdioServerConfig, reason: SandboxReason): string {
  return createHash('sha256')
    .update(JSON.stringify({ reason, command: config.command, args: config.args }))
    .digest('hex')
    .slice(0, 16);
}

function unique(xs: string[]): string[] {
  return [...new Set(xs)];
}
