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
import { toolServerFiles, withAlsoIn, workspaceServerFiles } from '../core/mcp/config/serverFiles';
import { readFileServers, type WaitingFile } from '../core/mcp/config/fileServers';
import { readJsonc, setting } from './trustedSettings';
import type { AppearedFiles } from './appearedFiles';
import type { UserFileConsent } from './userFiles';

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

/** What reading the configuration needs of the editor. */
export interface ConfigDeps {
  inputs: InputStore;
  consent: UserFileConsent;
  /** VS Code's user folder of this profile (where its `mcp.json` is), when known. */
  userDir?: string;
  /** The workspace's MCP files that appeared while its sandboxed servers ran. */
  appeared?: AppearedFiles;
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
  const sources = [
    ...(folder?.scheme === 'file' ? workspaceServerFiles(folder.fsPath) : []),
    ...toolServerFiles(deps.userDir),
  ];
  deps.appeared?.note(sources);
  const files = await readFileServers(sources, taken, {
    ctx,
    trusted,
    reads: (file) => config.get<boolean>(file.setting, true) !== false,
    // Each value is bound to the entry as written (before substitution): pointed elsewhere, it is asked for again.
    inputs: (file, name, entry, definitions) =>
      deps.inputs.resolve(name, inputBinding(entry, file.label), inputReferences(entry), definitions),
    confirmed: (file) => deps.consent.confirmed(file),
    vouched: (file, digest) => deps.consent.vouched(file, digest),
    heldBack: (file) => deps.appeared?.heldBack(file) ?? false,
  });
  problems.push(...files.problems);
  untrusted.push(...files.untrusted);

  const settings = parseHubSettings((key) => setting(key, undefined), problems);
  return {
    servers: withAlsoIn([...servers, ...files.servers], files.alsoIn),
    disabled: [...disabled, ...files.disabled],
    problems,
    settings,
    untrusted,
    waiting: files.waiting,
  };
}
