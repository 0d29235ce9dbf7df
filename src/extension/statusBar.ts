import * as vscode from 'vscode';
import type { ServerHub } from '../core/mcp/hub/serverHub';
import { countTools, toolCountText, uncountedNote } from '../core/toolRegistry/toolCounts';
import type { WorkspaceConfig } from './configLoader';

/** `MinAgent 2/3 · 5 tools`; yellow when something failed, red when nothing runs; click opens the tree. */
export class StatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('minagent.status', vscode.StatusBarAlignment.Left, 50);

  constructor(
    private readonly hub: ServerHub,
    private readonly config: () => WorkspaceConfig | undefined,
  ) {
    this.item.name = 'MinAgent';
    this.item.command = 'minagent.tools.focus';
  }

  update(): void {
    const servers = this.hub.servers();
    const broken = (this.config()?.problems ?? []).filter((p) => p.severity === 'error').length;
    const total = servers.length + broken;
    if (total === 0) {
      this.item.hide();
      return;
    }
    const running = servers.filter((s) => s.state.kind === 'running').length;
    const starting = servers.filter((s) => s.state.kind === 'starting').length;
    const failed = servers.filter((s) => s.state.kind === 'error').length + broken;
    const signIn = servers.filter((s) => s.state.kind === 'signIn').length;
    // What the model can be sent, as the context meter counts; app-only tools are said apart in the tooltip.
    const counts = countTools(this.hub.registry.list());
    const tools = counts.model;
    const uncounted = uncountedNote(counts);
    this.item.text = `${starting ? '$(loading~spin)' : '$(plug)'} ${running}/${total} · ${tools} tool${tools === 1 ? '' : 's'}`;
    const states = [
      `${running} of ${total} servers running`,
      ...(starting ? [`${starting} starting`] : []),
      ...(signIn ? [`${signIn} waiting for you to sign in`] : []),
      ...(failed ? [`${failed} failed`] : []),
    ];
    this.item.tooltip = `MinAgent: ${states.join(', ')}; ${toolCountText(counts)}${uncounted ? `\n${uncounted}` : ''}`;
    this.item.backgroundColor =
      failed === 0
        ? undefined
        : new vscode.ThemeColor(
            running === 0 && !starting ? 'statusBarItem.errorBackground' : 'statusBarItem.warningBackground',
          );
    this.item.show();
  }

  dispose(): void {
    this.item.dispose();
  }
}
