import type { CreateMessageResult, ReadResourceResult } from '@modelcontextprotocol/client';
import type { McpUiDisplayMode, McpUiDownloadFileRequest } from '@modelcontextprotocol/ext-apps/app-bridge';
import type { Logger } from '../../core/base/logger';
import { serverIdentity } from '../../core/mcp/config/identity';
import type { ServerConfig } from '../../core/mcp/config/serverConfig';
import type { OfferedAppTools } from '../../core/mcp/hub/appToolShelf';
import type { ServerHub } from '../../core/mcp/hub/serverHub';
import { checkAppTools } from '../../core/mcp/tools/appTools';
import type { AppHost, AppSession } from './appSession';

/** What a server's app may ask of the host beyond its own server: the user's model, files saved. */
export interface AppServiceDeps {
  /** A sampling request of a server's app: the server's sampling card, limits and model, named as the app's. */
  sample(
    config: ServerConfig,
    app: { tool: string; resourceUri: string },
    params: unknown,
    signal: AbortSignal,
  ): Promise<CreateMessageResult>;
  /** Files an app asks to save, each through the user's own save dialog; false when refused or failed. */
  download(
    who: { tool: string; server: string },
    contents: McpUiDownloadFileRequest['params']['contents'],
    read: (uri: string) => Promise<ReadResourceResult>,
  ): Promise<boolean>;
  /** The bound of a call to an app's own tool, and of its result (the hub's call timeout and maxOutputChars). */
  limits(): { callTimeoutMs: number; maxOutputChars: number };
  log: Logger;
}

/** The app a session runs, as its services see it. */
export interface AppIdentity {
  server: string;
  config: ServerConfig;
  /** The tool whose app it is. */
  tool: string;
  resourceUri: string;
}

/**
 * The parts of an app's host that reach past its own server: sampling through the server's card, files saved through
 * the user's dialog, and the tools the view offers, on the hub's shelf while the view lives (`dispose` takes them off).
 * `modes` hears which places the app declared.
 */
export function appServices(
  app: AppIdentity,
  hub: ServerHub,
  deps: AppServiceDeps,
  session: () => AppSession | undefined,
  read: (uri: string) => Promise<ReadResourceResult>,
  modes: (modes: McpUiDisplayMode[]) => void,
): Pick<AppHost, 'sample' | 'download' | 'ready' | 'toolsChanged'> & { dispose(): void } {
  const who = `the app of tool "${app.tool}" (server "${app.server}")`;
  let offered: OfferedAppTools | undefined;
  let gone = false;
  const list = async () => {
    const live = session();
    if (!live || gone) return;
    const { callTimeoutMs } = deps.limits();
    const answer = await live.listTools(callTimeoutMs).catch((err: Error) => {
      deps.log.warn(`${who} did not list its tools: ${err.message}`);
      return undefined;
    });
    if (answer === undefined || gone) return;
    const { tools, problems } = checkAppTools(answer, { appOf: app.tool, server: app.server });
    for (const p of problems) deps.log.warn(p);
    if (offered) return offered.update(tools);
    deps.log.info(`${who} offers ${tools.length} tool${tools.length === 1 ? '' : 's'} while it is open`);
    offered = hub.appTools.offer(
      {
        server: app.server,
        serverIdentity: serverIdentity(app.config),
        appOf: app.tool,
        resourceUri: app.resourceUri,
        call: (name, args, signal) => {
          const live = session();
          if (!live) return Promise.reject(new Error('the app was closed'));
          return live.callTool(name, args, deps.limits().callTimeoutMs, signal);
        },
        maxChars: () => deps.limits().maxOutputChars,
      },
      tools,
    );
  };
  return {
    sample: (params, signal) =>
      deps.sample(app.config, { tool: app.tool, resourceUri: app.resourceUri }, params, signal),
    download: (contents) => deps.download({ tool: app.tool, server: app.server }, contents, read),
    ready: (declared, offersTools) => {
      modes(declared);
      if (offersTools) void list();
    },
    toolsChanged: () => void list(),
    dispose: () => {
      gone = true;
      offered?.dispose();
    },
  };
}
