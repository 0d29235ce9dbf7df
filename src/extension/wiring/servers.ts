import { dirname } from 'node:path';
import * as vscode from 'vscode';
import type { ChatModel } from '../../core/agent/model';
import type { AuthManager } from '../../core/auth/manager';
import type { SecretStore } from '../../core/base/secretStore';
import { taggedLogger, type Logger } from '../../core/base/logger';
import { EraMemory } from '../../core/mcp/connection/eraMemory';
import { ServerHub } from '../../core/mcp/hub/serverHub';
import { enableOrphanGuard } from '../../core/mcp/transport/orphanGuard';
import { FailureNotices } from '../failureNotices';
import { InputStore } from '../inputs';
import { channelLogger } from '../log';
import { createEditorAuth } from '../oauth';
import { editorServerAsks } from '../serverAsks/setup';
import { ServerLogs } from '../serverLogs';
import { EditorSandbox } from '../sandbox';
import { SignInNotices } from '../signInNotices';
import { useProfileDir } from '../settingsLocation';
import { UserFileConsent } from '../userFiles';

/** The servers' side of the editor: the hub and what it needs (logs, sign-in, servers' asks, inputs). */
export interface ServerWiring {
  log: Logger;
  serverLogs: ServerLogs;
  hub: ServerHub;
  serverAsks: ReturnType<typeof editorServerAsks>;
  /**
   * OAuth is ready (or known unavailable): the first reconcile waits for it (its redirect address registers clients).
   */
  authReady: Promise<AuthManager | undefined>;
  inputs: InputStore;
  /** What the user confirmed of other tools' MCP files (VS Code's profile mcp.json, Copilot's). */
  consent: UserFileConsent;
  /** VS Code's user folder of this profile, where its `mcp.json` is (undefined when not on this file system). */
  userDir: string | undefined;
  /** Which servers run in a sandbox (the user's rule and the servers taken out of it). */
  sandbox: EditorSandbox;
  /** The chat's model, for servers' sampling requests, once the chat exists. */
  useChatModel(model: () => Promise<ChatModel>): void;
}

/** Makes the hub and its helpers; everything is owned by `context.subscriptions`, the hub by deactivate. */
export function startServers(context: vscode.ExtensionContext): ServerWiring {
  // If the extension host dies without deactivating (a crash, a killed server), no server survives it.
  enableOrphanGuard();
  const channel = vscode.window.createOutputChannel('MinAgent', { log: true });
  const log = channelLogger(channel);
  const serverLogs = new ServerLogs(channel);
  // Servers' asks (forms, URLs, sampling, roots) reach the user through the chat, quick inputs and modals.
  let chatModel: () => Promise<ChatModel> = () => Promise.reject(new Error('the chat is not ready'));
  const serverAsks = editorServerAsks(context.workspaceState, () => chatModel());
  let auth: AuthManager | undefined;
  const authReady = createEditorAuth(context, taggedLogger(log, 'oauth')).then(
    (m) => (auth = m),
    (err: Error) => (log.error(`oauth: sign-in is not available: ${err.message}`), undefined),
  );
  const sandbox = new EditorSandbox(context);
  // The extension's global storage is <user folder>/globalStorage/<extension>, per profile.
  const userDir =
    context.globalStorageUri.scheme === 'file' ? dirname(dirname(context.globalStorageUri.fsPath)) : undefined;
  useProfileDir(userDir);
  const hub = new ServerHub({
    logger: log,
    serverLogger: (name) => serverLogs.logger(name),
    clientRequests: serverAsks.clientRequests,
    eras: editorEraMemory(context.globalState),
    auth: (c, l) => auth?.forServer(c, l),
    sandbox,
  });
  context.subscriptions.push(channel, serverAsks, serverLogs, new FailureNotices(hub), new SignInNotices(hub));
  return {
    log,
    serverLogs,
    hub,
    serverAsks,
    authReady,
    inputs: new InputStore(context.secrets, context.workspaceState),
    consent: new UserFileConsent(context.globalState),
    userDir,
    sandbox,
    useChatModel: (model) => (chatModel = model),
  };
}

/**
 * The era memory of the editor, in its global state (not its secrets: the keys are digests and the
 * values say only "modern" or "legacy"), so a server's next start in any window goes straight to the
 * handshake it speaks.
 */
function editorEraMemory(state: vscode.Memento): EraMemory {
  const store: SecretStore = {
    get: (key) => Promise.resolve(state.get<string>(`minagent.${key}`)),
    store: (key, value) => Promise.resolve(state.update(`minagent.${key}`, value)),
    delete: (key) => Promise.resolve(state.update(`minagent.${key}`, undefined)),
  };
  return new EraMemory(store);
}
