import type { ChatMessage } from '../agent/model';
import type { Disposable } from '../event';
import { silentLogger, type Logger } from '../logger';
import { errorMessage } from '../tools';
import type { ApprovalDecision, ChatMeta, ChatState, HostMessage, WebviewMessage } from '../../shared/protocol';
import { parseWebviewMessage } from '../../shared/validate';
import type { AskAnswer } from '../../shared/asks';
import type { Conversation } from './conversation';
import { conversationMarkdown } from './markdown';
import type { ConversationStore } from './store';
import type { TurnRunner } from './turns';

export type Post = (message: HostMessage) => void;

/** What the router asks of the editor; each is one user-visible action. */
export interface ChatActions {
  /** The picker and banner as they are now (cached: no I/O). */
  meta(): ChatMeta;
  selectModel(id: string): Promise<void>;
  decide(callId: string, decision: ApprovalDecision): void;
  /** "Allow for this chat" ends with the chat. */
  forgetChatApprovals(): void;
  openText(content: string, language: 'markdown' | 'plaintext'): Promise<void>;
  /** Resolves true when the tool choice changed. */
  chooseTools(): Promise<boolean>;
  setupModel(): Promise<void>;
  /** The message being typed (the budget meter measures what sending it would cost). */
  draft?(text: string): void;
  /** What the next request costs may have changed: a view opened, a turn ended, the model, tools or chat changed. */
  contextChanged?(): void;
  /** The user answered a server's ask card (a form, a sampling request). */
  answerAsk?(id: string, answer: AskAnswer): void;
  /** A view has its state: it gets what is still waiting for the user beyond the transcript (open ask cards). */
  viewReady?(post: Post): void;
}

/**
 * The chat host's front door: checks every webview message against the protocol, routes it to the
 * turn runner, the conversation store or an editor action, and forwards the current conversation's
 * changes to every attached view (the sidebar and the editor panel show the same conversation).
 */
export class ChatRouter implements Disposable {
  private readonly views = new Set<Post>();
  private conversation: Conversation | undefined;
  private loading: Promise<Conversation> | undefined;
  private listener: Disposable | undefined;
  private readonly busyListener: Disposable;

  constructor(
    private readonly store: ConversationStore,
    private readonly runner: TurnRunner,
    private readonly actions: ChatActions,
    private readonly log: Logger = silentLogger,
  ) {
    this.busyListener = runner.onDidChangeBusy(({ conversation, busy }) => {
      if (conversation !== this.conversation) return;
      this.broadcast({ type: 'busy', busy });
      if (!busy) this.actions.contextChanged?.();
    });
  }

  /** How many views are attached (a server's ask goes to the chat only when one is). */
  get viewCount(): number {
    return this.views.size;
  }

  /** A view's channel; closing the view ends a turn it started. */
  attach(post: Post): Disposable {
    this.views.add(post);
    return {
      dispose: () => {
        this.views.delete(post);
        this.runner.endFrom(post, 'viewClosed');
      },
    };
  }

  /** The conversation the views show, loaded once. */
  current(): Promise<Conversation> {
    if (this.conversation) return Promise.resolve(this.conversation);
    this.loading ??= this.store.current().then((c) => {
      this.show(c);
      return c;
    });
    return this.loading;
  }

  private show(c: Conversation): void {
    this.listener?.dispose();
    this.conversation = c;
    this.listener = c.onDidChange((change) => this.broadcast(change));
  }

  /** The current conversation's model-facing history (empty until it is loaded). */
  history(): readonly ChatMessage[] {
    return this.conversation?.messages ?? [];
  }

  async state(): Promise<ChatState> {
    const c = await this.current();
    return { items: c.items, busy: this.runner.busy(c), ...this.actions.meta() };
  }

  /** Handles one raw message from a view; answers it with a `reply` (with the error, if any). */
  async handle(raw: unknown, post: Post): Promise<void> {
    const message = parseWebviewMessage(raw);
    if (!message) {
      this.log.warn(`chat: dropped a message the protocol does not allow: ${describe(raw)}`);
      return;
    }
    let error: string | undefined;
    try {
      await this.route(message, post);
    } catch (err) {
      error = errorMessage(err);
      this.log.error(`chat: ${message.type}: ${error}`);
    }
    post({ type: 'reply', requestId: message.requestId, ...(error ? { error } : {}) });
  }

  private async route(message: WebviewMessage, post: Post): Promise<void> {
    switch (message.type) {
      case 'ready':
        post({ type: 'state', state: await this.state() });
        this.actions.viewReady?.(post);
        this.actions.contextChanged?.();
        return;
      case 'answerAsk':
        this.actions.answerAsk?.(message.id, message.answer);
        return;
      case 'draft':
        this.actions.draft?.(message.text);
        return;
      case 'send':
        return this.send(message.text, post);
      case 'continue':
        return this.send('Continue exactly where your previous answer was cut off.', post);
      case 'stop':
        this.stop();
        return;
      case 'approve':
        this.actions.decide(message.callId, message.decision);
        return;
      case 'newChat':
        this.newChat();
        return;
      case 'export':
        return this.exportMarkdown();
      case 'selectModel': {
        // The running turn was asked of the other model: it ends before the switch.
        if (this.conversation) this.runner.end(this.conversation, 'modelChanged');
        await this.actions.selectModel(message.id);
        this.metaChanged();
        return;
      }
      case 'openResult': {
        const text = (await this.current()).fullResult(message.callId);
        if (text !== undefined) await this.actions.openText(text, 'plaintext');
        return;
      }
      case 'chooseTools':
        if (await this.actions.chooseTools()) this.metaChanged();
        return;
      case 'setupModel':
        return this.actions.setupModel();
    }
  }

  /** Starts a turn in the current conversation; throws when one runs (the sender sees why). */
  async send(text: string, origin?: unknown): Promise<void> {
    const c = this.conversation ?? (await this.current());
    const turn = this.runner.start(c, text, origin);
    void turn.then(() => this.save(c));
  }

  stop(): void {
    if (this.conversation) this.runner.end(this.conversation, 'stopped');
  }

  /**
   * Replaces the conversation at once: the running turn ends and keeps writing only into the old
   * conversation, which the views no longer show.
   */
  newChat(): void {
    const old = this.conversation;
    if (old) this.runner.end(old, 'newChat');
    this.actions.forgetChatApprovals();
    const c = this.store.create();
    this.loading = Promise.resolve(c);
    this.show(c);
    this.broadcast({ type: 'state', state: { items: [], busy: false, ...this.actions.meta() } });
    this.actions.contextChanged?.();
    void this.save(c);
  }

  async exportMarkdown(): Promise<void> {
    await this.actions.openText(conversationMarkdown(await this.current()), 'markdown');
  }

  /** The picker or banner changed (models, settings, tools): only they are sent again. */
  metaChanged(): void {
    this.broadcast({ type: 'meta', meta: this.actions.meta() });
    this.actions.contextChanged?.();
  }

  /** Sends a host message (e.g. the budget meter's) to every attached view. */
  publish(message: HostMessage): void {
    this.broadcast(message);
  }

  private async save(c: Conversation): Promise<void> {
    try {
      await this.store.save(c);
    } catch (err) {
      this.log.error(`chat: saving the conversation failed: ${errorMessage(err)}`);
    }
  }

  private broadcast(message: HostMessage): void {
    for (const post of this.views) post(message);
  }

  dispose(): void {
    this.busyListener.dispose();
    this.listener?.dispose();
    this.runner.endAll('disposed');
    if (this.conversation) void this.save(this.conversation);
    this.views.clear();
  }
}

function describe(raw: unknown): string {
  const type = typeof raw === 'object' && raw !== null ? (raw as { type?: unknown }).type : undefined;
  return typeof type === 'string' ? `type "${type.slice(0, 40)}"` : typeof raw;
}
