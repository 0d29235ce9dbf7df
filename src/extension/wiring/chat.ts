import { join } from 'node:path';
import * as vscode from 'vscode';
import { appContextSection, setAppContext } from '../../core/chat/appContext';
import { FileConversationStore } from '../../core/chat/conversation/fileConversationStore';
import type { LegacyConversation } from '../../core/chat/conversation/legacy';
import { ChatPrompts } from '../../core/chat/prompts';
import { ChatRouter } from '../../core/chat/router';
import { ChatTasks } from '../../core/chat/chatTasks';
import { TurnRunner } from '../../core/chat/turns';
import { taggedLogger } from '../../core/base/logger';
import type { ServerHub } from '../../core/mcp/hub/serverHub';
import { draftWithAttachments, vscodeChatActions } from '../chat/actions';
import { Approvals } from '../chat/approvals';
import { showChatHistory } from '../chat/history';
import { migrateModelSettings } from '../chat/modelSettings';
import { ModelChoices } from '../chat/models';
import { setupModel } from '../chat/setup';
import { ToolSelection } from '../chat/toolSelection';
import { systemPrompt, vscodeTurnHost } from '../chat/turnHost';
import { ChatPanels, ChatViewProvider, type OnReady, PANEL_TYPE, VIEW_ID } from '../chat/views';
import { activateResources } from '../resources/activate';
import type { ResultDocuments } from '../resultDocuments';
import type { ServerWiring } from './servers';
import type { startToolsView } from './toolsView';
import { AppAccess } from '../apps/appAccess';
import { saveAppFiles } from '../apps/appDownload';
import { startApps } from './apps';
import { skillCommands } from '../skillCommands';

/** Where the conversation was kept before it moved into files. */
const LEGACY_CHAT_KEY = 'minagent.chat.v1';

/**
 * The chat: the model choice, approvals, turns, the conversations' store, the sidebar view and editor
 * panels, the resources attached to messages, and the chat's commands.
 */
/**
 * Wires the chat; returns what resolves once every conversation save asked for has been written (deactivate waits for
 * it).
 */
export function startChat(
  context: vscode.ExtensionContext,
  servers: ServerWiring,
  toolsView: ReturnType<typeof startToolsView>,
  results: ResultDocuments,
): () => Promise<void> {
  const { hub, log, serverAsks, inputs } = servers;
  const { switches, pins, meter, icons, tree } = toolsView;
  const models = new ModelChoices(context.secrets, context.workspaceState, context.globalState);
  const approvals = new Approvals(hub, context.workspaceState);
  const tools = new ToolSelection(hub, switches, pins);
  tree.showLoaded(() => tools.loaded());
  const turnHost = vscodeTurnHost(hub, models, tools, approvals, serverAsks.clientRequests.userWait, icons);
  const runner = new TurnRunner(turnHost);
  const store = conversationStore(context, taggedLogger(log, 'chat'));
  // Tool calls that became tasks: let run in the background, told to the model when they end, followed after a reload.
  const tasks = new ChatTasks({
    resume: (server, tool, taskId, options) => hub.resumeTask(server, tool, taskId, options),
    start: (c, input) => runner.start(c, input),
    busy: (c) => runner.busy(c),
    onDidChangeBusy: (listener) => runner.onDidChangeBusy(listener),
    save: (c) => store.save(c).catch((err: Error) => log.error(`chat: saving the conversation failed: ${err.message}`)),
  });
  turnHost.tasks = tasks;
  const { attachments, docs } = activateResources(
    context.subscriptions,
    hub,
    taggedLogger(log, 'resources'),
    models,
    icons,
  );
  const base = vscodeChatActions(models, tools, approvals, results, draftWithAttachments(meter, attachments), {
    attachments,
    docs,
    listed: (uri) => listedResource(hub, uri),
  });
  // Whether a chat page has the keyboard focus, as the page says (the startup reveal checks it took).
  let pageFocused = false;
  const actions = {
    ...base,
    focusChanged: (focused: boolean) => ((pageFocused = focused), base.focusChanged?.(focused)),
  };
  const appsLog = taggedLogger(log, 'apps');
  const apps = startApps(context.subscriptions, hub, {
    access: new AppAccess(hub, approvals, context.workspaceState, appsLog),
    log: appsLog,
    extensionUri: context.extensionUri,
    sample: (config, app, params, signal) =>
      serverAsks.clientRequests.sampleForApp(config, app, params, hub.serverLog(config.name), signal),
    download: (who, contents, read) => saveAppFiles(who, contents, read, appsLog),
    limits: () => hub.currentSettings,
    onContext: (callId, text) => {
      const c = chat.loaded();
      if (c) setAppContext(c, callId, text);
    },
  });
  const chat = new ChatRouter(
    store,
    runner,
    { ...actions, ...serverAsks.chatActions, apps: apps.actions, tasks },
    taggedLogger(log, 'chat'),
    new ChatPrompts(hub.catalog),
  );
  serverAsks.connectChat(chat);
  servers.useChatModel(() => models.create());
  // The meter measures the conversation as the next turn would send it, and posts to every chat view.
  meter.connect((m) => chat.publish(m), {
    model: () => models.create({ withKey: false }),
    // As the next turn sends it: the system prompt, the servers' instructions and this chat's apps' contexts.
    system: () =>
      [systemPrompt(), hub.catalog.instructions(), appContextSection(chat.loaded()?.items ?? [])]
        .filter((t) => !!t)
        .join('\n\n'),
    history: () => chat.loaded()?.messages ?? [],
    tools: (windowTokens, nativeSearch) => tools.budgetTools(chat.loaded()?.messages ?? [], windowTokens, nativeSearch),
  });
  const panels = new ChatPanels(context.extensionUri, chat, apps.origin);
  // The model list is cached; VS Code says when it changes.
  const refreshModels = async () => {
    await models.refresh();
    chat.metaChanged();
  };
  void refreshModels();
  // The old provider settings move into minagent.chat.models once; the picker shows the same list meanwhile.
  void migrateModelSettings(context.globalState).then(
    (moved) =>
      moved && log.info('chat: the model of minagent.chat.provider/baseUrl/model moved into minagent.chat.models'),
    (err: Error) => log.warn(`chat: moving the model settings into minagent.chat.models failed: ${err.message}`),
  );
  context.subscriptions.push(
    tools,
    tasks,
    runner,
    chat,
    panels,
    vscode.window.registerWebviewViewProvider(
      VIEW_ID,
      new ChatViewProvider(
        context.extensionUri,
        chat,
        apps.origin,
        revealOnce(() => pageFocused),
      ),
      { webviewOptions: { retainContextWhenHidden: true } },
    ),
    vscode.window.registerWebviewPanelSerializer(PANEL_TYPE, panels),
    ...skillCommands(hub, attachments, results),
    vscode.commands.registerCommand('minagent.openChat', () => panels.open()),
    vscode.commands.registerCommand('minagent.newChat', () => chat.newChat()),
    vscode.commands.registerCommand('minagent.chatHistory', () => showChatHistory(chat)),
    vscode.commands.registerCommand('minagent.exportChat', () => chat.exportMarkdown()),
    vscode.commands.registerCommand('minagent.showLastAnswer', () => chat.lastAnswerText()),
    registerStopChat(runner, () => chat.stop()),
    vscode.commands.registerCommand('minagent.setApiKey', () => models.setApiKey()),
    vscode.commands.registerCommand('minagent.forgetApprovals', () => approvals.manageAlways()),
    vscode.commands.registerCommand('minagent.forgetInputs', () => inputs.forgetPicked()),
    vscode.commands.registerCommand('minagent.setupModel', async () => {
      await setupModel(models);
      chat.metaChanged();
    }),
    // What the picker, the banner and the meter show may change with: a chip, the models, the settings, the tools,
    // trust.
    attachments.onDidChange(() => chat.metaChanged()),
    vscode.lm.onDidChangeChatModels(() => void refreshModels()),
    vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration('minagent.chat') && chat.metaChanged()),
    hub.onDidChangeTools(() => chat.metaChanged()),
    vscode.workspace.onDidGrantWorkspaceTrust(() => chat.metaChanged()),
    // A switch changes what the model is offered: the tree, the banner and the meter show it (metaChanged updates the
    // meter).
    switches.onDidChange(() => {
      tree.refresh();
      chat.metaChanged();
    }),
    pins.onDidChange(() => {
      tree.refresh();
      chat.metaChanged();
    }),
    tools.onDidChangeLoaded(() => tree.refresh()),
  );
  return () => {
    tasks.suspend();
    return store.settled();
  };
}

/**
 * Conversations live in files under the extension's storage folder; the one workspace state kept is moved there once.
 */
function conversationStore(
  context: vscode.ExtensionContext,
  logger: ReturnType<typeof taggedLogger>,
): FileConversationStore {
  const storage = context.storageUri ?? context.globalStorageUri;
  return new FileConversationStore(join(storage.fsPath, 'conversations'), {
    logger,
    // Every conversation is kept unless the user sets a limit; reaching it is said before anything is removed.
    maxConversations: () => vscode.workspace.getConfiguration('minagent.chat').get<number>('maxConversations'),
    onFull: (limit, next) =>
      void vscode.window
        .showInformationMessage(
          `MinAgent keeps your last ${limit} chats (minagent.chat.maxConversations): the next new chat removes the oldest, "${next.title || 'untitled'}".`,
          'Open Settings',
        )
        .then(
          (a) => a && vscode.commands.executeCommand('workbench.action.openSettings', 'minagent.chat.maxConversations'),
        ),
    legacy: {
      read: () => context.workspaceState.get<LegacyConversation>(LEGACY_CHAT_KEY),
      clear: () => context.workspaceState.update(LEGACY_CHAT_KEY, undefined),
    },
  });
}

function listedResource(hub: ServerHub, uri: string): { server: string; label: string } | undefined {
  const r = hub.catalog.resources().find((x) => x.uri === uri);
  return r ? { server: r.server, label: r.title ?? r.name } : undefined;
}

/** The user's choice (the demo's profile makes it): the chat opens on startup. */
export const revealOnStartup = () =>
  vscode.workspace.getConfiguration('minagent').get<boolean>('revealOnStartup') === true;

/** How often, and how far apart, the startup reveal focuses the chat until its page says it has the focus. */
const REVEAL_TRIES = 4;
const REVEAL_CHECK_MS = 1_500;

/**
 * With minagent.revealOnStartup, focuses the chat when its page is first ready: the caret lands in its
 * input (focusing an unloaded view does not). On a busy machine the page's frame may still be loading
 * when VS Code moves the focus, and the caret is not there: after VS Code's focus the page is told to
 * put the caret in its input itself, and both are done again until the page reports the focus, a few
 * times at most.
 */
function revealOnce(pageFocused: () => boolean): OnReady {
  let done = false;
  return (post) => {
    if (done || !revealOnStartup()) return;
    done = true;
    let tries = 0;
    const focus = () => {
      if (pageFocused() || tries++ >= REVEAL_TRIES) return;
      void vscode.commands.executeCommand('minagent.chat.focus').then(
        () => post({ type: 'focusInput' }),
        () => undefined,
      );
      setTimeout(focus, REVEAL_CHECK_MS);
    };
    focus();
  };
}

/**
 * "MinAgent: Stop Chat Response": stops the chat's running turn, and says so when none runs
 * (rather than doing nothing).
 */
function registerStopChat(runner: TurnRunner, stop: () => void): vscode.Disposable {
  let busy = 0;
  const sub = runner.onDidChangeBusy((e) => (busy = Math.max(0, busy + (e.busy ? 1 : -1))));
  const command = vscode.commands.registerCommand('minagent.stopChat', () => {
    if (!busy) {
      void vscode.window.showInformationMessage('MinAgent: no chat response is running; nothing to stop.');
      return;
    }
    stop();
  });
  return vscode.Disposable.from(sub, command);
}
