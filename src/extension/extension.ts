import { editorEraMemory } from './eraStore';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { describeProblem } from '../core/mcp/config/describe';
import { ServerHub } from '../core/mcp/hub';
import { ToolSwitches, type SwitchState } from '../core/toolSwitches';
import { enableOrphanGuard } from '../core/mcp/transport/orphanGuard';
import { registerCommands } from './commands';
import { createEditorAuth, registerAuthCommands } from './oauth';
import type { AuthManager } from '../core/auth/manager';
import { loadWorkspaceConfig, type WorkspaceConfig } from './configLoader';
import { InputStore } from './inputs';
import { channelLogger } from './log';
import { taggedLogger } from '../core/logger';
import { SERVER_FILES } from './mcpFiles';
import { ServerTreeProvider } from './serverTree';
import { ServerLogs } from './serverLogs';
import { FailureNotices } from './failureNotices';
import { SignInNotices } from './signInNotices';
import { ResultDocuments } from './resultDocuments';
import { activateResources } from './resources/activate';
import { IconFiles } from './icons/iconFiles';
import { StatusBar } from './statusBar';
import { testReporter } from './testReport';
import { registerTraceView } from './traceView';
import { FileConversationStore } from '../core/chat/store/fileConversationStore';
import type { LegacyConversation } from '../core/chat/store/legacy';
import { ChatPrompts } from '../core/chat/prompts';
import { ChatRouter } from '../core/chat/router';
import { TurnRunner } from '../core/chat/turns';
import { draftWithAttachments, vscodeChatActions } from './chat/actions';
import { Approvals } from './chat/approvals';
import { BudgetMeter } from './chat/budgetMeter';
import { ModelChoices } from './chat/models';
import { showChatHistory } from './chat/history';
import { migrateModelSettings } from './chat/modelSettings';
import { setupModel } from './chat/setup';
import { registerStopChat } from './chat/stopCommand';
import { ToolSelection } from './chat/toolSelection';
import { systemPrompt, vscodeTurnHost } from './chat/turnHost';
import { ChatPanels, ChatViewProvider, PANEL_TYPE, VIEW_ID } from './chat/views';
import { editorServerAsks } from './serverAsks/setup';
import type { ChatModel } from '../core/agent/model';

let hub: ServerHub | undefined;
/** Where the conversation was kept before it moved into files. */
const LEGACY_CHAT_KEY = 'minagent.chat.v1';
/** Servers and tools switched off for this workspace (workspace state, never settings). */
const SWITCHES_KEY = 'minagent.tools.off';

/**
 * Wires the core to the editor and returns at once: servers connect in the background. Everything
 * made here is owned by `context.subscriptions`; the hub (and every server process) by `deactivate`.
 */
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
/** Set by the bundler: true only in the e2e suite's package (scripts/build.mjs --server-report). */
declare const MINAGENT_SERVER_REPORT: boolean;

export function activate(context: vscode.ExtensionContext): MinAgentApi {
  try {
    const serverHub = start(context);
    const api: MinAgentApi = {
      servers: () => serverHub.servers(),
      toolNames: () => serverHub.registry.names(),
    };
    if (MINAGENT_TEST_API) api.call = (name, args) => serverHub.registry.call(name, args);
    // The user's choice (the demo's profile makes it): the chat opens, and takes the focus once its page is ready (revealOnce).
    if (revealOnStartup()) void vscode.commands.executeCommand('minagent.chat.focus');
    return api;
  } catch (err) {
    // VS Code does not tell the user when activation fails; we do.
    void vscode.window.showErrorMessage(`MinAgent failed to start: ${(err as Error).message}`, 'Show Logs').then((a) => a && vscode.commands.executeCommand('minagent.showLogs'));
    throw err;
  }
}

function listedResource(hub: ServerHub, uri: string): { server: string; label: string } | undefined {
  const r = hub.catalog.resources().find((x) => x.uri === uri);
  return r ? { server: r.server, label: r.title ?? r.name } : undefined;
}

const revealOnStartup = () => vscode.workspace.getConfiguration('minagent').get<boolean>('revealOnStartup') === true;

/** With minagent.revealOnStartup, focuses the chat when its page is first ready: the caret lands in its input (focusing an unloaded view does not). */
function revealOnce(): () => void {
  let done = false;
  return () => {
    if (done || !revealOnStartup()) return;
    done = true;
    void vscode.commands.executeCommand('minagent.chat.focus');
  };
}

function start(context: vscode.ExtensionContext): ServerHub {
  // If the extension host dies without deactivating (a crash, a killed server), no server survives it.
  enableOrphanGuard();
  const channel = vscode.window.createOutputChannel('MinAgent', { log: true });
  context.subscriptions.push(channel);
  const log = channelLogger(channel);
  const serverLogs = new ServerLogs(channel);
  // Servers' asks (forms, URLs, sampling, roots) reach the user through the chat, quick inputs and modals.
  let chatModel: () => Promise<ChatModel> = () => Promise.reject(new Error('the chat is not ready'));
  const serverAsks = editorServerAsks(context.workspaceState, () => chatModel());
  context.subscriptions.push(serverAsks);
  // OAuth for HTTP servers: ready before the first reconcile (its redirect address is needed to register).
  let auth: AuthManager | undefined;
  const authReady = createEditorAuth(context, taggedLogger(log, 'oauth')).then(
    (m) => (auth = m),
    (err: Error) => (log.error(`oauth: sign-in is not available: ${err.message}`), undefined),
  );
  const serverHub = new ServerHub({ logger: log, serverLogger: (name) => serverLogs.logger(name), clientRequests: serverAsks.clientRequests, eras: editorEraMemory(context.globalState), auth: (c, l) => auth?.forServer(c, l) });
  context.subscriptions.push(serverLogs, new FailureNotices(serverHub), new SignInNotices(serverHub));
  hub = serverHub;
  const inputs = new InputStore(context.secrets, context.workspaceState);
  let config: WorkspaceConfig | undefined;

  const switches = new ToolSwitches({ get: () => context.workspaceState.get<SwitchState>(SWITCHES_KEY), set: (s) => context.workspaceState.update(SWITCHES_KEY, s) });
  const meter = new BudgetMeter(log);
  const icons = new IconFiles(vscode.Uri.joinPath(context.globalStorageUri, 'icons'), taggedLogger(log, 'icons'));
  const tree = new ServerTreeProvider(serverHub, () => config, switches, (server) => meter.serverCost(server), icons);
  const view = vscode.window.createTreeView('minagent.tools', { treeDataProvider: tree, showCollapseAll: true, manageCheckboxStateManually: true });
  context.subscriptions.push(
    switches,
    meter,
    view.onDidChangeCheckboxState((e) => void tree.applyCheckboxes(e.items)),
    meter.onDidChangeCosts(() => tree.refresh()),
    icons,
    icons.onDidLoad(() => tree.refresh()),
  );
  const status = new StatusBar(serverHub, () => config);
  // Only the e2e suite's package has the report (scripts/build.mjs fails any other bundle that does).
  const report = MINAGENT_SERVER_REPORT ? testReporter(serverHub) : undefined;
  const changed = () => {
    tree.refresh();
    status.update();
    const servers = serverHub.servers();
    const starting = servers.filter((s) => s.state.kind === 'starting').length;
    view.badge = starting ? { value: starting, tooltip: `${starting} server${starting === 1 ? '' : 's'} starting` } : undefined;
    report?.();
  };
  context.subscriptions.push(tree, view, status, serverHub.onDidChangeServers(changed), serverHub.onDidChangeTools(changed));

  let loading = Promise.resolve();
  const reload = (): Promise<void> => {
    loading = loading.then(async () => {
      try {
        config = await loadWorkspaceConfig(inputs);
      } catch (err) {
        log.error(`reading the configuration failed: ${(err as Error).message}`);
        return;
      }
      for (const p of config.problems) (p.severity === 'error' ? log.error : log.warn)(`config: ${describeProblem(p)}`);
      if (config.untrusted.length) log.warn(`workspace not trusted: not starting ${config.untrusted.join(', ')}`);
      await authReady;
      serverHub.reconcile(config.servers, config.problems, config.settings);
      changed();
    });
    return loading;
  };

  const models = new ModelChoices(context.secrets, context.workspaceState, context.globalState);
  const approvals = new Approvals(serverHub, context.workspaceState);
  const tools = new ToolSelection(serverHub, switches);
  const runner = new TurnRunner(vscodeTurnHost(serverHub, models, tools, approvals, serverAsks.clientRequests.userWait, icons));
  // Conversations live in files under the extension's storage folder; the one workspace state kept is moved there once.
  const storage = context.storageUri ?? context.globalStorageUri;
  // Read-only documents for Try Tool's results, the chat's full results and its export.
  const results = new ResultDocuments();
  const store = new FileConversationStore(join(storage.fsPath, 'conversations'), {
    logger: taggedLogger(log, 'chat'),
    // Every conversation is kept unless the user sets a limit; reaching it is said before anything is removed.
    maxConversations: () => vscode.workspace.getConfiguration('minagent.chat').get<number>('maxConversations'),
    onFull: (limit, next) =>
      void vscode.window
        .showInformationMessage(`MinAgent keeps your last ${limit} chats (minagent.chat.maxConversations): the next new chat removes the oldest, "${next.title || 'untitled'}".`, 'Open Settings')
        .then((a) => a && vscode.commands.executeCommand('workbench.action.openSettings', 'minagent.chat.maxConversations')),
    legacy: { read: () => context.workspaceState.get<LegacyConversation>(LEGACY_CHAT_KEY), clear: () => context.workspaceState.update(LEGACY_CHAT_KEY, undefined) },
  });
  const { attachments, docs } = activateResources(context.subscriptions, serverHub, taggedLogger(log, 'resources'), models, icons);
  const chat = new ChatRouter(store, runner, { ...vscodeChatActions(models, tools, approvals, results, draftWithAttachments(meter, attachments), { attachments, docs, listed: (uri) => listedResource(serverHub, uri) }), ...serverAsks.chatActions }, taggedLogger(log, 'chat'), new ChatPrompts(serverHub.catalog));
  serverAsks.connectChat(chat);
  chatModel = () => models.create();
  // A chip added or removed: the views show it, the meter counts it.
  context.subscriptions.push(attachments.onDidChange(() => chat.metaChanged()));
  // The meter measures the conversation as the next turn would send it, and posts to every chat view.
  meter.connect((m) => chat.publish(m), {
    model: () => models.create({ withKey: false }),
    system: systemPrompt,
    history: () => chat.history(),
    tools: () => tools.budgetTools(),
  });
  const panels = new ChatPanels(context.extensionUri, chat);
  // The model list is cached; VS Code says when it changes.
  const refreshModels = async () => {
    await models.refresh();
    chat.metaChanged();
  };
  void refreshModels();
  // The old provider settings move into minagent.chat.models once; the picker shows the same list meanwhile.
  void migrateModelSettings(context.globalState).then(
    (moved) => moved && log.info('chat: the model of minagent.chat.provider/baseUrl/model moved into minagent.chat.models'),
    (err: Error) => log.warn(`chat: moving the model settings into minagent.chat.models failed: ${err.message}`),
  );
  context.subscriptions.push(
    runner,
    chat,
    panels,
    vscode.window.registerWebviewViewProvider(VIEW_ID, new ChatViewProvider(context.extensionUri, chat, revealOnce()), { webviewOptions: { retainContextWhenHidden: true } }),
    vscode.window.registerWebviewPanelSerializer(PANEL_TYPE, panels),
    vscode.commands.registerCommand('minagent.openChat', () => panels.open()),
    vscode.commands.registerCommand('minagent.newChat', () => chat.newChat()),
    vscode.commands.registerCommand('minagent.chatHistory', () => showChatHistory(chat)),
    vscode.commands.registerCommand('minagent.exportChat', () => chat.exportMarkdown()),
    registerStopChat(runner, () => chat.stop()),
    vscode.commands.registerCommand('minagent.setApiKey', () => models.setApiKey()),
    vscode.commands.registerCommand('minagent.forgetApprovals', () => approvals.manageAlways()),
    vscode.commands.registerCommand('minagent.forgetInputs', () => inputs.forgetPicked()),
    vscode.commands.registerCommand('minagent.setupModel', async () => {
      await setupModel(models);
      chat.metaChanged();
    }),
    vscode.lm.onDidChangeChatModels(() => void refreshModels()),
    vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration('minagent.chat') && chat.metaChanged()),
    serverHub.onDidChangeTools(() => chat.metaChanged()),
    vscode.workspace.onDidGrantWorkspaceTrust(() => chat.metaChanged()),
    // A switch changes what the model is offered: the tree, the banner and the meter show it (metaChanged updates the meter).
    switches.onDidChange(() => {
      tree.refresh();
      chat.metaChanged();
    }),
  );

  context.subscriptions.push(
    results,
    ...registerCommands(serverHub, serverLogs, reload, results, log),
    ...registerTraceView(serverHub),
    ...registerAuthCommands(serverHub, () => authReady),
    vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration('minagent') && void reload()),
    vscode.workspace.onDidGrantWorkspaceTrust(() => void reload()),
    vscode.workspace.onDidChangeWorkspaceFolders(() => void reload()),
  );
  for (const file of SERVER_FILES) {
    const folder = vscode.workspace.workspaceFolders?.[0];
    if (!folder) continue;
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, file.label));
    const onFile = () => vscode.workspace.getConfiguration('minagent').get<boolean>(file.setting) && void reload();
    context.subscriptions.push(watcher, watcher.onDidChange(onFile), watcher.onDidCreate(onFile), watcher.onDidDelete(onFile));
  }
  void reload();
  return serverHub;
}

/** Closes every connection and every server process tree; VS Code waits for the returned promise. */
export async function deactivate(): Promise<void> {
  const h = hub;
  hub = undefined;
  await h?.closeAll();
}
