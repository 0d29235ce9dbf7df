import type { ApprovalRequest } from '../agent/agent';
import type { ServerConfig } from '../mcp/config';
import { serverIdentity } from '../mcp/identity';

/** The origin whose `autoApprove` is the user's own word; any other origin is a workspace file. */
export const USER_ORIGIN = 'user settings';

export interface PolicyContext {
  /** `minagent.chat.approval`: `readOnly` (default), `always` (ask for every tool) or `never`. */
  mode: string;
  /** Whether the workspace is trusted. */
  trusted: boolean;
  /** "Allow for this chat" was given for this pinned tool. */
  allowedForChat: boolean;
  /** "Always allow" holds for this (server identity, tool). */
  alwaysAllowed: boolean;
  /** The current entry of the request's server, if it has one. */
  server?: ServerConfig;
}

/**
 * Why a call may run without asking (the card shows it), or undefined when the user is asked.
 * A server's `autoApprove` counts only while its entry is the one the call was pinned to; from a
 * workspace file (anything but user settings) only in a trusted workspace, and never as "*".
 */
export function preapproval(req: ApprovalRequest, ctx: PolicyContext): string | undefined {
  if (ctx.mode === 'never') return 'Ran without asking: "minagent.chat.approval" is "never".';
  if (ctx.allowedForChat) return 'Allowed for this chat.';
  if (ctx.alwaysAllowed) return `Always allowed for this server's ${ctx.server?.type === 'stdio' ? 'command and arguments' : 'URL'}.`;
  const auto = autoApproved(req, ctx);
  if (auto) return auto;
  if (ctx.mode === 'readOnly' && req.annotations?.readOnlyHint === true) return 'Ran without asking because the server declared this tool read-only (readOnlyHint).';
  return undefined;
}

function autoApproved(req: ApprovalRequest, ctx: PolicyContext): string | undefined {
  const server = ctx.server;
  if (!server || req.remoteName === undefined || serverIdentity(server) !== req.serverIdentity) return undefined;
  const fromUser = server.origin === USER_ORIGIN;
  if (!fromUser && !ctx.trusted) return undefined;
  if (server.autoApprove.includes(req.remoteName)) return `Ran without asking: listed in "autoApprove" of server "${server.name}" (${server.origin ?? 'settings'}).`;
  if (fromUser && server.autoApprove.includes('*')) return `Ran without asking: "autoApprove": ["*"] of server "${server.name}" (${server.origin}).`;
  return undefined;
}
