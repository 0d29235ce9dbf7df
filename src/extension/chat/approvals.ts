import * as vscode from 'vscode';
import type { ApprovalRequest } from '../../core/agent/agent';
import type { ServerHub } from '../../core/mcp/hub';
import type { ApprovalDecision } from '../../shared/protocol';

const ALWAYS_KEY = 'minagent.approvals.always';

/**
 * Who decides whether a tool call runs. By default tools marked `readOnlyHint` run without asking;
 * others ask in their card. A server's `autoApprove` list and the global setting can allow more;
 * "Always allow" is remembered per workspace, "Allow for this chat" until New Chat.
 */
export class Approvals {
  private readonly forChat = new Set<string>();
  private readonly pending = new Map<string, (decision: ApprovalDecision) => void>();

  constructor(
    private readonly hub: ServerHub,
    private readonly memento: vscode.Memento,
  ) {}

  /** True when the call may run without asking. */
  isPreapproved(req: ApprovalRequest): boolean {
    const mode = vscode.workspace.getConfiguration('minagent').get<string>('chat.approval', 'readOnly');
    if (mode === 'never') return true;
    const key = this.key(req);
    if (this.forChat.has(key) || this.always().includes(key)) return true;
    const tool = this.hub.registry.get(req.name);
    const server = tool?.server ? this.hub.server(tool.server) : undefined;
    if (server && tool?.remoteName && (server.config.autoApprove.includes(tool.remoteName) || server.config.autoApprove.includes('*'))) return true;
    return mode === 'readOnly' && req.annotations?.readOnlyHint === true;
  }

  /** Waits for the user's decision in the card; resolves false on Stop. */
  ask(req: ApprovalRequest, signal?: AbortSignal): Promise<boolean> {
    return new Promise((resolve) => {
      const finish = (decision: ApprovalDecision) => {
        this.pending.delete(req.callId);
        if (decision === 'chat') this.forChat.add(this.key(req));
        if (decision === 'always') void this.memento.update(ALWAYS_KEY, [...new Set([...this.always(), this.key(req)])]);
        resolve(decision !== 'deny');
      };
      this.pending.set(req.callId, finish);
      signal?.addEventListener('abort', () => finish('deny'), { once: true });
    });
  }

  decide(callId: string, decision: ApprovalDecision): void {
    this.pending.get(callId)?.(decision);
  }

  newChat(): void {
    this.forChat.clear();
  }

  /** Lets the user take back "Always allow" for some or all tools; every remembered tool starts picked. */
  async manageAlways(): Promise<void> {
    const always = this.always();
    if (!always.length) {
      void vscode.window.showInformationMessage('MinAgent: no tool is always allowed in this workspace.');
      return;
    }
    const items = always.map((key) => {
      const [server, tool] = splitKey(key);
      return { label: tool, description: server ? `on ${server}` : undefined, picked: true, key };
    });
    const picked = await vscode.window.showQuickPick(items, {
      canPickMany: true,
      title: 'Forget "Always allow" for these tools (they will ask again)',
      placeHolder: 'Unpick a tool to keep it always allowed',
    });
    if (!picked?.length) return;
    const forget = new Set(picked.map((p) => p.key));
    await this.memento.update(ALWAYS_KEY, always.filter((k) => !forget.has(k)));
    void vscode.window.showInformationMessage(`MinAgent: ${picked.length} tool(s) will ask before running again.`);
  }

  private always(): string[] {
    return this.memento.get<string[]>(ALWAYS_KEY, []);
  }

  private key(req: ApprovalRequest): string {
    const tool = this.hub.registry.get(req.name);
    // req.server: a tool that routes by its arguments (read_resource) is kept per the server it reads from.
    return `${req.server ?? tool?.server ?? ''}/${tool?.remoteName ?? req.name}`;
  }
}

/** "server/tool" back into its parts; the tool name may itself contain "/". */
function splitKey(key: string): [string, string] {
  const at = key.indexOf('/');
  return [key.slice(0, at), key.slice(at + 1)];
}
