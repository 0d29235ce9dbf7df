import * as vscode from 'vscode';
import { openServerEntry } from './settingsLocation';
import { homedir } from 'node:os';
import { USER_ORIGIN } from '../core/approvals/policy';
import { describeEndpoint, describeLaunch } from '../core/mcp/config/describe';
import { serverIdentity } from '../core/mcp/config/identity';
import type { ServerConfig } from '../core/mcp/config/serverConfig';
import type { ServerHub } from '../core/mcp/hub/serverHub';
import type { ServerInfo } from '../core/mcp/hub/serverInfo';
import {
  parseWorkspaceRule,
  sandboxCacheRoot,
  type SandboxRules,
  type WorkspaceSandboxRule,
} from '../core/mcp/sandbox/decision';
import { describePolicy, type PolicyContext } from '../core/mcp/sandbox/policy';
import { markdownText } from '../shared/markdownText';
import { unsandboxedRow } from './unsandboxedRow';

/** The workspace's servers the user took out of the sandbox (identities), per workspace. */
const EXEMPT_KEY = 'minagent.sandbox.off';
/** The workspace's servers the user was asked about under the `ask` rule (identities), per workspace. */
const ASKED_KEY = 'minagent.sandbox.asked';

/**
 * The editor's sandbox rules: `minagent.sandbox.workspaceServers` read from the user's settings only
 * (a workspace that could turn it off would turn it off), the servers the user took out kept per
 * workspace by identity, and the editor's own storage never readable from a sandbox.
 */
export class EditorSandbox implements SandboxRules {
  constructor(private readonly ext: vscode.ExtensionContext) {}

  get workspaceServers(): WorkspaceSandboxRule {
    const inspected = vscode.workspace.getConfiguration('minagent').inspect<unknown>('sandbox.workspaceServers');
    return parseWorkspaceRule(inspected?.globalValue, 'minagent.sandbox.workspaceServers').rule;
  }

  fromWorkspace(config: ServerConfig): boolean {
    // Another tool's file in the user's profile is the user's, as user settings are.
    return config.origin !== undefined && config.origin !== USER_ORIGIN && !config.userFile;
  }

  exempt(identity: string): boolean {
    return this.exempted().includes(identity);
  }

  get context(): PolicyContext {
    const home = homedir();
    const storage = [this.ext.globalStorageUri, this.ext.storageUri, this.ext.logUri].flatMap((u) =>
      u?.scheme === 'file' ? [u.fsPath] : [],
    );
    const folders = (vscode.workspace.workspaceFolders ?? [])
      .filter((f) => f.uri.scheme === 'file')
      .map((f) => f.uri.fsPath);
    return { home, cacheRoot: sandboxCacheRoot(process.env, home), privatePaths: storage, workspaceFolders: folders };
  }

  /** Takes a workspace server out of its sandbox (after asking), or puts it back; it restarts either way. */
  async setSandboxed(hub: ServerHub, info: ServerInfo, sandboxed: boolean): Promise<void> {
    const identity = serverIdentity(info.config);
    if (!sandboxed) {
      const run = 'Run Without Sandbox';
      // The safe answer is the default button (Enter): taking a server out is a deliberate click.
      const keep = 'Keep in Sandbox';
      const answer = await vscode.window.showWarningMessage(
        `Run "${info.name}" without its sandbox?`,
        {
          modal: true,
          detail: `${[describeEndpoint(info.config), ...describeLaunch(info.config)].join('\n')}\n\nIt comes from ${info.config.origin ?? 'the workspace'}. Outside the sandbox it reads your files (~/.ssh included), writes anywhere and reaches any host, as you can. MinAgent remembers this for this server in this workspace; changing its command puts it back in the sandbox.`,
        },
        keep,
        run,
      );
      if (answer !== run) return;
    }
    const rest = this.exempted().filter((i) => i !== identity);
    await this.ext.workspaceState.update(EXEMPT_KEY, sandboxed ? rest : [...rest, identity]);
    hub.restart(info.name);
  }

  /**
   * Under the `ask` rule: a workspace server in its sandbox that the user was not asked about yet is
   * asked about once (it runs sandboxed meanwhile); Run Without Sandbox takes it out, as on its row.
   */
  askAbout(hub: ServerHub): void {
    if (this.workspaceServers !== 'ask') return;
    const asked = this.identities(ASKED_KEY);
    for (const info of hub.servers()) {
      if (info.sandbox?.reason !== 'workspace' || info.state.kind === 'stopped') continue;
      const identity = serverIdentity(info.config);
      if (asked.includes(identity) || this.pending.has(identity)) continue;
      this.pending.add(identity);
      void this.ask(hub, info, identity);
    }
  }

  private readonly pending = new Set<string>();

  private async ask(hub: ServerHub, info: ServerInfo, identity: string): Promise<void> {
    const keep = 'Keep in Sandbox';
    const run = 'Run Without Sandbox';
    const answer = await vscode.window.showInformationMessage(
      `"${info.name}" (${[describeEndpoint(info.config), ...describeLaunch(info.config)].join('; ')}, from ${info.config.origin ?? 'the workspace'}) runs in a sandbox: it reads all but your secrets, writes only its folder and reaches no host its entry does not allow. Keep it there? Without the sandbox it can do all you can.`,
      keep,
      run,
    );
    this.pending.delete(identity);
    // Dismissed: asked again the next time the window opens.
    if (answer === undefined) return;
    await this.ext.workspaceState.update(ASKED_KEY, [...this.identities(ASKED_KEY), identity]);
    if (answer === run) {
      await this.ext.workspaceState.update(EXEMPT_KEY, [...this.exempted(), identity]);
      hub.restart(info.name);
    }
  }

  private exempted(): string[] {
    return this.identities(EXEMPT_KEY);
  }

  private identities(key: string): string[] {
    const value = this.ext.workspaceState.get<unknown>(key);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  }
}

/**
 * A server row's sandbox. A running server's check mark becomes a lock (the row keeps its width:
 * at the sidebar's default width a longer description is cut); a server with an icon of its own, or
 * one that is not running, says `sandboxed` in its description. A workspace server the user took out
 * stands apart as well (unsandboxedRow). The tooltip has the policy; the row's context value says
 * whether the sandbox can be turned off (a workspace server) or back on.
 */
export function sandboxLook(item: vscode.TreeItem, lines: string[], info: ServerInfo, rules: EditorSandbox): void {
  if (info.config.type !== 'stdio') return;
  if (info.sandbox) {
    if (info.state.kind === 'running' && isCheckMark(item))
      item.iconPath = new vscode.ThemeIcon('lock', new vscode.ThemeColor('testing.iconPassed'));
    else if (!(info.state.kind === 'error' && info.state.noSandbox))
      item.description = item.description ? `${String(item.description)} · sandboxed` : 'sandboxed';
    // One paragraph a line: Markdown joins lines that no blank line separates.
    for (const line of describePolicy(info.sandbox)) lines.push('', markdownText(line));
    // Failed in a sandbox: its row offers the entry's sandbox settings (the sandbox may be why).
    if (info.state.kind === 'error') item.contextValue = `${item.contextValue}.sandboxFailed`;
    if (info.sandbox.reason === 'workspace') item.contextValue = `${item.contextValue}.sandboxed`;
  } else if (rules.fromWorkspace(info.config) && rules.exempt(serverIdentity(info.config))) {
    const row = unsandboxedRow({
      description: item.description === undefined ? undefined : String(item.description),
      checkMark: isCheckMark(item),
    });
    if (row.unlockIcon)
      item.iconPath = new vscode.ThemeIcon('unlock', new vscode.ThemeColor('editorWarning.foreground'));
    item.description = row.description;
    for (const line of row.tooltip) lines.push('', line);
    item.contextValue = `${item.contextValue}.unsandboxed`;
  }
}

/** The running server's check mark: what the sandbox's lock (or an unsandboxed server's unlock) replaces. */
function isCheckMark(item: vscode.TreeItem): boolean {
  return item.iconPath instanceof vscode.ThemeIcon && item.iconPath.id === 'pass-filled';
}

/** Sandbox Off / Sandbox On on a workspace server's row; a change of the rule restarts the workspace's servers. */
export function registerSandboxCommands(hub: ServerHub, rules: EditorSandbox): vscode.Disposable[] {
  const serverOf = (node: unknown) => {
    const name =
      node && typeof node === 'object' && 'name' in node && typeof node.name === 'string' ? node.name : undefined;
    return name ? hub.server(name) : undefined;
  };
  return [
    vscode.commands.registerCommand('minagent.sandboxOff', async (node?: unknown) => {
      const info = serverOf(node);
      if (info) await rules.setSandboxed(hub, info, false);
    }),
    vscode.commands.registerCommand('minagent.sandboxOn', async (node?: unknown) => {
      const info = serverOf(node);
      if (info) await rules.setSandboxed(hub, info, true);
    }),
    vscode.commands.registerCommand('minagent.openSandboxSettings', async (node?: unknown) => {
      const info = serverOf(node);
      if (info) await openServerEntry({ server: info.name, field: 'sandbox' });
    }),
    hub.onDidChangeServers(() => rules.askAbout(hub)),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (!e.affectsConfiguration('minagent.sandbox.workspaceServers')) return;
      for (const s of hub.servers())
        if (s.config.type === 'stdio' && rules.fromWorkspace(s.config) && s.state.kind !== 'stopped')
          hub.restart(s.name);
    }),
  ];
}
