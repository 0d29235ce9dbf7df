import { dirname, join } from 'node:path';
import { cliConfigDir, FileSecretStore } from '../core/auth/fileStore';
import type { SecretStore } from '../core/base/secretStore';
import {
  approvalsDigest,
  readFileServers,
  serversDigest,
  type FileServersRead,
  type WaitingFile,
} from '../core/mcp/config/fileServers';
import { readServerFile, toolServerFiles, workspaceServerFiles, type ServerFile } from '../core/mcp/config/serverFiles';
import { inputReferences, storedInputKey } from '../core/mcp/config/storedInputs';
import { settingsValue } from '../core/settingsFile';
import type { Terminal } from './approve';
import { terminalLine } from './terminalText';
import { userSettingsFile } from './userSettings';

/** What the user confirmed of other tools' MCP files in the CLI, by path (as the editor keeps it in its state). */
export const confirmedFilesFile = (env: NodeJS.ProcessEnv = process.env) =>
  join(cliConfigDir(env), 'confirmed-files.json');

interface Confirmed {
  at: string;
  /** Another tool's file: the pre-approvals the user let count. */
  approvals?: string;
  /** A workspace file: what its servers were when the user trusted them (serversDigest). */
  servers?: string;
}

export interface CliFilesOptions {
  workspace: string;
  /** The folder's settings: `minagent.discovery.*` turns a file off. */
  settings: Record<string, unknown>;
  /** The names the settings file defines (it wins a clash). */
  taken: readonly string[];
  /** Where `${input:}` values given for the files' entries are kept. */
  inputs: SecretStore;
  /** The terminal to ask on about another tool's file, when there is one. */
  terminal: Terminal | undefined;
  /** `--trust` or `MINAGENT_TRUST=1`: other tools' files start for this run too (their pre-approvals do not count). */
  trustedByFlag: boolean;
  /**
   * The folder was trusted on an earlier run: a workspace file whose servers changed since (a sandboxed server may
   * have made or written it) waits for the user. Not yet trusted: the trust question covers every file.
   */
  folderTrusted: boolean;
  env?: NodeJS.ProcessEnv;
}

/**
 * The servers of the MCP files the editor reads, for the CLI: the workspace folder's `.vscode/mcp.json`, `.mcp.json`
 * and `.github/mcp.json` (the folder's, under its trust question), then VS Code's user `mcp.json` and Copilot's
 * `mcp-config.json`, which start once confirmed on a terminal (y: start; a: start, and their autoApprove and trusted
 * count), remembered per file. The settings file (`--settings`) wins a name clash.
 */
export async function cliFileServers(o: CliFilesOptions): Promise<FileServersRead & { alsoIn: Map<string, string[]> }> {
  const env = o.env ?? process.env;
  // One entry per file path: what was confirmed, as JSON (a file only the user reads, written whole).
  const store = new FileSecretStore(confirmedFilesFile(env));
  const confirmedNow = async () => {
    const all: Record<string, Confirmed> = {};
    for (const f of files) {
      const text = await store.get(f.path);
      try {
        if (text) all[f.path] = JSON.parse(text) as Confirmed;
      } catch {
        // A damaged record is no confirmation: asked again.
      }
    }
    return all;
  };
  const files = [
    ...workspaceServerFiles(o.workspace),
    ...toolServerFiles(dirname(userSettingsFile(env)), env, env.HOME),
  ];
  const read = (confirmed: Record<string, Confirmed>, forRun: Set<string>) =>
    readFileServers(files, new Map(o.taken.map((n) => [n, 'settings'])), {
      ctx: { workspaceFolder: o.workspace, ...(env.HOME ? { userHome: env.HOME } : {}) },
      trusted: true,
      reads: (file) => settingsValue(o.settings, file.setting) !== false,
      inputs: async (file, name, entry) => {
        const values = new Map<string, string>();
        for (const id of inputReferences(entry)) {
          const value = await o.inputs.get(storedInputKey(file.path, name, entry, id));
          if (value !== undefined) values.set(id, value);
        }
        return values;
      },
      // What a sandboxed server could have made or written (.vscode is read-only in a sandbox, and always there).
      heldBack: (file, found) =>
        file.sandboxCanMake === true &&
        o.folderTrusted &&
        !forRun.has(file.path) &&
        confirmed[file.path]?.servers !== serversDigest(found),
      confirmed: (file) => confirmed[file.path] !== undefined || forRun.has(file.path),
      vouched: (file, digest) => confirmed[file.path]?.approvals === digest,
    });
  const forRun = new Set<string>();
  const first = await read(await confirmedNow(), forRun);
  if (!first.waiting.length) return first;
  for (const waiting of first.waiting) {
    if (o.trustedByFlag) forRun.add(waiting.file.path);
    else if (o.terminal && waiting.appeared) {
      if (await askChanged(o.terminal, waiting)) await rememberServers(store, waiting.file);
    } else if (o.terminal) {
      const answer = await ask(o.terminal, waiting);
      if (answer)
        await store.store(
          waiting.file.path,
          JSON.stringify({
            at: new Date().toISOString(),
            ...(answer === 'a' ? { approvals: approvalsDigest(waiting.entries) } : {}),
          }),
        );
    }
  }
  return read(await confirmedNow(), forRun);
}

/** Remembers the servers of the folder's MCP files as they are now: the user trusted the folder with them. */
export async function rememberWorkspaceFiles(workspace: string, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const store = new FileSecretStore(confirmedFilesFile(env));
  for (const file of workspaceServerFiles(workspace)) await rememberServers(store, file);
}

async function rememberServers(store: FileSecretStore, file: ServerFile): Promise<void> {
  const found = await readServerFile(file).catch(() => undefined);
  if (found)
    await store.store(file.path, JSON.stringify({ at: new Date().toISOString(), servers: serversDigest(found) }));
}

/** Asks about a workspace file whose servers changed since the folder was trusted. */
async function askChanged(terminal: Terminal, waiting: WaitingFile): Promise<boolean> {
  terminal.note(
    [
      `${terminalLine(waiting.file.path)} changed since you trusted this folder (a sandboxed server may have written it); it starts:`,
      ...waiting.entries.map((e) => `  ${terminalLine(e.name)}: ${terminalLine(e.runs)}`),
    ].join('\n'),
  );
  const answer = (await terminal.question('Start them? (remembered for this content of the file) [y/N]: '))
    .trim()
    .toLowerCase();
  return answer === 'y' || answer === 'yes';
}

async function ask(terminal: Terminal, waiting: WaitingFile): Promise<'y' | 'a' | undefined> {
  const approving = waiting.entries.filter((e) => e.approvals);
  terminal.note(
    [
      `${terminalLine(waiting.file.label)} (${terminalLine(waiting.file.path)}), another tool's MCP file, lists:`,
      ...waiting.entries.map((e) => `  ${terminalLine(e.name)}: ${terminalLine(e.runs)}`),
      'They run with your rights.',
      ...(approving.length
        ? [
            `Their entries also approve tools in advance (${approving.map((e) => `${terminalLine(e.name)}: ${terminalLine(e.approvals!)}`).join('; ')}): that counts only with "a".`,
          ]
        : []),
    ].join('\n'),
  );
  const answer = (
    await terminal.question(
      `Start them? (remembered for this file) [y${approving.length ? '/a(pprovals too)' : ''}/N]: `,
    )
  )
    .trim()
    .toLowerCase();
  if (answer === 'y' || answer === 'yes') return 'y';
  if (approving.length && answer === 'a') return 'a';
  return undefined;
}
