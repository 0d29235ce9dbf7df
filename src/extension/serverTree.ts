import * as vscode from 'vscode';
import { countTools, toolCountText, uncountedNote } from '../core/toolRegistry/toolCounts';
import { signInLook } from './oauth';
import { USER_ORIGIN } from '../core/approvals/policy';
import { describeEndpoint, describeLaunch, describeProblem } from '../core/mcp/config/describe';
import { serverRedactor } from '../core/mcp/config/serverRedactor';
import { describeProtocol } from '../core/mcp/connection/era';
import { markdownCode, markdownText } from '../shared/markdownText';
import { failureText, type ServerHub, type ServerInfo } from '../core/mcp/hub/serverHub';
import { assertNever } from '../core/mcp/connection/state';
import type { Tool } from '../core/toolRegistry/toolRegistry';
import type { ToolSwitches } from '../core/toolRegistry/toolSwitches';
import type { ToolPins } from '../core/toolSearch/pins';
import type { WorkspaceConfig } from './configLoader';
import { errorNode } from './errorNode';
import { toolItem, toolTooltipOf } from './toolRow';
import { skillItem, skillNodes, skillsGroup, skillsItem } from './skillRows';
import { liveTooltips, uptimeLine } from './uptime';
import { openEntryCommand, problemRef } from './entryCommand';
import type { Node } from './treeNode';
import type { IconSource } from './icons/iconSource';
import { sandboxLook, type EditorSandbox } from './sandbox';
import type { Catalogs } from './serverRegistry/catalogs';
import { registryLook } from './serverRegistry/entryActions';

/** Up to this many servers, server nodes start expanded. */
const EXPANDED_UP_TO = 5;

/** The Tools tree: servers with their state, their tools, errors with actions, and configuration problems. */
export class ServerTreeProvider implements vscode.TreeDataProvider<Node>, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<Node | undefined>();
  readonly onDidChangeTreeData = this.emitter.event;
  /** Each server's tools, indexed once per registry change: expanding one never walks every server's tools. */
  private toolsByServer: Map<string, Tool[]> | undefined;
  private readonly registryListener: { dispose(): void };

  constructor(
    private readonly hub: ServerHub,
    private readonly config: () => WorkspaceConfig | undefined,
    private readonly switches: ToolSwitches,
    /** Tokens of a server's tool schemas in a request to the selected model, once measured. */
    private readonly schemaCost: (server: string) => number | undefined,
    /** The servers' and tools' own icons (checked); the state icon stands in until one is loaded. */
    private readonly icons?: IconSource,
    /** Tools pinned into every request (marked, with Pin and Unpin on their rows). */
    private readonly pins?: ToolPins,
    /** Which servers run in a sandbox: their rows say so, with Sandbox Off / On. */
    private readonly sandbox?: EditorSandbox,
    /**
     * The registries read: a registry-added server's row says where it came from, and offers Update when a newer
     * version is listed.
     */
    private readonly catalogs?: Catalogs,
  ) {
    this.registryListener = hub.registry.onDidChange(() => (this.toolsByServer = undefined));
  }

  /** The wire names the open chat has loaded (searched or used), marked on their rows. */
  private loaded: () => ReadonlySet<string> = () => new Set();

  /** Where the open chat's loaded tools are read (the chat is wired after the tree). */
  showLoaded(loaded: () => ReadonlySet<string>): void {
    this.loaded = loaded;
  }

  /** The checkboxes switch a server or a tool on or off for this workspace. */
  async applyCheckboxes(items: ReadonlyArray<readonly [Node, vscode.TreeItemCheckboxState]>): Promise<void> {
    for (const [node, state] of items) {
      const on = state === vscode.TreeItemCheckboxState.Checked;
      if (node.kind === 'server') await this.switches.setServer(node.name, on);
      else if (node.kind === 'tool') {
        const tool = this.hub.registry.get(node.name);
        if (tool) await this.switches.setTool(tool, on);
      }
    }
  }

  refresh(): void {
    this.emitter.fire(undefined);
  }

  /**
   * A row's parent, for TreeView.reveal (AddedServerReveal reveals server rows, which are at the top): a
   * tool's and an action's is their server; a message does not keep where it is shown, and no message is revealed.
   */
  getParent(node: Node): Node | undefined {
    return node.kind === 'tool' || node.kind === 'action' ? { kind: 'server', name: node.server } : undefined;
  }

  getChildren(node?: Node): Node[] {
    if (!node) return this.roots();
    if (node.kind === 'server') return this.serverChildren(node.name);
    if (node.kind === 'skills') return skillNodes(this.hub, node);
    if (node.kind === 'broken')
      return [
        {
          kind: 'message',
          id: `broken:${node.name}:msg`,
          label: describeProblem(node.problem),
          icon: 'error',
          color: 'errorForeground',
          open: problemRef(node.problem),
        },
      ];
    return [];
  }

  private roots(): Node[] {
    const cfg = this.config();
    const nodes: Node[] = [];
    if (cfg?.untrusted.length) nodes.push({ kind: 'trust', names: cfg.untrusted });
    for (const w of cfg?.waiting ?? [])
      nodes.push({
        kind: 'waiting',
        label: w.file.label,
        path: w.file.path,
        names: w.entries.map((e) => e.name),
        ...(w.appeared ? { appeared: true as const } : {}),
      });
    for (const name of this.hub.serverNames()) nodes.push({ kind: 'server', name });
    const seen = new Set<string>();
    for (const p of cfg?.problems ?? []) {
      if (p.severity === 'error' && p.server && !seen.has(p.server)) {
        seen.add(p.server);
        nodes.push({ kind: 'broken', name: p.server, problem: p });
      } else if (!p.server) {
        nodes.push({
          kind: 'message',
          id: `problem:${p.field}:${p.message}`,
          label: describeProblem(p),
          icon: p.severity === 'error' ? 'error' : 'warning',
          color: p.severity === 'error' ? 'errorForeground' : 'editorWarning.foreground',
        });
      }
    }
    for (const name of cfg?.disabled ?? []) nodes.push({ kind: 'disabled', name });
    return nodes;
  }

  private serverChildren(name: string): Node[] {
    const info = this.hub.server(name);
    if (!info) return [];
    const nodes: Node[] = [];
    const problems = this.hub.problems();
    const warnings = [
      ...(this.config()?.problems ?? [])
        .filter((p) => p.server === name && p.severity === 'warning')
        .map((p) => describeProblem(p)),
      ...[...problems.naming, ...problems.tools].filter((p) => p.server === name).map((p) => p.message),
    ];
    warnings.forEach((w, i) =>
      nodes.push({
        kind: 'message',
        id: `warn:${name}:${i}`,
        label: w,
        icon: 'warning',
        color: 'editorWarning.foreground',
      }),
    );
    const state = info.state;
    switch (state.kind) {
      case 'running':
        nodes.push(...this.toolsOf(name).map((t): Node => ({ kind: 'tool', server: name, name: t.name })));
        nodes.push(...skillsGroup(this.hub, name));
        break;
      case 'signIn':
        nodes.push({ kind: 'action', server: name, label: 'Sign In', command: 'minagent.signIn', icon: 'account' });
        break;
      case 'error':
        nodes.push(errorNode(info));
        nodes.push({ kind: 'action', server: name, label: 'Show Logs', command: 'minagent.showLogs', icon: 'output' });
        nodes.push({
          kind: 'action',
          server: name,
          label: 'Restart',
          command: 'minagent.restartServer',
          icon: 'debug-restart',
        });
        break;
      case 'starting':
      case 'stopped':
        break;
      default:
        assertNever(state);
    }
    return nodes;
  }

  private toolsOf(server: string): Tool[] {
    if (!this.toolsByServer) {
      this.toolsByServer = new Map();
      for (const t of this.hub.registry.list())
        if (t.server !== undefined)
          (this.toolsByServer.get(t.server) ?? this.toolsByServer.set(t.server, []).get(t.server)!).push(t);
    }
    return this.toolsByServer.get(server) ?? [];
  }

  /** Made when hovered (VS Code asks only for an item without a tooltip). */
  resolveTreeItem(item: vscode.TreeItem): vscode.TreeItem {
    const live = liveTooltips.get(item);
    if (live) item.tooltip = new vscode.MarkdownString(`${live.text}\n\n${uptimeLine(live.startedAt, Date.now())}`);
    const tooltip = toolTooltipOf(item, this.hub.registry);
    if (tooltip) item.tooltip = tooltip;
    return item;
  }

  getTreeItem(node: Node): vscode.TreeItem {
    switch (node.kind) {
      case 'trust': {
        const item = new vscode.TreeItem('Workspace servers are not started: this workspace is not trusted');
        item.id = 'trust';
        item.iconPath = new vscode.ThemeIcon('shield', new vscode.ThemeColor('editorWarning.foreground'));
        item.description = node.names.join(', ');
        item.tooltip = new vscode.MarkdownString(
          `MCP servers run programs on your machine, so servers defined by an untrusted workspace do not start.\n\nNot started: ${markdownText(node.names.join(', '))}\n\nClick to manage workspace trust.`,
        );
        item.command = { command: 'workbench.trust.manage', title: 'Manage Workspace Trust' };
        item.contextValue = 'trust';
        return item;
      }
      case 'waiting': {
        const item = new vscode.TreeItem(`Servers of ${node.label} wait for you`);
        item.id = `waiting:${node.path}`;
        item.iconPath = new vscode.ThemeIcon('question', new vscode.ThemeColor('editorInfo.foreground'));
        item.description = node.names.join(', ');
        item.tooltip = new vscode.MarkdownString(
          node.appeared
            ? `${markdownCode(node.path)} appeared while this workspace's sandboxed servers ran, so one of them may have written it. It lists ${markdownText(node.names.join(', '))}: they start once you say so. Click to review.`
            : `Another tool's MCP file lists ${markdownText(node.names.join(', '))}: ${markdownCode(node.path)}\n\nThey start in MinAgent once you confirm the file. Click to review.`,
        );
        item.command = { command: 'minagent.reviewUserFile', title: 'Review Servers', arguments: [node.path] };
        item.contextValue = 'waiting';
        return item;
      }
      case 'server':
        return this.serverItem(this.hub.server(node.name));
      case 'broken': {
        const item = new vscode.TreeItem(node.name, vscode.TreeItemCollapsibleState.Expanded);
        item.id = `broken:${node.name}`;
        item.iconPath = new vscode.ThemeIcon('error', new vscode.ThemeColor('errorForeground'));
        item.description = node.problem.field ? `invalid field "${node.problem.field}"` : 'invalid entry';
        item.tooltip = describeProblem(node.problem);
        item.command = openEntryCommand(problemRef(node.problem));
        item.contextValue = 'broken';
        return item;
      }
      case 'disabled': {
        const item = new vscode.TreeItem(node.name);
        item.id = `disabled:${node.name}`;
        item.iconPath = new vscode.ThemeIcon('circle-slash');
        item.description = 'disabled in settings';
        item.contextValue = 'disabled';
        return item;
      }
      case 'skills':
        return skillsItem(this.hub, node);
      case 'skill':
        return skillItem(this.hub, node);
      case 'tool':
        return toolItem(node, this.hub.registry.get(node.name), {
          registry: this.hub.registry,
          switches: this.switches,
          icons: this.icons,
          pins: this.pins,
          loaded: this.loaded(),
        });
      case 'message': {
        const item = new vscode.TreeItem(node.label);
        item.id = node.id;
        item.iconPath = new vscode.ThemeIcon(node.icon, node.color ? new vscode.ThemeColor(node.color) : undefined);
        if (node.detail) item.description = node.detail;
        item.tooltip = node.tooltip ?? node.label;
        if (node.open) item.command = openEntryCommand(node.open);
        item.contextValue = 'message';
        return item;
      }
      case 'action': {
        const item = new vscode.TreeItem(node.label);
        item.id = `action:${node.server}:${node.command}`;
        item.iconPath = new vscode.ThemeIcon(node.icon);
        item.command = {
          command: node.command,
          title: node.label,
          arguments: [{ kind: 'server', name: node.server } satisfies Node],
        };
        item.contextValue = 'action';
        return item;
      }
      default:
        return assertNever(node);
    }
  }

  private serverItem(info: ServerInfo | undefined): vscode.TreeItem {
    if (!info) return new vscode.TreeItem('(gone)');
    const state = info.state;
    // A few servers open expanded; many start collapsed (50 expanded servers of 100 tools made the
    // first render 5x slower, bench/treeRender.ts), except one that failed: its error shows at once.
    const expanded =
      info.state.kind === 'error' || info.state.kind === 'signIn' || this.hub.serverNames().length <= EXPANDED_UP_TO;
    const item = new vscode.TreeItem(
      info.name,
      expanded ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed,
    );
    // VS Code keeps a row's expansion by id: a failed server gets its own id, so it opens even if it started collapsed.
    item.id = state.kind === 'error' ? `server:${info.name}:failed` : `server:${info.name}`;
    item.contextValue = `server.${state.kind}`;
    // Every part but the state is written by the workspace or the server: set as text.
    const lines = [`**${markdownText(info.name)}** — ${state.kind}`, '', markdownCode(describeEndpoint(info.config))];
    // Where it starts and what it is given, as the entry wrote them (core/mcp/config/describe.ts).
    if (info.config.type === 'stdio') {
      lines.push('', `cwd: ${markdownCode(serverRedactor(info.config).redact(info.config.cwd))}`);
      for (const line of describeLaunch(info.config, { hideWritten: info.config.origin === USER_ORIGIN }).slice(1))
        lines.push('', markdownText(line));
    }
    if (info.config.origin && info.config.origin !== USER_ORIGIN)
      lines.push('', markdownText(`from ${info.config.origin}`));
    if (info.config.alsoIn?.length)
      lines.push(
        '',
        markdownText(
          `also defined in ${info.config.alsoIn.join(', ')} (not used: the entry above is the one that runs)`,
        ),
      );
    switch (state.kind) {
      case 'starting':
        item.iconPath = new vscode.ThemeIcon('loading~spin');
        // Past the connect limit, why it may be slow (npx downloading): our own words, about the entry's command.
        item.description = state.slow ? `starting… (${state.slow})` : 'starting…';
        if (state.slow) lines.push('', markdownText(`Still starting (${state.slow}).`));
        break;
      case 'running': {
        const identity = this.hub.catalog.serverInfo(info.name);
        item.iconPath =
          this.icons?.path(identity?.icons) ??
          new vscode.ThemeIcon('pass-filled', new vscode.ThemeColor('testing.iconPassed'));
        const cost = this.schemaCost(info.name);
        const on = this.switches.serverOn(info.name);
        // The server's own title: attacker-written, and it may echo a secret the entry gave it.
        const title = identity?.title ? serverRedactor(info.config).redact(identity.title) : undefined;
        if (title) lines.splice(1, 0, '', markdownText(title));
        // The tools the model can be sent, less those switched off one by one (nor their tokens): the row
        // agrees with the meter; tools kept for the server's apps are listed below but said apart.
        const counts = countTools(this.toolsOf(info.name), (t) => this.switches.toolSwitchedOn(t));
        const count = toolCountText(counts);
        const uncounted = uncountedNote(counts);
        if (uncounted) lines.push('', markdownText(uncounted));
        // What a glance needs, short enough for the default sidebar: the title and the revision are in the tooltip.
        item.description = `${on ? '' : 'off · '}${count}${cost !== undefined ? ` · ${formatTokens(cost)} tokens` : ''}`;
        item.checkboxState = {
          state: on ? vscode.TreeItemCheckboxState.Checked : vscode.TreeItemCheckboxState.Unchecked,
          tooltip: on
            ? "Sent to the model: uncheck to switch this server's tools off for this workspace"
            : 'Switched off for this workspace: check to send its tools to the model again',
        };
        if (cost !== undefined)
          lines.push('', `tool schemas: about ${cost} tokens in every request${on ? '' : ' when switched on'}`);
        if (state.protocolVersion) lines.push('', markdownText(describeProtocol(state.protocolVersion)));
        if (state.pid) lines.push('', `pid ${state.pid}`);
        break;
      }
      case 'error':
        item.iconPath = new vscode.ThemeIcon('error', new vscode.ThemeColor('errorForeground'));
        // A server this machine cannot sandbox did not fail: it was not started (its child row says why).
        item.description = state.noSandbox ? 'not started: no sandbox' : 'error';
        lines.push('', markdownText(failureText(info)));
        break;
      case 'signIn':
        item.iconPath = new vscode.ThemeIcon('account', new vscode.ThemeColor('editorWarning.foreground'));
        item.description = 'sign in needed';
        lines.push(
          '',
          markdownText(state.message),
          '',
          'Choose Sign In to open its authorization server in your browser.',
        );
        break;
      case 'stopped':
        item.iconPath = new vscode.ThemeIcon('circle-outline');
        item.description = 'stopped';
        item.collapsibleState = vscode.TreeItemCollapsibleState.None;
        break;
      default:
        assertNever(state);
    }
    signInLook(item, info.config.type !== 'stdio');
    // In a multi-root workspace, whose server it is: the folder first on the row (a narrow sidebar cuts the end).
    if (info.config.folder) {
      item.description = `${info.config.folder} · ${item.description ?? ''}`.replace(/ · $/, '');
      lines.splice(1, 0, '', markdownText(`folder: ${info.config.folder}`));
    }
    if (this.catalogs) registryLook(item, lines, info, this.catalogs);
    if (this.sandbox) sandboxLook(item, lines, info, this.sandbox);
    item.accessibilityInformation = { label: spokenRow(info, item.description) };
    // A running server's tooltip is made when hovered, so its uptime is that moment's (resolveTreeItem).
    if (state.kind === 'running') liveTooltips.set(item, { text: lines.join('\n'), startedAt: state.startedAt });
    else item.tooltip = new vscode.MarkdownString(lines.join('\n'));
    return item;
  }

  dispose(): void {
    this.registryListener.dispose();
    this.emitter.dispose();
  }
}

/** What a state's icon says to the eye, in words. */
const STATE_WORDS: Record<ServerInfo['state']['kind'], string> = {
  running: 'running',
  starting: 'starting',
  error: 'error',
  signIn: 'sign in needed',
  stopped: 'stopped',
};

/**
 * A server row as a screen reader says it: its name, its state and its sandbox in words (a running server shows
 * both only as an icon, the check mark or the lock), then the description.
 */
function spokenRow(info: ServerInfo, description: vscode.TreeItem['description']): string {
  const words = String(description ?? '');
  const state = words.startsWith(STATE_WORDS[info.state.kind]) ? '' : `${STATE_WORDS[info.state.kind]}, `;
  const sandbox = info.sandbox && !/\bsandboxed\b/.test(words) ? 'in its sandbox, ' : '';
  return `server ${info.name}, ${state}${sandbox}${words}`.replace(/, $/, '');
}

function formatTokens(n: number): string {
  return n < 1000 ? `~${n}` : `~${(n / 1000).toFixed(n < 10_000 ? 1 : 0).replace(/\.0$/, '')}k`;
}
