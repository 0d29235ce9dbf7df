import * as vscode from 'vscode';
import type { ChatModel } from '../../core/agent/model';
import type { Post } from '../../core/chat/chatActions';
import { ClientRequests } from '../../core/mcp/clientRequests/clientRequests';
import { FolderRoots } from '../../core/mcp/clientRequests/roots';
import { samplingInputLimit, samplingLimit, type SamplingGrants } from '../../core/mcp/clientRequests/sampling';
import type { AskAnswer } from '../../shared/asks';
import type { HostMessage } from '../../shared/protocol';
import { setting } from '../trustedSettings';
import { appsEnabled } from '../apps/enabled';
import { ChatAsks } from './chatAsks';
import { EditorClientRequestUi } from './editorUi';

/** The chat as servers' asks need it: where cards go, and whether a view shows them. */
export interface AskChat {
  publish(m: HostMessage): void;
  readonly viewCount: number;
}

/**
 * Servers' requests to the client in the editor: the UI (chat cards, quick inputs, modals), the
 * roots (the workspace's folders, told to servers when they change), sampling with the chat's
 * current model within `minagent.sampling.maxTokens` and `minagent.sampling.maxInputChars`,
 * remembered grants per workspace.
 * `connectChat` is called once the chat exists (the hub, which needs this, is made first).
 */
export function editorServerAsks(workspaceState: vscode.Memento, model: () => Promise<ChatModel>) {
  let chat: AskChat | undefined;
  const asks = new ChatAsks((m) => chat?.publish(m));
  const roots = new FolderRoots(workspaceRoots());
  const requests = new ClientRequests({
    // Servers are told the chat renders their apps (they may then send app-only tools) only while it does.
    apps: (config) => appsEnabled() && config.apps !== false,
    ui: new EditorClientRequestUi(() => (chat ? { asks, open: chat.viewCount > 0 } : undefined)),
    roots,
    sampling: {
      model,
      maxTokens: (server) => samplingLimit(setting<unknown>('sampling.maxTokens', {}), server),
      maxInputChars: () => samplingInputLimit(setting<unknown>('sampling.maxInputChars', undefined)),
      grants: new MementoGrants(workspaceState),
    },
  });
  const folders = vscode.workspace.onDidChangeWorkspaceFolders(() => roots.set(workspaceRoots()));
  return {
    clientRequests: requests,
    connectChat(c: AskChat): void {
      chat = c;
    },
    /** The chat's hooks: answers from cards, and the waiting cards for a view that opens. */
    chatActions: {
      answerAsk: (id: string, answer: AskAnswer) => asks.answer(id, answer),
      viewReady: (post: Post) => asks.replay(post),
    },
    dispose(): void {
      folders.dispose();
      asks.dispose();
      requests.dispose();
      roots.dispose();
    },
  };
}

function workspaceRoots(): Array<{ path: string; name: string }> {
  return (vscode.workspace.workspaceFolders ?? [])
    .filter((f) => f.uri.scheme === 'file')
    .map((f) => ({ path: f.uri.fsPath, name: f.name }));
}

const GRANTS_KEY = 'minagent.sampling.allowed';

/** Servers allowed to sample without asking, for this workspace, by server identity (a changed server asks again). */
class MementoGrants implements SamplingGrants {
  constructor(private readonly memento: vscode.Memento) {}

  has(identity: string): boolean {
    return this.list().some((g) => g.identity === identity);
  }

  async add(identity: string, server: string): Promise<void> {
    if (!this.has(identity)) await this.memento.update(GRANTS_KEY, [...this.list(), { identity, server }]);
  }

  private list(): Array<{ identity: string; server: string }> {
    const v = this.memento.get<unknown>(GRANTS_KEY);
    return Array.isArray(v)
      ? v.filter(
          (g): g is { identity: string; server: string } =>
            typeof g?.identity === 'string' && typeof g?.server === 'string',
        )
      : [];
  }
}
