import type { CallToolResult, ReadResourceResult } from '@modelcontextprotocol/client';
import * as vscode from 'vscode';
import type { ApprovalRequest } from '../../core/agentTypes/events';
import type { Logger } from '../../core/base/logger';
import { isFeatureError } from '../../core/mcp/features/featureTypes';
import type { ServerHub } from '../../core/mcp/hub/serverHub';
import { forApp, pinOf } from '../../core/toolRegistry/toolRegistry';

/**
 * What the user is told before a server's first app shows: what it can do, and plainly what its
 * sandbox cannot close (docs/SECURITY.md, "MCP Apps").
 */
export const APP_CONSENT_DETAIL =
  "The app runs in a sandbox of its own. It can call this server's tools (asking you as the chat does), read its resources, put a message beside what you type and ask to open web links. It cannot reach the chat or other servers, and its requests reach only the addresses its server declared. One exit stays open for an app that declares pages of other sites to frame: from a frame, WebRTC (the browser's peer-to-peer connections) can send what it shows to any address; MinAgent closes WebRTC only in apps without frames.";

/** Who decides whether an app's tool call runs without asking (the chat's approvals). */
export interface AppApprovals {
  preapproval(req: ApprovalRequest): string | undefined;
}

/**
 * What an app may do, each time with the user's say: be shown at all (asked once per server
 * identity), call a tool of its own server (never another's; outside the read-only rules the user
 * is asked, told the app asks), read its own server's resources, and open http(s) links through
 * VS Code's own confirmation.
 */
export class AppAccess {
  /** [server, the app's tool call, tool] the user allowed for that app ("Allow for This App"). */
  private readonly allowedApps = new Set<string>();

  constructor(
    private readonly hub: ServerHub,
    private readonly approvals: AppApprovals,
    /** The user's say on each server's apps, per server identity (this workspace's state). */
    private readonly consent: vscode.Memento,
    private readonly log: Logger,
  ) {}

  /**
   * The user's say on a server's apps, per server identity; undefined until asked (in the app's card, answered by
   * `decide`).
   */
  known(identity: string): boolean | undefined {
    return this.consent.get<boolean>(`minagent.apps.${identity}`);
  }

  /** The user's answer in a card: remembered at once for every card of that server identity. */
  decide(identity: string, show: boolean): Thenable<void> {
    return this.consent.update(`minagent.apps.${identity}`, show);
  }

  /**
   * A tool of the app's own server, never another's; outside the read-only rules the user is asked, told the app (of
   * `appTool`) asks.
   */
  async callTool(
    server: string,
    appTool: string,
    callId: string,
    name: string,
    args: Record<string, unknown>,
  ): Promise<CallToolResult> {
    const tool = this.hub.registry.list().find((t) => t.server === server && t.remoteName === name);
    if (!tool) return errorResult(`server "${server}" has no tool "${name}"; an app calls only its own server's tools`);
    // A tool its server keeps from apps (_meta.ui.visibility without "app") is refused, whatever the user's rules.
    if (!forApp(tool))
      return errorResult(
        `server "${server}" keeps tool "${name}" from apps (its _meta.ui.visibility has no "app"); an app cannot call it`,
      );
    const pin = pinOf(tool);
    const req: ApprovalRequest = {
      ...pin,
      callId: `app-${callId}`,
      wireName: tool.name,
      arguments: args,
      ...(tool.annotations ? { annotations: tool.annotations } : {}),
    };
    // One app (the app of one tool call) that the user let call this tool, with any arguments, while it is shown: a
    // polling app asks once.
    const forThisApp = JSON.stringify([server, callId, name]);
    if (this.approvals.preapproval(req) === undefined && !this.allowedApps.has(forThisApp)) {
      const once = 'Allow Once';
      const always = 'Allow for This App';
      const choice = await vscode.window.showWarningMessage(
        `The app of tool "${appTool}" asks to call "${name}" of server "${server}".`,
        {
          modal: true,
          detail: `Arguments: ${JSON.stringify(args, null, 2).slice(0, 2000)}\n\n"${always}": this app may call "${name}" again, with any arguments, without asking, until VS Code restarts.`,
        },
        once,
        always,
      );
      if (choice !== once && choice !== always) return errorResult(`the user denied the app's call to "${name}"`);
      if (choice === always) this.allowedApps.add(forThisApp);
    }
    let raw: Record<string, unknown> | undefined;
    const text = await this.hub.registry.callPinned(pin, args, { onResult: (r) => void (raw = r) });
    this.log.info(`the app of tool "${appTool}" called "${name}" of server "${server}"`);
    return (raw as CallToolResult | undefined) ?? errorResult(text);
  }

  async readResource(server: string, uri: string): Promise<ReadResourceResult> {
    const result = await this.hub.catalog.readResource(server, uri);
    if (isFeatureError(result)) throw new Error(result.error);
    const contents = result.contents.map((c) => ({
      uri: c.uri,
      ...(c.mimeType ? { mimeType: c.mimeType } : {}),
      ...(c.meta ? { _meta: c.meta } : {}),
      ...(c.text !== undefined ? { text: c.text } : { blob: c.blob ?? '' }),
    }));
    return { contents } as ReadResourceResult;
  }

  /** http(s) only, through VS Code (which asks before an address the user has not trusted). */
  async openLink(url: string): Promise<boolean> {
    if (!/^https?:\/\//i.test(url) || url.length > 2048) return false;
    return vscode.env.openExternal(vscode.Uri.parse(url, true));
  }
}

function errorResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}
