import * as vscode from 'vscode';
import { taggedLogger, type Logger } from '../../core/logger';
import type { ServerHub } from '../../core/mcp/hub';
import { ToolSwitches, type SwitchState } from '../../core/toolSwitches';
import { BudgetMeter } from '../chat/budgetMeter';
import type { WorkspaceConfig } from '../configLoader';
import { IconFiles } from '../icons/iconFiles';
import { ServerTreeProvider } from '../serverTree';
import { StatusBar } from '../statusBar';
import { testReporter } from '../testReport';

/** Servers and tools switched off for this workspace (workspace state, never settings). */
const SWITCHES_KEY = 'minagent.tools.off';

/** Set by the bundler: true only in the e2e suite's package (scripts/build.mjs --server-report). */
declare const MINAGENT_SERVER_REPORT: boolean;

/** The Tools tree, its switches and badge, the status bar item, and the budget meter whose costs the tree shows. */
export function startToolsView(context: vscode.ExtensionContext, hub: ServerHub, log: Logger, config: () => WorkspaceConfig | undefined) {
  const switches = new ToolSwitches({ get: () => context.workspaceState.get<SwitchState>(SWITCHES_KEY), set: (s) => context.workspaceState.update(SWITCHES_KEY, s) });
  const meter = new BudgetMeter(log);
  const icons = new IconFiles(vscode.Uri.joinPath(context.globalStorageUri, 'icons'), taggedLogger(log, 'icons'));
  const tree = new ServerTreeProvider(hub, config, switches, (server) => meter.serverCost(server), icons);
  const view = vscode.window.createTreeView('minagent.tools', { treeDataProvider: tree, showCollapseAll: true, manageCheckboxStateManually: true });
  const status = new StatusBar(hub, config);
  // Only the e2e suite's package has the report (scripts/build.mjs fails any other bundle that does).
  const report = MINAGENT_SERVER_REPORT ? testReporter(hub) : undefined;
  /** The servers or the configuration changed: the tree, its badge and the status bar follow. */
  const changed = () => {
    tree.refresh();
    status.update();
    const starting = hub.servers().filter((s) => s.state.kind === 'starting').length;
    view.badge = starting ? { value: starting, tooltip: `${starting} server${starting === 1 ? '' : 's'} starting` } : undefined;
    report?.();
  };
  context.subscriptions.push(
    switches,
    meter,
    icons,
    tree,
    view,
    status,
    view.onDidChangeCheckboxState((e) => void tree.applyCheckboxes(e.items)),
    meter.onDidChangeCosts(() => tree.refresh()),
    icons.onDidLoad(() => tree.refresh()),
    hub.onDidChangeServers(changed),
    hub.onDidChangeTools(changed),
  );
  return { switches, meter, icons, tree, changed };
}
