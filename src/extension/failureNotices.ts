import * as vscode from 'vscode';
import { summarizeError } from '../core/mcp/errorLine';
import { FailureWatch, type FinalFailure } from '../core/mcp/failureWatch';
import type { ServerHub } from '../core/mcp/hub';

/** Failures that arrive within this time of each other share one notification (a storm at startup becomes one). */
const GATHER_MS = 1_000;

/**
 * Says outside the Tools view when a server fails for good: one notification per failure (several at
 * once share one), with Show Logs, Restart and Open Settings.
 */
export class FailureNotices implements vscode.Disposable {
  private readonly watch = new FailureWatch();
  private pending: FinalFailure[] = [];
  private timer: NodeJS.Timeout | undefined;
  private readonly subscription: { dispose(): void };

  constructor(private readonly hub: ServerHub) {
    this.subscription = hub.onDidChangeServers(() => this.check());
  }

  private check(): void {
    const found = this.watch.next(this.hub.servers());
    if (!found.length) return;
    this.pending.push(...found);
    this.timer ??= setTimeout(() => this.show(), GATHER_MS);
  }

  private async show(): Promise<void> {
    this.timer = undefined;
    const failures = this.pending;
    this.pending = [];
    // A server that came back (or went away) while the notice gathered needs none.
    const still = failures.filter((f) => this.hub.server(f.server)?.state.kind === 'error');
    if (!still.length) return;
    const [first] = still;
    const one = still.length === 1 ? first : undefined;
    const text = one
      ? `MinAgent: server "${one.server}" ${one.crashed ? 'crashed and did not come back' : 'failed to start'}: ${summarizeError(one.message, one.stderrTail).line}`
      : `MinAgent: ${still.length} servers failed: ${still.map((f) => f.server).join(', ')}.`;
    const logs = 'Show Logs';
    const restart = one ? 'Restart' : 'Restart Them';
    const settings = 'Open Settings';
    const answer = await vscode.window.showErrorMessage(text, logs, restart, settings);
    if (answer === logs) await vscode.commands.executeCommand('minagent.showLogs', one ? { kind: 'server', name: one.server } : undefined);
    else if (answer === restart) for (const f of still) this.hub.restart(f.server);
    else if (answer === settings) await vscode.commands.executeCommand(one ? 'minagent.openServerEntry' : 'minagent.openSettings', one ? { server: one.server } : undefined);
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.subscription.dispose();
  }
}
