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
import { claimServers, toolServerFiles, withAlsoIn, workspaceServerFiles } from '../core/mcp/config/serverFiles';
import { readFileServers, type FileHost, type WaitingFile } from '../core/mcp/config/fileServers';
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
  const roots = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file');
  const workspaceFolders = roots.map((f) => f.uri.fsPath);
  const ctx: VariableContext = {
    ...(folder?.scheme === 'file' ? { workspaceFolder: folder.fsPath } : {}),
    workspaceFolders,
    userHome: homedir(),
    ...(trusted ? {} : { untrusted: true }),
  };

  const inspected = config.inspect<Record<string, unknown>>('servers');
  const userServers = inspected?.globalValue ?? {};
  // The workspace's own: a folder's settings, or a multi-root workspace's file (each folder's come below).
  const workspaceServers = { ...(inspected?.workspaceValue ?? {}), ...(inspected?.workspaceFolderValue ?? {}) };
  // Restricted settings: in an untrusted workspace only the user's own servers start. VS Code
  // hides the workspace's values then, so the workspace file is read to say what did not start.
  const fromSettings = trusted ? { ...userServers, ...workspaceServers } : userServers;
  const untrusted =
    trusted || roots.length > 1
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
  // Each name's first source: settings, then each folder's settings and MCP files, then other tools' files of the
  // user's. A name defined again later shows once; its tooltip names the other places (alsoIn).
  const taken = new Map(Object.keys(fromSettings).map((n) => [n, 'settings']));
  const alsoIn = new Map<string, string[]>();
  const noteAgain = (more: Map<string, string[]>) => {
    for (const [name, labels] of more) alsoIn.set(name, [...(alsoIn.get(name) ?? []), ...labels]);
  };
  const untrustedNames = [...untrusted];
  const fileHost = (folderCtx: VariableContext): FileHost => ({
    ctx: folderCtx,
    trusted,
    reads: (file) => config.get<boolean>(file.setting, true) !== false,
    // Each value is bound to the entry as written (before substitution): pointed elsewhere, it is asked for again.
    inputs: (file, name, entry, definitions) =>
      deps.inputs.resolve(name, inputBinding(entry, file.label), inputReferences(entry), definitions),
    confirmed: (file) => deps.consent.confirmed(file),
    vouched: (file, digest) => deps.consent.vouched(file, digest),
    heldBack: (file) => deps.appeared?.heldBack(file) ?? false,
  });
  const waiting: WaitingFile[] = [];
  const add = (read: Awaited<ReturnType<typeof readFileServers>>, folderName?: string) => {
    problems.push(...read.problems);
    untrustedNames.push(...read.untrusted);
    disabled.push(...read.disabled);
    waiting.push(...read.waiting);
    noteAgain(read.alsoIn);
    servers.push(...read.servers.map((s) => (folderName ? { ...s, folder: folderName } : s)));
  };

  // Each folder of the workspace: in a multi-root workspace its own settings and MCP files, with its own
  // ${workspaceFolder} and cwd, named by the folder (trust and the sandbox as for the workspace's settings).
  const multiRoot = roots.length > 1;
  const rootFiles = roots.map((root) => ({
    root,
    files: workspaceServerFiles(root.uri.fsPath).map((f) =>
      multiRoot ? { ...f, label: `${root.name}/${f.label}` } : f,
    ),
  }));
  const userFiles = toolServerFiles(deps.userDir);
  deps.appeared?.note([...rootFiles.flatMap((r) => r.files), ...userFiles]);
  for (const { root, files } of rootFiles) {
    const folderCtx: VariableContext = { ...ctx, workspaceFolder: root.uri.fsPath };
    if (multiRoot) {
      const own = trusted ? folderSettings(root) : await untrustedWorkspaceServers(root.uri);
      const label = `${root.name}/.vscode/settings.json`;
      if (!trusted) untrustedNames.push(...Object.keys(own).map((n) => `${n} (${label})`));
      else {
        const { own: claimed, again } = claimServers(taken, label, own);
        noteAgain(new Map(again.map((n) => [n, [label]])));
        const values = await storedInputs(
          claimed,
          `${settingsInputOrigin('workspace')} ${root.name}`,
          deps.inputs.store,
        );
        const fctx = { ...folderCtx, input: (id: string, server: string) => values.get(server)?.get(id) };
        const parsedFolder = parseServers(claimed, { ...fctx, envFiles: await readEnvFiles(claimed, fctx) }, label);
        problems.push(...parsedFolder.problems.map((p) => ({ ...p, message: `${p.message} (in ${label})` })));
        disabled.push(...parsedFolder.disabled);
        servers.push(...parsedFolder.servers.map((c) => ({ ...c, origin: 'workspace settings', folder: root.name })));
      }
    }
    add(await readFileServers(files, taken, fileHost(folderCtx)), multiRoot ? root.name : undefined);
  }
  add(await readFileServers(userFiles, taken, fileHost(ctx)));

  const settings = parseHubSettings((key) => setting(key, undefined), problems);
  return { servers: withAlsoIn(servers, alsoIn), disabled, problems, settings, untrusted: untrustedNames, waiting };
}

/** A folder's own `minagent.servers` (its `.vscode/settings.json` in a multi-root workspace). */
function folderSettings(root: vscode.WorkspaceFolder): Record<string, unknown> {
  const value = vscode.workspace
    .getConfiguration('minagent', root.uri)
    .inspect<Record<string, unknown>>('servers')?.workspaceFolderValue;
  return value && typeof value === 'object' ? value : {};
}
