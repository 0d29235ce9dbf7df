import * as vscode from 'vscode';
import type { ServerHub } from '../core/mcp/hub';
import type { Node } from './serverTree';
import { tryTool } from './tryTool';

/** Server commands take a tree node (from a menu) or ask which server (from the palette). */
export async function pickServer(hub: ServerHub, node: unknown, title: string, filter: (kind: string) => boolean): Promise<string | undefined> {
  const n = node as { kind?: string; name?: unknown; server?: unknown } | undefined;
  if (n?.kind === 'server' && typeof n.name === 'string') return n.name;
  if (n?.kind === 'action' && typeof n.server === 'string') return n.server;
  const items = hub.servers().filter((s) => filter(s.state.kind)).map((s) => ({ label: s.name, description: s.state.kind }));
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

export function registerCommands(hub: ServerHub, channel: vscode.LogOutputChannel, reload: () => Promise<void>): vscode.Disposable[] {
  const any = () => true;
  return [
    vscode.commands.registerCommand('minagent.restartAll', async () => {
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
    vscode.commands.registerCommand('minagent.showLogs', () => channel.show(true)),
    vscode.commands.registerCommand('minagent.openSettings', () => vscode.commands.executeCommand('workbench.action.openSettings', 'minagent')),
    vscode.commands.registerCommand('minagent.copyToolName', async (node?: unknown) => {
      const name = toolName(node);
      if (!name) return;
      await vscode.env.clipboard.writeText(name);
      vscode.window.setStatusBarMessage(`Copied "${name}"`, 2_000);
    }),
    vscode.commands.registerCommand('minagent.tryTool', (node?: unknown) => tryTool(hub, toolName(node))),
  ];
}
