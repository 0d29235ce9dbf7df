import type { ApprovalRequest } from '../agentTypes/events';
import type { ServerConfig } from '../mcp/config/serverConfig';
import { serverIdentity } from '../mcp/config/identity';
import { isUnlistedSource } from './contextSources';

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
  /**
   * The user vouched for the request's server: an "Always allow" on one of its tools, or
   * `trusted: true` on its entry in user settings. Its read-only tools run whatever the model read.
   */
  serverTrusted?: boolean;
}

/**
 * Why a call may run without asking (the card shows it), or undefined when the user is asked.
 * A server's `autoApprove` counts only while its entry is the one the call was pinned to; from a
 * workspace file (anything but user settings) only in a trusted workspace, and never as "*".
 */
export function preapproval(req: ApprovalRequest, ctx: PolicyContext): string | undefined {
  if (ctx.mode === 'never') return 'Ran without asking: "minagent.chat.approval" is "never".';
  if (ctx.allowedForChat) return 'Allowed for this chat.';
  if (ctx.alwaysAllowed)
    return `Always allowed for this server's ${ctx.server?.type === 'stdio' ? 'command and arguments' : 'URL'}.`;
  const auto = autoApproved(req, ctx);
  if (auto) return auto;
  if (
    ctx.mode === 'readOnly' &&
    req.annotations?.readOnlyHint === true &&
    !readOnlyRisk(req, ctx.serverTrusted === true)
  )
    return 'Ran without asking because the server declared this tool read-only (readOnlyHint).';
  return undefined;
}

/**
 * Why a tool its server calls read-only still asks, or undefined when the claim may stand.
 * "Read-only" is the server's word, and a call carries its arguments out: once the model has read
 * another server's results (a secret from the user's files, say), a read-only call could send them
 * to its own server. So it runs unasked only while no other server's result is in the conversation,
 * or when the user vouched for its server.
 */
export function readOnlyRisk(req: ApprovalRequest, serverTrusted: boolean): string | undefined {
  if (req.annotations?.readOnlyHint !== true || serverTrusted) return undefined;
  const others = (req.contextServers ?? []).filter((s) => s !== req.server);
  if (!others.length) return undefined;
  const servers = others.filter((s) => !isUnlistedSource(s));
  const parts = [
    ...(servers.length
      ? [`${servers.length === 1 ? 'server' : 'servers'} ${servers.map((s) => `"${s}"`).join(', ')}`]
      : []),
    ...others.filter(isUnlistedSource),
  ];
  return `Asks although its server calls it read-only: this conversation holds results from ${parts.join(' and from ')}, and its arguments could carry them to ${req.server ? `"${req.server}"` : 'its server'}.`;
}

/** Whether the user vouched for a server: `trusted: true` on its entry in user settings (a workspace file cannot). */
export function trustedByUser(server: ServerConfig | undefined): boolean {
  return server?.trusted === true && fromUser(server);
}

/**
 * Whether an entry is the user's own word: in user settings, or in a user file whose pre-approvals the user
 * confirmed.
 */
function fromUser(server: ServerConfig): boolean {
  return server.origin === USER_ORIGIN || server.userFile?.vouched === true;
}

function autoApproved(req: ApprovalRequest, ctx: PolicyContext): string | undefined {
  const server = ctx.server;
  if (!server || req.remoteName === undefined || serverIdentity(server) !== req.serverIdentity) return undefined;
  const own = fromUser(server);
  if (!own && !ctx.trusted) return undefined;
  if (server.autoApprove.includes(req.remoteName))
    return `Ran without asking: listed in "autoApprove" of server "${server.name}" (${server.origin ?? 'settings'}).`;
  if (own && server.autoApprove.includes('*'))
    return `Ran without asking: "autoApprove": ["*"] of server "${server.name}" (${server.origin}).`;
  return undefined;
}
