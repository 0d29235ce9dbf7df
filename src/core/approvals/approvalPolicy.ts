import type { ApprovalRequest } from '../agentTypes/events';
import type { ServerConfig } from '../mcp/config/serverConfig';
import { serverIdentity } from '../mcp/config/identity';
import { AlwaysAllow, grantKey, type GrantStorage } from './alwaysAllow';
import { preapproval, readOnlyRisk, trustedByUser } from './policy';
import type { AllowDecision } from './waiting';

/** What the policy reads from its host each time it decides. */
export interface ApprovalHost {
  /** The current entry of a running server, by name. */
  server(name: string): ServerConfig | undefined;
  /** `minagent.chat.approval` (user settings only): `readOnly` (default), `always` or `never`. */
  mode(): string;
  /** Whether the workspace (the CLI: the folder) is trusted: a workspace file's `autoApprove` counts only then. */
  trusted(): boolean;
}

/**
 * Who decides whether a tool call runs without asking, for the editor's chat and `minagent chat`
 * alike: `minagent.chat.approval`, "Allow for this chat", "Always allow" (kept per server identity
 * in `storage`), a server's `autoApprove` and `trusted`, and the read-only rule (policy.ts). The
 * editor and the CLI only ask the user when it says to, and tell it what the user answered.
 */
export class ApprovalPolicy {
  private readonly forChat = new Set<string>();
  readonly always: AlwaysAllow;

  constructor(
    private readonly host: ApprovalHost,
    storage: GrantStorage,
  ) {
    this.always = new AlwaysAllow(storage);
  }

  /** Why the call may run without asking (shown in its card), or undefined when the user is asked. */
  preapproval(req: ApprovalRequest): string | undefined {
    const server = this.config(req);
    return preapproval(req, {
      mode: this.host.mode(),
      trusted: this.host.trusted(),
      allowedForChat: this.forChat.has(keyOf(req)),
      alwaysAllowed: this.always.hasKey(this.grantKey(req)),
      serverTrusted: this.serverTrusted(req),
      ...(server ? { server } : {}),
    });
  }

  /** Why a call that would have run unasked asks this time (shown beside the question), or undefined. */
  askNote(req: ApprovalRequest): string | undefined {
    if (this.host.mode() !== 'readOnly') return undefined;
    return readOnlyRisk(req, this.serverTrusted(req));
  }

  /** What the user answered (this once, for this chat, always): the last two are remembered. */
  async allowed(req: ApprovalRequest, allowance: AllowDecision): Promise<void> {
    if (allowance === 'chat') this.forChat.add(keyOf(req));
    const key = allowance === 'always' ? this.grantKey(req) : undefined;
    if (key) await this.always.add(key);
  }

  /** A new chat: "Allow for this chat" is forgotten. */
  newChat(): void {
    this.forChat.clear();
  }

  private config(req: ApprovalRequest): ServerConfig | undefined {
    return req.server !== undefined ? this.host.server(req.server) : undefined;
  }

  /**
   * The user vouched for the request's server: `trusted: true` in user settings, or an "Always allow" on one of its
   * tools.
   */
  private serverTrusted(req: ApprovalRequest): boolean {
    const config = this.config(req);
    if (trustedByUser(config)) return true;
    const identity = req.serverIdentity ?? (config ? serverIdentity(config) : undefined);
    return identity !== undefined && this.always.list().some((g) => g.identity === identity);
  }

  /** Where "Always allow" for this request is kept: per server, for read_resource the server it reads from. */
  private grantKey(req: ApprovalRequest) {
    return grantKey(req, (server) => {
      const config = this.host.server(server);
      return config ? serverIdentity(config) : undefined;
    });
  }
}

/** "Allow for this chat" key: the pinned tool, never the registry name. */
function keyOf(req: ApprovalRequest): string {
  // A tool without an identity of its own (read_resource) is allowed per server it reaches, never for all.
  const key =
    req.serverIdentity !== undefined
      ? `${req.serverIdentity}/${req.remoteName ?? ''}`
      : `${req.server ?? ''}//${req.name}`;
  return req.scope !== undefined ? `${key}#${req.scope}` : key;
}
