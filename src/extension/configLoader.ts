import * as vscode from 'vscode';
import { homedir } from 'node:os';
import { parseHubSettings, type HubSettings } from '../core/mcp/config/hubSettings';
import { parseServers } from '../core/mcp/config/parseServers';
import { readEnvFiles } from '../core/mcp/config/envFiles';
import type { ConfigProblem, ServerConfig } from '../core/mcp/config/serverConfig';
import type { VariableContext } from '../core/mcp/config/variables';
import { USER_ORIGIN } from '../core/approvals/policy';
import { inputBinding } from '../core/mcp/config/inputBinding';
import { settingsInputOrigin, type InputStore } from './inputs';
import { settingsValue } from '../core/settingsFile';
import { inputReferences, storedInputs } from '../core/mcp/config/storedInputs';
import {
  claimServers,
  readServerFile,
  toolServerFiles,
  withAlsoIn,
  workspaceServerFiles,
  type FileServers,
  type ServerFile,
} from '../core/mcp/config/serverFiles';
import { readJsonc, setting } from './trustedSettings';
import { approvalsDigest, fileEntry, type FileEntry, type UserFileConsent } from './userFiles';

export interface WorkspaceConfig {
  servers: ServerConfig[];
  disabled: string[];
  problems: ConfigProblem[];
  settings: HubSettings;
  /** Servers the workspace defines that do not start because it is not trusted. */
  untrusted: string[];
  /** Other tools' files whose servers wait for the user's confirmation. */
  waiting: WaitingFile[];
}

/** Another tool's file whose servers wait for the user to confirm it. */
export interface WaitingFile {
  file: ServerFile;
  entries: FileEntry[];
}

/** What reading the configuration needs of the editor. */
export interface ConfigDeps {
  inputs: InputStore;
  consent: UserFileConsent;
  /** VS Code's user folder of this profile (where its `mcp.json` is), when known. */
  userDir?: string;
}

async function untrustedWorkspaceServers(folder: vscode.Uri | undefined): Promise<Record<string, unknown>> {
  if (!folder) return {};
  const value = settingsValue(await readJsonc(vscode.Uri.joinPath(folder, '.vscode', 'settings.json')), 'servers');
  return value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
}

/**
 * Reads `minagent.*` settings, the workspace's MCP files (honouring workspace trust) and other tools' MCP files of the
 * user (honouring the user's confirmation of each).
 */
export async function loadWorkspaceConfig(deps: ConfigDeps): Promise<WorkspaceConfig> {
  const config = vscode.workspace.getConfiguration('minagent');
  const trusted = vscode.workspace.isTrusted;
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  // Untrusted: the user's own servers start in their home folder and read no env file from any
  // folder of the workspace (a multi-root workspace's second root is as untrusted as its first).
  const workspaceFolders = (vscode.workspace.workspaceFolders ?? [])
    .filter((f) => f.uri.scheme === 'file')
    .map((f) => f.uri.fsPath);
  const ctx: VariableContext = {
    ...(folder?.scheme === 'file' ? { workspaceFolder: folder.fsPath } : {}),
    workspaceFolders,
    userHome: homedir(),
    ...(trusted ? {} : { untrusted: true }),
  };

  const inspected = config.inspect<Record<string, unknown>>('servers');
  const userServers = inspected?.globalValue ?? {};
  const workspaceServers = { ...(inspected?.workspaceValue ?? {}), ...(inspected?.workspaceFolderValue ?? {}) };
  // Restricted settings: in an untrusted workspace only the user's own servers start. VS Code
  // hides the workspace's values then, so the workspace file is read to say what did not start.
  const fromSettings = trusted ? { ...userServers, ...workspaceServers } : userServers;
  const untrusted = trusted
    ? []
    : Object.keys(await untrustedWorkspaceServers(folder)).filter((k) => !(k in userServers));

  const problems: ConfigProblem[] = [];
  // `${input:}` values of settings entries (a registry's secrets), each bound to its entry and scope.
  const stored = new Map([
    ...(await storedInputs(userServers, settingsInputOrigin('user'), deps.inputs.store)),
    ...(trusted ? await storedInputs(workspaceServers, settingsInputOrigin('workspace'), deps.inputs.store) : []),
  ]);
  const settingsCtx: VariableContext = { ...ctx, input: (id: string, server: string) => stored.get(server)?.get(id) };
  // Env files are read ahead, asynchronously: parsing then never blocks the extension host on the disk.
  const parsed = parseServers(
    fromSettings,
    { ...settingsCtx, envFiles: await readEnvFiles(fromSettings, ctx) },
    'settings',
  );
  problems.push(...parsed.problems);
  // Where each entry came from decides what it may do (e.g. `autoApprove: ["*"]` only from the user).
  const servers: ServerConfig[] = parsed.servers.map((s) => ({
    ...s,
    origin: trusted && s.name in workspaceServers ? 'workspace settings' : USER_ORIGIN,
  }));
  const disabled = [...parsed.disabled];
  // Each name's first source: settings, then the workspace's files, then other tools' files of the user's.
  const taken = new Map(Object.keys(fromSettings).map((n) => [n, 'settings']));
  const alsoIn = new Map<string, string[]>();
  const noteAgain = (names: string[], label: string) => {
    for (const name of names) alsoIn.set(name, [...(alsoIn.get(name) ?? []), label]);
  };
  const read = async (file: ServerFile) => {
    if (!config.get<boolean>(file.setting, true)) return undefined;
    try {
      return await readServerFile(file);
    } catch (err) {
      problems.push({ server: '', field: file.label, message: (err as Error).message, severity: 'error' });
      return undefined;
    }
  };
  const parseFile = async (file: ServerFile, found: FileServers, own: Record<string, unknown>) => {
    const values = new Map<string, Map<string, string>>();
    // Each value is bound to the entry as written (before substitution): pointed elsewhere, it is asked for again.
    for (const [name, entry] of Object.entries(own))
      values.set(
        name,
        await deps.inputs.resolve(name, inputBinding(entry, file.label), inputReferences(entry), found.inputs),
      );
    const fileCtx: VariableContext = {
      ...ctx,
      ...(found.portable ? { portable: true } : {}),
      input: (id: string, server: string) => values.get(server)?.get(id),
    };
    const fileParsed = parseServers(own, { ...fileCtx, envFiles: await readEnvFiles(own, fileCtx) }, file.label);
    problems.push(...fileParsed.problems.map((p) => ({ ...p, message: `${p.message} (in ${file.label})` })));
    disabled.push(...fileParsed.disabled);
    return fileParsed.servers;
  };

  // The workspace's files: what its settings are (trust first, then the sandbox for what it starts).
  for (const file of folder?.scheme === 'file' ? workspaceServerFiles(folder.fsPath) : []) {
    const found = await read(file);
    if (!found) continue;
    if (!trusted) {
      untrusted.push(...Object.keys(found.servers).map((n) => `${n} (${file.label})`));
      continue;
    }
    const { own, again } = claimServers(taken, file.label, found.servers);
    noteAgain(again, file.label);
    servers.push(...(await parseFile(file, found, own)));
  }

  // Other tools' files in the user's profile: started once the user confirms the file; what they pre-approve counts
  // only once confirmed too.
  const waiting: WaitingFile[] = [];
  for (const file of toolServerFiles(deps.userDir)) {
    const found = await read(file);
    if (!found) continue;
    const { own, again } = claimServers(taken, file.label, found.servers);
    noteAgain(again, file.label);
    const entries = Object.entries(own)
      .filter(([, e]) => !(e && typeof e === 'object' && (e as { disabled?: unknown }).disabled === true))
      .map(([name, e]) => fileEntry(name, e));
    if (!entries.length) continue;
    if (!deps.consent.confirmed(file)) {
      waiting.push({ file, entries });
      continue;
    }
    const vouched = deps.consent.vouched(file, approvalsDigest(entries));
    const kept = vouched ? own : withoutApprovals(own, file.label, problems);
    servers.push(...(await parseFile(file, found, kept)).map((s) => ({ ...s, userFile: { vouched } })));
  }

  const settings = parseHubSettings((key) => setting(key, undefined), problems);
  return { servers: withAlsoIn(servers, alsoIn), disabled, problems, settings, untrusted, waiting };
}

/**
 * A user file's entries without what they pre-approve (`autoApprove`, `trusted`), each one said by field: it counts
 * once the user lets it (MinAgent: Review Servers of Other Tools).
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
          message: `from ${label} does not count until you let it ("MinAgent: Review Servers of Other Tools")`,
          severity: 'warning',
        });
    kept[name] = rest;
  }
  return kept;
}
