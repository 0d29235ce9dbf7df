import * as vscode from 'vscode';
import { taggedLogger, type Logger } from '../../core/base/logger';
import type { ServerHub } from '../../core/mcp/hub/serverHub';
import { ToolSwitches, type SwitchState } from '../../core/toolRegistry/toolSwitches';
import { ToolPins } from '../../core/toolSearch/pins';
import { BudgetMeter } from '../chat/budgetMeter';
import type { WorkspaceConfig } from '../configLoader';
import { IconFiles } from '../icons/iconFiles';
import { AddedServerReveal } from '../revealAdded';
import { ServerTreeProvider } from '../serverTree';
import type { EditorSandbox } from '../sandbox';
import type { Catalogs } from '../serverRegistry/catalogs';
import { StatusBar } from '../statusBar';
import { testReporter } from '../testReport';

/** Servers and tools switched off for this workspace (workspace state, never settings). */
const SWITCHES_KEY = 'minagent.tools.off';
/** Tools pinned into every request while tools are deferred (workspace state). */
const PINS_KEY = 'minagent.tools.pinned';

/** Set by the bundler: true only in the e2e suite's package (scripts/build.mjs --server-report). */
declare const MINAGENT_SERVER_REPORT: boolean;

/** The Tools tree, its switches and badge, the status bar item, and the budget meter whose costs the tree shows. */
export function startToolsView(
  context: vscode.ExtensionContext,
  hub: ServerHub,
  log: Logger,
  config: () => WorkspaceConfig | undefined,
  sandbox?: EditorSandbox,
  catalogs?: Catalogs,
) {
  const switches = new ToolSwitches({
    get: () => context.workspaceState.get<SwitchState>(SWITCHES_KEY),
    set: (s) => context.workspaceState.update(SWITCHES_KEY, s),
  });
  const pins = new ToolPins({
    get: () => context.workspaceState.get<unknown>(PINS_KEY),
    set: (keys) => context.workspaceState.update(PINS_KEY, keys),
  });
  const meter = new BudgetMeter(log);
  const icons = new IconFiles(vscode.Uri.joinPath(context.globalStorageUri, 'icons'), taggedLogger(log, 'icons'));
  const tree = new ServerTreeProvider(
    hub,
    config,
    switches,
    (server) => meter.serverCost(server),
    icons,
    pins,
    sandbox,
    catalogs,
  );
  const view = vscode.window.createTreeView('minagent.tools', {
    treeDataProvider: tree,
    showCollapseAll: true,
    manageCheckboxStateManually: true,
  });
  const status = new StatusBar(hub, config);
  const reveal = new AddedServerReveal(hub, view);
  // Only the e2e suite's package has the report (scripts/build.mjs fails any other bundle that does).
  const report = MINAGENT_SERVER_REPORT ? testReporter(hub) : undefined;
  /** The servers or the configuration changed: the tree, its badge and the status bar follow. */
  const changed = () => {
    tree.refresh();
    status.update();
    const starting = hub.servers().filter((s) => s.state.kind === 'starting').length;
    view.badge = starting
      ? { value: starting, tooltip: `${starting} server${starting === 1 ? '' : 's'} starting` }
      : undefined;
    report?.();
  };
  context.subscriptions.push(
    switches,
    pins,
    meter,
    icons,
    tree,
    view,
    status,
    reveal,
    view.onDidChangeCheckboxState((e) => void tree.applyCheckboxes(e.items)),
    vscode.commands.registerCommand('minagent.pinTool', (node?: unknown) => pinTool(hub, pins, node, true)),
    vscode.commands.registerCommand('minagent.unpinTool', (node?: unknown) => pinTool(hub, pins, node, false)),
    meter.onDidChangeCosts(() => tree.refresh()),
    icons.onDidLoad(() => tree.refresh()),
    hub.onDidChangeServers(changed),
    ...(catalogs ? [catalogs.onDidChange(() => tree.refresh())] : []),
    hub.onDidChangeTools(changed),
  );
  /** A server the user added is shown in the tree once it is there. */
  const revealAdded = (name: string) => reveal.expect(name);
  return { switches, pins, meter, icons, tree, changed, revealAdded };
}

/** Pin or Unpin on a tool's row: the tool goes into every request while tools are deferred, or no longer. */
async function pinTool(hub: ServerHub, pins: ToolPins, node: unknown, pinned: boolean): Promise<void> {
  const n = node as { kind?: unknown; name?: unknown } | undefined;
  const tool = n?.kind === 'tool' && typeof n.name === 'string' ? hub.registry.get(n.name) : undefined;
  if (tool) await pins.set(tool, pinned);
}
