import * as vscode from 'vscode';
import type { ServerHub } from '../core/mcp/hub/serverHub';
import { registerCommands } from './commands';
import { registerAuthCommands } from './oauth';
import { ResultDocuments } from './resultDocuments';
import { registerTraceView } from './traceView';
import { revealOnStartup, startChat } from './wiring/chat';
import { watchConfiguration } from './wiring/configWatch';
import { startServers } from './wiring/servers';
import { startToolsView } from './wiring/toolsView';
import { registerSandboxCommands } from './sandbox';
import { Catalogs } from './serverRegistry/catalogs';
import { registerRegistryCommands } from './serverRegistry/entryActions';

let hub: ServerHub | undefined;
/** Resolves once the chat's saves asked for so far are written. */
let chatSaved: (() => Promise<void>) | undefined;

/**
 * What activate returns: a small read-only view for other extensions and the desktop tests. `call`
 * runs a tool with no approval, so it exists only in a test build (`scripts/build.mjs --test-api`,
 * used by `npm run test:desktop`): any extension can activate MinAgent and read its exports.
 */
export interface MinAgentApi {
  servers(): ReturnType<ServerHub['servers']>;
  toolNames(): string[];
  call?(name: string, args: Record<string, unknown>): Promise<string>;
}

/** Set by the bundler: true only in the desktop suite's build (scripts/build.mjs --test-api). */
declare const MINAGENT_TEST_API: boolean;

export function activate(context: vscode.ExtensionContext): MinAgentApi {
  try {
    const serverHub = start(context);
    const api: MinAgentApi = {
      servers: () => serverHub.servers(),
      toolNames: () => serverHub.registry.names(),
    };
    if (MINAGENT_TEST_API) api.call = (name, args) => serverHub.registry.call(name, args);
    // The user's choice (the demo's profile makes it): the chat opens, and takes the focus once its page is ready.
    if (revealOnStartup()) void vscode.commands.executeCommand('minagent.chat.focus');
    return api;
  } catch (err) {
    // VS Code does not tell the user when activation fails; we do.
    void vscode.window
      .showErrorMessage(`MinAgent failed to start: ${(err as Error).message}`, 'Show Logs')
      .then((a) => a && vscode.commands.executeCommand('minagent.showLogs'));
    throw err;
  }
}

/**
 * Wires the core to the editor and returns at once: servers connect in the background. Everything
 * made here is owned by `context.subscriptions`; the hub (and every server process) by `deactivate`.
 */
function start(context: vscode.ExtensionContext): ServerHub {
  const servers = startServers(context);
  hub = servers.hub;
  let watch: ReturnType<typeof watchConfiguration> | undefined;
  const catalogs = new Catalogs(context.globalState);
  const toolsView = startToolsView(context, servers.hub, servers.log, () => watch?.config(), servers.sandbox, catalogs);
  // Read-only documents for Try Tool's results, the chat's full results and its export.
  const results = new ResultDocuments();
  chatSaved = startChat(context, servers, toolsView, results);
  watch = watchConfiguration(context, servers, toolsView.changed);
  context.subscriptions.push(
    results,
    ...registerCommands(servers.hub, servers.serverLogs, watch.reload, results, servers.log, toolsView.revealAdded),
    ...registerTraceView(servers.hub),
    ...registerAuthCommands(servers.hub, () => servers.authReady),
    ...registerSandboxCommands(servers.hub, servers.sandbox),
    catalogs,
    ...registerRegistryCommands(servers.hub, catalogs, servers.inputs, toolsView.revealAdded),
  );
  void watch.reload();
  return servers.hub;
}

/**
 * Closes every connection and every server process tree, and lets the chat's last save finish; VS Code waits for the
 * returned promise.
 */
export async function deactivate(): Promise<void> {
  const h = hub;
  const saved = chatSaved;
  hub = undefined;
  chatSaved = undefined;
  // The chat first: a task running in the background stays as it was kept (the next window follows it again), not
  // ended by the connections closing here.
  const chatDone = saved?.().catch(() => undefined);
  await Promise.all([h?.closeAll(), chatDone]);
}
