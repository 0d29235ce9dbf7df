import * as vscode from 'vscode';
import type { ServerHub } from '../core/mcp/hub/serverHub';
import { noticeText } from './noticeText';

/**
 * Says outside the Tools view when a server waits for the user to sign in: one notification per
 * server, with a Sign In link, withdrawn as soon as the server leaves that state (signed in,
 * stopped, removed). A progress notification, because it is the only kind an extension can close; it
 * shows no busy bar (nothing is in progress: the server waits for the user).
 */
export class SignInNotices implements vscode.Disposable {
  /** Open notices by server, each with the function that closes it. */
  private readonly open = new Map<string, () => void>();
  /** Servers that had their notice since they last left the state (one notice per episode). */
  private readonly noticed = new Set<string>();
  private readonly subscription: { dispose(): void };

  constructor(private readonly hub: ServerHub) {
    this.subscription = hub.onDidChangeServers(() => this.check());
  }

  private check(): void {
    const waiting = new Set(
      this.hub
        .servers()
        .filter((s) => s.state.kind === 'signIn')
        .map((s) => s.name),
    );
    for (const [name, close] of this.open) {
      if (!waiting.has(name)) {
        close();
        this.open.delete(name);
      }
    }
    for (const name of this.noticed)
      if (!waiting.has(name) && this.hub.server(name)?.state.kind !== 'starting') this.noticed.delete(name);
    for (const name of waiting) if (!this.noticed.has(name)) this.show(name);
  }

  private show(name: string): void {
    this.noticed.add(name);
    const args = encodeURIComponent(JSON.stringify([{ kind: 'server', name }]));
    void vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: `MinAgent: server "${noticeText(name)}" needs you to sign in`,
        cancellable: false,
      },
      (progress) => {
        // With an increment the bar is a measured one at 0%, drawn once: without, VS Code runs its busy
        // animation for as long as the notice waits for the user (measured in the demo's editor: its GPU
        // process and page ~0.23 CPU-s a second, for nothing in progress).
        progress.report({ message: `[Sign In](command:minagent.signIn?${args})`, increment: 0 });
        return new Promise<void>((resolve) => this.open.set(name, resolve));
      },
    );
  }

  dispose(): void {
    this.subscription.dispose();
    for (const close of this.open.values()) close();
    this.open.clear();
  }
}
