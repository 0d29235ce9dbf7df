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
import { storedInputs } from '../core/mcp/config/storedInputs';
import { settingsValue } from '../core/settingsFile';
import { inputReferences, readServerFile, SERVER_FILES } from './mcpFiles';
import { readJsonc, setting } from './trustedSettings';

export interface WorkspaceConfig {
  servers: ServerConfig[];
  disabled: string[];
  problems: ConfigProblem[];
  settings: HubSettings;
  /** Servers the workspace defines that do not start because it is not trusted. */
  untrusted: string[];
}

async function untrustedWorkspaceServers(folder: vscode.Uri | undefined): Promise<Record<string, unknown>> {
  if (!folder) return {};
  const value = settingsValue(await readJsonc(vscode.Uri.joinPath(folder, '.vscode', 'settings.json')), 'servers');
  return value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
}

/** Reads `minagent.*` settings and, where enabled, the workspace's MCP files, honouring workspace trust. */
export async function loadWorkspaceConfig(inputs: InputStore): Promise<WorkspaceConfig> {
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
    ...(await storedInputs(userServers, settingsInputOrigin('user'), inputs.store)),
    ...(trusted ? await storedInputs(workspaceServers, settingsInputOrigin('workspace'), inputs.store) : []),
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
  const taken = new Set(Object.keys(fromSettings));

  for (const file of SERVER_FILES) {
    if (!folder || !config.get<boolean>(file.setting)) continue;
    if (!trusted) {
      untrusted.push(`${file.label} (all servers)`);
      continue;
    }
    let found: Awaited<ReturnType<typeof readServerFile>>;
    try {
      found = await readServerFile(folder, file);
    } catch (err) {
      problems.push({ server: '', field: file.label, message: (err as Error).message, severity: 'error' });
      continue;
    }
    if (!found) continue;
    const own: Record<string, unknown> = {};
    for (const [name, entry] of Object.entries(found.servers)) {
      if (taken.has(name)) {
        problems.push({
          server: name,
          field: '',
          message: `also defined in ${file.label}; the entry in settings is used`,
          severity: 'warning',
        });
        continue;
      }
      taken.add(name);
      own[name] = entry;
    }
    const values = new Map<string, Map<string, string>>();
    // Each value is bound to the entry as written (before substitution): pointed elsewhere, it is asked for again.
    for (const [name, entry] of Object.entries(own))
      values.set(
        name,
        await inputs.resolve(name, inputBinding(entry, file.label), inputReferences(entry), found.inputs),
      );
    const fileCtx: VariableContext = { ...ctx, input: (id: string, server: string) => values.get(server)?.get(id) };
    const fileParsed = parseServers(own, { ...fileCtx, envFiles: await readEnvFiles(own, fileCtx) }, file.label);
    problems.push(...fileParsed.problems.map((p) => ({ ...p, message: `${p.message} (in ${file.label})` })));
    servers.push(...fileParsed.servers);
    disabled.push(...fileParsed.disabled);
  }

  const settings = parseHubSettings((key) => setting(key, undefined), problems);
  return { servers, disabled, problems, settings, untrusted };
}
