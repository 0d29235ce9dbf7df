import * as vscode from 'vscode';
import type { ApprovalRequest } from '../../core/agent/agent';
import { AlwaysAllow, grantKey } from '../../core/approvals/alwaysAllow';
import { WaitingApprovals } from '../../core/approvals/waiting';
import { preapproval, readOnlyRisk, trustedByUser } from '../../core/approvals/policy';
import type { ServerHub } from '../../core/mcp/hub';
import { serverIdentity } from '../../core/mcp/config/identity';
import { setting } from '../trustedSettings';

/**
 * Who decides whether a tool call runs. By default tools marked `readOnlyHint` run without asking;
 * others ask in their card. A server's `autoApprove` list and the global setting can allow more;
 * "Always allow" is remembered per workspace for the server's identity (origin, command and
 * arguments, or URL) and the server's own tool name, "Allow for this chat" until New Chat.
 * Fails closed: a reply that is not an explicit allow denies.
 */
export class Approvals {
  private readonly forChat = new Set<string>();
  private readonly waiting = new WaitingApprovals();
  private readonly always: AlwaysAllow;
  private migrated = false;

  constructor(
    private readonly hub: ServerHub,
    memento: vscode.Memento,
  ) {
    this.always = new AlwaysAllow(memento);
  }

  /** Why the call may run without asking (shown in its card), or undefined when the user is asked. */
  preapproval(req: ApprovalRequest): string | undefined {
    this.migrate();
    const server = req.server !== undefined ? this.hub.server(req.server)?.config : undefined;
    return preapproval(req, {
      mode: setting<string>('chat.approval', 'readOnly'),
      trusted: vscode.workspace.isTrusted,
      allowedForChat: this.forChat.has(keyOf(req)),
      alwaysAllowed: this.always.hasKey(this.grantKey(req)),
      serverTrusted: this.serverTrusted(req),
      ...(server ? { server } : {}),
    });
  }

  /** Why a call that would have run unasked asks this time (shown in its card), or undefined. */
  askNote(req: ApprovalRequest): string | undefined {
    if (setting<string>('chat.approval', 'readOnly') !== 'readOnly') return undefined;
    return readOnlyRisk(req, this.serverTrusted(req));
  }

  /** The user vouched for the request's server: `trusted: true` in user settings, or an "Always allow" on one of its tools. */
  private serverTrusted(req: ApprovalRequest): boolean {
    const config = req.server !== undefined ? this.hub.server(req.server)?.config : undefined;
    if (trustedByUser(config)) return true;
    const identity = req.serverIdentity ?? (config ? serverIdentity(config) : undefined);
    return identity !== undefined && this.always.list().some((g) => g.identity === identity);
  }

  /** Waits for the user's decision in the card; resolves false on Stop, on a cancelled approval and on any reply but an allow. */
  async ask(req: ApprovalRequest, signal?: AbortSignal): Promise<boolean> {
    const decision = await this.waiting.wait(req.callId, signal);
    if (decision === 'chat') this.forChat.add(keyOf(req));
    const key = decision === 'always' ? this.grantKey(req) : undefined;
    if (key) await this.always.add(key);
    return decision !== undefined;
  }

  /** Where "Always allow" for this request is kept: per server, for read_resource the server it reads from. */
  private grantKey(req: ApprovalRequest) {
    return grantKey(req, (server) => {
      const config = this.hub.server(server)?.config;
      return config ? serverIdentity(config) : undefined;
    });
  }

  /** A reply from the webview: only "once", "chat" and "always" allow; anything else denies. */
  decide(callId: unknown, decision: unknown): void {
    this.waiting.answer(callId, decision);
  }

  newChat(): void {
    this.forChat.clear();
  }

  /** Lets the user take back "Always allow" for some or all tools; every remembered tool starts picked. */
  async manageAlways(): Promise<void> {
    const grants = this.always.list();
    if (!grants.length) {
      void vscode.window.showInformationMessage('MinAgent: no tool is always allowed in this workspace.');
      return;
    }
    const items = grants.map((grant) => ({ label: grant.tool, description: grant.builtin ? `MinAgent's own tool, for ${grant.server}` : `on ${grant.server}`, picked: true, grant }));
    const picked = await vscode.window.showQuickPick(items, {
      canPickMany: true,
      title: 'Forget "Always allow" for these tools (they will ask again)',
      placeHolder: 'Unpick a tool to keep it always allowed',
      // A choice among several: a click elsewhere (or a view taking the focus) does not throw it away.
      ignoreFocusOut: true,
    });
    if (!picked?.length) return;
    await this.always.remove(picked.map((p) => p.grant));
    void vscode.window.showInformationMessage(`MinAgent: ${picked.length} tool(s) will ask before running again.`);
  }

  /** Grants of earlier versions were keyed by server name alone: they ask once more, with a notice. */
  private migrate(): void {
    if (this.migrated) return;
    this.migrated = true;
    void this.always.takeLegacy().then((legacy) => {
      if (!legacy.length) return;
      const tools = legacy.map((k) => k.slice(k.indexOf('/') + 1)).join(', ');
      void vscode.window.showInformationMessage(
        `MinAgent: "Always allow" is now tied to each server's command and arguments or URL, so a changed server asks again. The ${legacy.length} earlier grant(s) (${tools}) will ask once more.`,
      );
    });
  }
}

/** "Allow for this chat" key: the pinned tool, never the registry name. */
function keyOf(req: ApprovalRequest): string {
  // A tool without an identity of its own (read_resource) is allowed per server it reaches, never for all.
  return req.serverIdentity !== undefined ? `${req.serverIdentity}/${req.remoteName ?? ''}` : `${req.server ?? ''}//${req.name}`;
}
