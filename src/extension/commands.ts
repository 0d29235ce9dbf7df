import * as vscode from 'vscode';
import type { ServerHub } from '../core/mcp/hub/serverHub';
import type { Node } from './treeNode';
import { tryTool } from './tryTool';
import { addServer } from './addServer';
import type { ServerLogs } from './serverLogs';
import type { ResultDocuments } from './resultDocuments';
import { taggedLogger, type Logger } from '../core/base/logger';
import { entryRef, openServerEntry, openServersSettings } from './settingsLocation';

/** Server commands take a tree node (from a menu) or ask which server (from the palette). */
export async function pickServer(
  hub: ServerHub,
  node: unknown,
  title: string,
  filter: (kind: string) => boolean,
): Promise<string | undefined> {
  const n = node as { kind?: string; name?: unknown; server?: unknown } | undefined;
  if (n?.kind === 'server' && typeof n.name === 'string') return n.name;
  if (n?.kind === 'action' && typeof n.server === 'string') return n.server;
  const items = hub
    .servers()
    .filter((s) => filter(s.state.kind))
    .map((s) => ({ label: s.name, description: s.state.kind }));
  if (!items.length) {
    void vscode.window.showInformationMessage(`MinAgent: no server to ${title.toLowerCase()}.`);
    return undefined;
  }
  return (await vscode.window.showQuickPick(items, { title: `MinAgent: ${title}` }))?.label;
}

/** The registry name of a tool node from the tree, if the command was run on one. */
function toolName(node: unknown): string | undefined {
  const n = node as Partial<Extract<Node, { kind: 'tool' }>> | undefined;
  return n?.kind === 'tool' && typeof n.name === 'string' ? n.name : undefined;
}

/**
 * Restarting every server is never one keystroke away from Restart Server in the palette: it asks
 * first, naming how many servers restart and the calls it would cancel; Cancel (Escape) is the way out.
 */
async function confirmRestartAll(hub: ServerHub): Promise<boolean> {
  const servers = hub.serverNames();
  if (!servers.length) return true;
  const calls = hub.runningCalls();
  const restart = 'Restart All';
  const shown =
    servers
      .slice(0, 12)
      .map((s) => `"${s}"`)
      .join(', ') + (servers.length > 12 ? ` and ${servers.length - 12} more` : '');
  const answer = await vscode.window.showWarningMessage(
    `Restart all ${servers.length} server${servers.length === 1 ? '' : 's'}?`,
    {
      modal: true,
      detail: `${shown}.${calls ? ` ${calls} tool call${calls === 1 ? ' is' : 's are'} running: restarting cancels ${calls === 1 ? 'it' : 'them'}.` : ''} To restart one server, use Restart Server or its row's menu.`,
    },
    restart,
  );
  return answer === restart;
}

export function registerCommands(
  hub: ServerHub,
  logs: ServerLogs,
  reload: () => Promise<void>,
  results: ResultDocuments,
  log: Logger,
  revealAdded: (server: string) => void,
): vscode.Disposable[] {
  const any = () => true;
  return [
    // Refresh re-reads the settings: only servers whose entry changed restart, so no running call is ended.
    vscode.commands.registerCommand('minagent.refresh', async () => {
      await reload();
      log.info('refreshed: settings re-read; only servers whose entry changed were restarted');
    }),
    vscode.commands.registerCommand('minagent.restartAll', async () => {
      if (!(await confirmRestartAll(hub))) return;
      await reload();
      hub.restartAll();
    }),
    vscode.commands.registerCommand('minagent.restartServer', async (node?: unknown) => {
      const name = await pickServer(hub, node, 'Restart Server', any);
      if (name) hub.restart(name);
    }),
    vscode.commands.registerCommand('minagent.stopServer', async (node?: unknown) => {
      const name = await pickServer(hub, node, 'Stop Server', (k) => k === 'running' || k === 'starting');
      if (name) await hub.stop(name);
    }),
    vscode.commands.registerCommand('minagent.startServer', async (node?: unknown) => {
      const name = await pickServer(hub, node, 'Start Server', (k) => k === 'stopped' || k === 'error');
      if (name) hub.start(name);
    }),
    // On a server (its row, its error, its notification): that server's own log; else the whole log.
    vscode.commands.registerCommand('minagent.showLogs', (node?: unknown) => logs.show(entryRef(node)?.server)),
    vscode.commands.registerCommand('minagent.openSettings', () => openServersSettings()),
    vscode.commands.registerCommand('minagent.openServerEntry', async (node?: unknown) => {
      const ref = entryRef(node) ?? entryRef({ server: await pickServer(hub, node, 'Open Server Settings', any) });
      if (ref) await openServerEntry(ref);
    }),
    vscode.commands.registerCommand('minagent.addServer', async () => {
      const name = await addServer();
      if (name) revealAdded(name);
    }),
    vscode.commands.registerCommand('minagent.copyToolName', async (node?: unknown) => {
      const name = toolName(node);
      if (!name) return;
      await vscode.env.clipboard.writeText(name);
      vscode.window.setStatusBarMessage(`Copied "${name}"`, 2_000);
    }),
    vscode.commands.registerCommand('minagent.tryTool', (node?: unknown) =>
      tryTool(hub, toolName(node), results, taggedLogger(log, 'Try Tool')),
    ),
  ];
}
