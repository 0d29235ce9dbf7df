import { createHash } from 'node:crypto';
import { readEnvFiles } from './envFiles';
import { parseServers } from './parseServers';
import {
  claimServers,
  readServerFile,
  withAlsoIn,
  type FileServers,
  type InputDefinition,
  type ServerFile,
} from './serverFiles';
import type { ConfigProblem, ServerConfig } from './serverConfig';
import type { VariableContext } from './variables';

/** An entry of another tool's file, as the confirmation shows it. */
export interface FileEntry {
  name: string;
  /** What it runs or reaches, as written. */
  runs: string;
  /** Its `autoApprove` and `trusted`, as written, when it has them. */
  approvals?: string;
}

/**
 * A file whose servers wait for the user to confirm it: another tool's file, or (`appeared`) a workspace file that
 * came while the workspace's sandboxed servers ran, so one of them may have written it.
 */
export interface WaitingFile {
  file: ServerFile;
  entries: FileEntry[];
  appeared?: true;
}

/** What reading the MCP files needs of its host (the editor or the CLI). */
export interface FileHost {
  ctx: VariableContext;
  /** Whether the workspace is trusted: its files' servers start only then. */
  trusted: boolean;
  /** Whether the host reads this file (its `minagent.discovery.*` setting). */
  reads(file: ServerFile): boolean;
  /** The `${input:}` values of one entry of a file, by id (asked for or stored, as the host does). */
  inputs(
    file: ServerFile,
    name: string,
    entry: unknown,
    definitions: readonly InputDefinition[],
  ): Promise<Map<string, string>>;
  /**
   * Whether a workspace file waits for the user: it appeared while sandboxed servers of the workspace ran (a sandbox
   * keeps a server from writing the files that exist, not from making one that does not).
   */
  heldBack?(file: ServerFile, found: FileServers): boolean;
  /** Whether the user confirmed another tool's file, and which of its pre-approvals (by digest) count. */
  confirmed(file: ServerFile): boolean;
  vouched(file: ServerFile, digest: string): boolean;
}

export interface FileServersRead {
  servers: ServerConfig[];
  disabled: string[];
  problems: ConfigProblem[];
  /** The workspace's servers not started because it is not trusted, as `name (file)`. */
  untrusted: string[];
  waiting: WaitingFile[];
}

/**
 * The servers of the MCP files, after the ones `taken` already names (settings): the workspace's files, in a trusted
 * workspace only, then other tools' files of the user, once the user confirmed each (their pre-approvals only once
 * confirmed too). A server defined again keeps its first source, and names the others (`alsoIn`; `settings` gets
 * the names defined again for the entries it already read). A broken file is one error naming it; the others are
 * read.
 */
export async function readFileServers(
  files: readonly ServerFile[],
  taken: Map<string, string>,
  host: FileHost,
): Promise<FileServersRead & { alsoIn: Map<string, string[]> }> {
  const out: FileServersRead = { servers: [], disabled: [], problems: [], untrusted: [], waiting: [] };
  const alsoIn = new Map<string, string[]>();
  for (const file of files) {
    if (!host.reads(file)) continue;
    let found: FileServers | undefined;
    try {
      found = await readServerFile(file);
    } catch (err) {
      out.problems.push({ server: '', field: file.label, message: (err as Error).message, severity: 'error' });
      continue;
    }
    if (!found) continue;
    if (file.scope === 'workspace' && !host.trusted) {
      out.untrusted.push(...Object.keys(found.servers).map((n) => `${n} (${file.label})`));
      continue;
    }
    const { own, again } = claimServers(taken, file.label, found.servers);
    for (const name of again) alsoIn.set(name, [...(alsoIn.get(name) ?? []), file.label]);
    const entries = Object.entries(own)
      .filter(([, e]) => !(e && typeof e === 'object' && (e as { disabled?: unknown }).disabled === true))
      .map(([name, e]) => fileEntry(name, e));
    if (file.scope === 'workspace') {
      if (entries.length && host.heldBack?.(file, found)) out.waiting.push({ file, entries, appeared: true });
      else out.servers.push(...(await parseFile(file, found, own, host, out)));
      continue;
    }
    if (!entries.length) continue;
    if (!host.confirmed(file)) {
      out.waiting.push({ file, entries });
      continue;
    }
    const vouched = host.vouched(file, approvalsDigest(entries));
    const kept = vouched ? own : withoutApprovals(own, file.label, out.problems);
    out.servers.push(...(await parseFile(file, found, kept, host, out)).map((s) => ({ ...s, userFile: { vouched } })));
  }
  return { ...out, servers: withAlsoIn(out.servers, alsoIn), alsoIn };
}

async function parseFile(
  file: ServerFile,
  found: FileServers,
  own: Record<string, unknown>,
  host: FileHost,
  out: FileServersRead,
): Promise<ServerConfig[]> {
  const values = new Map<string, Map<string, string>>();
  for (const [name, entry] of Object.entries(own)) values.set(name, await host.inputs(file, name, entry, found.inputs));
  const ctx: VariableContext = {
    ...host.ctx,
    ...(found.portable ? { portable: true } : {}),
    input: (id: string, server: string) => values.get(server)?.get(id),
  };
  // Env files are read ahead, asynchronously: parsing then never blocks the extension host on the disk.
  const parsed = parseServers(own, { ...ctx, envFiles: await readEnvFiles(own, ctx) }, file.label);
  out.problems.push(...parsed.problems.map((p) => ({ ...p, message: `${p.message} (in ${file.label})` })));
  out.disabled.push(...parsed.disabled);
  return parsed.servers;
}

/** A digest of what a file's servers are, as written: a workspace file confirmed for this content only. */
export function serversDigest(found: FileServers): string {
  return createHash('sha256')
    .update(JSON.stringify([found.servers, found.inputs]))
    .digest('hex')
    .slice(0, 32);
}

/** A digest of what a file's entries pre-approve, by server: the user confirms exactly these. */
export function approvalsDigest(entries: readonly FileEntry[]): string {
  const approving = entries.filter((e) => e.approvals).map((e) => [e.name, e.approvals]);
  return createHash('sha256').update(JSON.stringify(approving)).digest('hex').slice(0, 32);
}

/** An entry as written, for the confirmation: what it runs or reaches and what it pre-approves. */
export function fileEntry(name: string, entry: unknown): FileEntry {
  const e = (entry && typeof entry === 'object' ? entry : {}) as Record<string, unknown>;
  const runs =
    typeof e.url === 'string'
      ? e.url
      : [e.command, ...(Array.isArray(e.args) ? e.args : [])].filter((a) => typeof a === 'string').join(' ');
  const approvals = [
    ...(Array.isArray(e.autoApprove) && e.autoApprove.length ? [`autoApprove ${JSON.stringify(e.autoApprove)}`] : []),
    ...(e.trusted === true ? ['trusted'] : []),
  ].join(', ');
  return { name, runs: runs || '(no command or URL)', ...(approvals ? { approvals } : {}) };
}

/**
 * A user file's entries without what they pre-approve (`autoApprove`, `trusted`), each one said by field: it counts
 * once the user lets it.
 */
function withoutApprovals(
  own: Record<string, unknown>,
  label: string,
  problems: ConfigProblem[],
): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const [name, entry] of Object.entries(own)) {
    if (!entry || typeof entry !== 'object' || Array.isArray(entry)) {
      kept[name] = entry;
      continue;
    }
    const { autoApprove, trusted, ...rest } = entry as Record<string, unknown>;
    for (const [field, value] of [
      ['autoApprove', autoApprove],
      ['trusted', trusted],
    ] as const)
      if (value !== undefined && !(Array.isArray(value) && !value.length))
        problems.push({
          server: name,
          field,
          message: `from ${label} does not count until you let it (MinAgent asks when you review the file)`,
          severity: 'warning',
        });
    kept[name] = rest;
  }
  return kept;
}
