import * as vscode from 'vscode';
import type { ApprovalRequest } from '../../core/agentTypes/events';
import { ApprovalPolicy } from '../../core/approvals/approvalPolicy';
import { WaitingApprovals } from '../../core/approvals/waiting';
import type { ServerHub } from '../../core/mcp/hub/serverHub';
import { setting } from '../trustedSettings';

/**
 * The chat's approvals: the core's policy (core/approvals/approvalPolicy.ts, the same one `minagent
 * chat` uses) read with this window's settings and trust, "Always allow" kept in the workspace's
 * state; the user asked in the call's card. Fails closed: a reply that is not an explicit allow denies.
 */
export class Approvals {
  private readonly waiting = new WaitingApprovals();
  private readonly policy: ApprovalPolicy;
  private migrated = false;

  constructor(hub: ServerHub, memento: vscode.Memento) {
    this.policy = new ApprovalPolicy(
      {
        server: (name) => hub.server(name)?.config,
        mode: () => setting<string>('chat.approval', 'readOnly'),
        trusted: () => vscode.workspace.isTrusted,
      },
      memento,
    );
  }

  /** Why the call may run without asking (shown in its card), or undefined when the user is asked. */
  preapproval(req: ApprovalRequest): string | undefined {
    this.migrate();
    return this.policy.preapproval(req);
  }

  /** Why a call that would have run unasked asks this time (shown in its card), or undefined. */
  askNote(req: ApprovalRequest): string | undefined {
    return this.policy.askNote(req);
  }

  /**
   * Waits for the user's decision in the card; resolves false on Stop, on a cancelled approval and on any reply but an
   * allow.
   */
  async ask(req: ApprovalRequest, signal?: AbortSignal): Promise<boolean> {
    const decision = await this.waiting.wait(req.callId, signal);
    if (decision !== undefined) await this.policy.allowed(req, decision);
    return decision !== undefined;
  }

  /** A reply from the webview: only "once", "chat" and "always" allow; anything else denies. */
  decide(callId: unknown, decision: unknown): void {
    this.waiting.answer(callId, decision);
  }

  newChat(): void {
    this.policy.newChat();
  }

  /** Lets the user take back "Always allow" for some or all tools; every remembered tool starts picked. */
  async manageAlways(): Promise<void> {
    const grants = this.policy.always.list();
    if (!grants.length) {
      void vscode.window.showInformationMessage('MinAgent: no tool is always allowed in this workspace.');
      return;
    }
    // Nothing is picked to begin with: Enter alone forgets nothing (the user picks what to forget).
    const items = grants.map((grant) => ({
      label: grant.tool,
      description: grant.builtin ? `MinAgent's own tool, for ${grant.server}` : `on ${grant.server}`,
      picked: false,
      grant,
    }));
    const picked = await vscode.window.showQuickPick(items, {
      canPickMany: true,
      title: 'Forget "Always allow" for the tools you pick (they will ask again)',
      placeHolder: 'Pick the tools to forget, then press Enter',
      // A choice among several: a click elsewhere (or a view taking the focus) does not throw it away.
      ignoreFocusOut: true,
    });
    if (!picked?.length) return;
    await this.policy.always.remove(picked.map((p) => p.grant));
    void vscode.window.showInformationMessage(`MinAgent: ${picked.length} tool(s) will ask before running again.`);
  }

  /** Grants of earlier versions were keyed by server name alone: they ask once more, with a notice. */
  private migrate(): void {
    if (this.migrated) return;
    this.migrated = true;
    void this.policy.always.takeLegacy().then((legacy) => {
      if (!legacy.length) return;
      const tools = legacy.map((k) => k.slice(k.indexOf('/') + 1)).join(', ');
      void vscode.window.showInformationMessage(
        `MinAgent: "Always allow" is now tied to each server's command and arguments or URL, so a changed server asks again. The ${legacy.length} earlier grant(s) (${tools}) will ask once more.`,
      );
    });
  }
}
