import * as vscode from 'vscode';
import { summarizeError } from '../core/mcp/connection/errorLine';
import { FailureWatch, type FinalFailure } from '../core/mcp/hub/failureWatch';
import type { ServerHub } from '../core/mcp/hub/serverHub';
import { noticeText } from './noticeText';
import { noSandboxHeadline } from '../core/mcp/sandbox/namespaces';

/**
 * Failures share one notification while servers are still starting (all of a window's servers start
 * together, so a storm at startup becomes one), waiting at most this long for the others.
 */
const GATHER_MS = 1_000;
const GATHER_AT_MOST_MS = 15_000;

/**
 * Says outside the Tools view when a server fails for good: one notification per failure (several at
 * once share one), with Show Logs, Restart and Open Settings.
 */
export class FailureNotices implements vscode.Disposable {
  private readonly watch = new FailureWatch();
  private pending: FinalFailure[] = [];
  private timer: NodeJS.Timeout | undefined;
  private since = 0;
  private readonly subscription: { dispose(): void };
  /** The servers told this window cannot sandbox them: their rows keep saying it, a restart is not told again. */
  private readonly toldNoSandbox = new Set<string>();

  constructor(private readonly hub: ServerHub) {
    this.subscription = hub.onDidChangeServers(() => this.check());
  }

  private check(): void {
    const found = this.watch.next(this.hub.servers());
    if (!found.length) return;
    if (!this.pending.length) this.since = Date.now();
    this.pending.push(...found);
    this.timer ??= setTimeout(() => void this.show(), GATHER_MS);
  }

  private async show(): Promise<void> {
    this.timer = undefined;
    const starting = this.hub.servers().some((s) => s.state.kind === 'starting');
    if (starting && Date.now() - this.since < GATHER_AT_MOST_MS) {
      this.timer = setTimeout(() => void this.show(), GATHER_MS);
      return;
    }
    const order = this.hub.serverNames();
    const failures = this.pending.sort((a, b) => order.indexOf(a.server) - order.indexOf(b.server));
    this.pending = [];
    // A server that came back (or went away) while the notice gathered needs none.
    const failed = failures.filter((f) => this.hub.server(f.server)?.state.kind === 'error');
    const still = failed.filter((f) => !f.noSandbox);
    await Promise.all([this.tellNoSandbox(failed.filter((f) => f.noSandbox)), this.tell(still)]);
  }

  /**
   * Servers this machine cannot sandbox: one notice for them all, since the reason is the machine's; their rows say
   * what the user can do. Told once per server: the same failure again after a restart is left to its row.
   */
  private async tellNoSandbox(failures: FinalFailure[]): Promise<void> {
    const fresh = failures.filter((f) => !this.toldNoSandbox.has(f.server));
    if (!fresh.length) return;
    for (const f of fresh) this.toldNoSandbox.add(f.server);
    const names = fresh.map((f) => `"${f.server}"`);
    const who = names.length === 1 ? `${names[0]} was` : `${names.slice(0, -1).join(', ')} and ${names.at(-1)} were`;
    const show = 'Show Servers';
    const answer = await vscode.window.showWarningMessage(
      noticeText(
        `MinAgent: ${who} not started: this machine cannot sandbox ${names.length === 1 ? 'it' : 'them'} (${noSandboxHeadline(fresh[0]!.noSandbox!)}). ${names.length === 1 ? 'Its row says' : 'Their rows say'} what you can do.`,
      ),
      show,
    );
    if (answer === show) await vscode.commands.executeCommand('minagent.tools.focus');
  }

  /** The other failures: one notice, with Show Logs, Restart and Open Settings. */
  private async tell(still: FinalFailure[]): Promise<void> {
    if (!still.length) return;
    const [first] = still;
    const one = still.length === 1 ? first : undefined;
    const text = noticeText(
      one ? oneFailed(one) : `MinAgent: ${still.length} servers failed: ${still.map((f) => f.server).join(', ')}.`,
    );
    const logs = 'Show Logs';
    const restart = one ? 'Restart' : 'Restart Them';
    const settings = 'Open Settings';
    const answer = await vscode.window.showErrorMessage(text, logs, restart, settings);
    if (answer === logs)
      await vscode.commands.executeCommand('minagent.showLogs', one ? { kind: 'server', name: one.server } : undefined);
    else if (answer === restart) for (const f of still) this.hub.restart(f.server);
    else if (answer === settings)
      await vscode.commands.executeCommand(
        one ? 'minagent.openServerEntry' : 'minagent.openSettings',
        one ? { server: one.server } : undefined,
      );
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.subscription.dispose();
  }
}

/** A server's own text in a notification: one line of reasonable length (the log has it whole). */
/** A failure's message when the sandbox denied the server something (crashDiagnosis.ts). */
const IN_SANDBOX = /^[^;]*, in its sandbox \(denied: /;

function cut(text: string): string {
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}

/** The notice for one server that failed: how, where, and the line of its error that says why. */
function oneFailed(one: { server: string; crashed?: boolean; message: string; stderrTail: string }): string {
  const how = one.crashed ? 'crashed and did not come back' : 'failed to start';
  const where = IN_SANDBOX.test(one.message) ? ' in its sandbox' : '';
  return `MinAgent: server "${one.server}" ${how}${where}: ${cut(summarizeError(one.message, one.stderrTail).line)}`;
}
