import type { Disposable } from '../base/event';
import { silentLogger, type Logger } from '../base/logger';
import { errorMessage } from '../toolRegistry/toolRegistry';
import type { ChatState, HostMessage, WebviewMessage } from '../../shared/protocol';
import { describeDropped, parseWebviewMessage } from '../../shared/validate';
import type { ChatActions, Post } from './chatActions';
import type { Conversation } from './conversation/conversation';
import { CONTINUE_MESSAGE, putBackTurn, takeBackLastTurn, type TakenTurn } from './lastTurn';
import { conversationMarkdown, exportTitle } from './markdown';
import { routeAppRequest } from './appRequests';
import { promptCompletions, promptTurnInput } from './promptRequests';
import type { ChatPrompts } from './prompts';
import type { ConversationInfo, ConversationStore } from './conversation/conversationStore';
import { TurnBusy, type TurnRunner } from './turns';

/**
 * The chat host's front door: checks every webview message against the protocol, routes it to the
 * turn runner, the conversation store or an editor action, and forwards the current conversation's
 * changes to every attached view (the sidebar and the editor panel show the same conversation).
 */
export class ChatRouter implements Disposable {
  private readonly views = new Set<Post>();
  private conversation: Conversation | undefined;
  private loading: Promise<Conversation> | undefined;
  /** Counts the conversations shown, so only the last of quick changes reaches the views. */
  private replacing = 0;
  private listener: Disposable | undefined;
  /** The turn Edit last took back, for its Undo. */
  private taken: TakenTurn | undefined;
  private readonly busyListener: Disposable;
  private readonly promptsListener: Disposable | undefined;

  constructor(
    private readonly store: ConversationStore,
    private readonly runner: TurnRunner,
    private readonly actions: ChatActions,
    private readonly log: Logger = silentLogger,
    /** Every server's prompts, for the `/` menu (absent: no menu). */
    private readonly prompts?: ChatPrompts,
  ) {
    this.promptsListener = prompts?.onDidChange(() => this.broadcast({ type: 'prompts', prompts: prompts.list() }));
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
        this.actions.apps?.viewClosed(post);
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
    // Tasks that ran in the background when it was last kept are followed again.
    this.actions.tasks?.resume(c);
  }

  /** The current conversation, once it is loaded. */
  loaded(): Conversation | undefined {
    return this.conversation;
  }

  async state(): Promise<ChatState> {
    const c = await this.current();
    return { items: c.items, busy: this.runner.busy(c), ...this.actions.meta() };
  }

  /** Handles one raw message from a view; answers it with a `reply` (with the error, if any). */
  async handle(raw: unknown, post: Post): Promise<void> {
    const message = parseWebviewMessage(raw);
    if (!message) {
      this.log.warn(`chat: dropped a message the protocol does not allow: ${describeDropped(raw)}`);
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
        if (this.prompts) post({ type: 'prompts', prompts: this.prompts.list() });
        this.actions.viewReady?.(post);
        this.actions.contextChanged?.();
        return;
      case 'answerAsk':
        this.actions.answerAsk?.(message.id, message.answer);
        return;
      case 'completePrompt':
        post(await promptCompletions(this.prompts, message));
        return;
      case 'runPrompt': {
        const c = this.conversation ?? (await this.current());
        // Refused before the server is asked when a turn runs, as a typed message would be.
        if (this.runner.busy(c)) throw new TurnBusy();
        const input = await promptTurnInput(this.prompts, message);
        void this.runner.start(c, input, post).then(() => this.save(c));
        return;
      }
      case 'focus':
        this.actions.focusChanged?.(message.focused);
        return;
      case 'draft':
        this.actions.draft?.(message.text);
        return;
      case 'send':
        return this.send(message.text, post);
      case 'retry':
      case 'editLast': {
        const c = await this.current();
        const taken = takeBackLastTurn(c, this.runner.busy(c));
        void this.save(c);
        this.actions.contextChanged?.();
        if (message.type === 'retry') return this.send(taken.text, post);
        this.taken = taken;
        post({ type: 'editDraft', text: taken.text, undoable: true });
        return;
      }
      case 'undoEdit': {
        const taken = this.taken;
        this.taken = undefined;
        if (!taken || !putBackTurn(await this.current(), taken))
          throw new Error('the message can no longer be put back: the chat changed since Edit');
        void this.save(taken.from);
        this.actions.contextChanged?.();
        return;
      }
      case 'continue':
        return this.send(CONTINUE_MESSAGE, post);
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
        const c = await this.current();
        const text = c.fullResult(message.callId);
        const item = c.find(message.callId);
        if (text !== undefined)
          await this.actions.openText(text, 'plaintext', `result · ${item?.kind === 'tool' ? item.card.name : 'tool'}`);
        return;
      }
      case 'setupModel':
        return this.actions.setupModel();
      case 'task':
        if (!this.actions.tasks) throw new Error('this chat follows no tasks');
        return this.actions.tasks.act(message.callId, message.action);
      case 'openResource': {
        const item = (await this.current()).find(message.callId);
        const resource = item?.kind === 'tool' ? item.card.resources?.[message.index] : undefined;
        if (!resource) throw new Error('that resource is no longer in the conversation');
        await this.actions.openResource?.(resource);
        return;
      }
      case 'detach':
        this.actions.attachments?.remove(message.id);
        return;
      case 'openLink':
        if (!this.actions.openLink)
          throw new Error(`${message.uri} is not a web address, and this chat opens no resources`);
        return this.actions.openLink(message.uri);
      default:
        return routeAppRequest(message, post, this.actions.apps, () => this.current());
    }
  }

  /** Starts a turn in the current conversation; throws when one runs (the sender sees why). */
  async send(text: string, origin?: Post): Promise<void> {
    const c = this.conversation ?? (await this.current());
    // Taken only when the turn starts (start throws at once when one runs): a refused send keeps them.
    const attached = this.runner.busy(c) ? undefined : this.actions.attachments?.take();
    const turn = this.runner.start(c, text, origin, attached);
    void turn.then(({ notSent }) => {
      // Nothing reached the model: the message goes back to the view that sent it, with what was attached.
      if (notSent) {
        this.actions.attachments?.giveBack(notSent.attached);
        if (origin && this.views.has(origin)) origin({ type: 'notSent', text: notSent.text, reason: notSent.reason });
      }
      return this.save(c);
    });
  }

  stop(): void {
    if (this.conversation) this.runner.end(this.conversation, 'stopped');
  }

  /**
   * Replaces the conversation at once: the running turn ends and keeps writing only into the old one, which no view
   * shows.
   */
  newChat(): void {
    const old = this.conversation;
    if (old) this.runner.end(old, 'newChat');
    const c = this.store.create();
    this.replace(c);
    void this.save(c);
  }

  /** Shows another conversation in every view; a turn running in the old one ends, as with New. */
  private replace(c: Conversation): void {
    this.actions.forgetChatApprovals();
    this.loading = Promise.resolve(c);
    this.show(c);
    // The apps of the conversation that goes are told first (`ui/resource-teardown`, bounded), then the views change.
    const shown = ++this.replacing;
    const change = () => {
      if (shown !== this.replacing) return;
      this.broadcast({ type: 'state', state: { items: c.items, busy: this.runner.busy(c), ...this.actions.meta() } });
      this.actions.contextChanged?.();
    };
    const tearing = this.actions.apps?.teardownAll();
    if (tearing) void tearing.then(change);
    else change();
  }

  /** The kept conversations, most recent first; `current` marks the one the views show. */
  async conversations(): Promise<Array<ConversationInfo & { current: boolean }>> {
    const current = (await this.current()).id;
    return (await this.store.list()).map((info) => ({ ...info, current: info.id === current }));
  }

  /** Reopens a kept conversation (the history's pick). */
  async openConversation(id: string): Promise<void> {
    const old = await this.current();
    if (old.id === id) return;
    const c = await this.store.open(id);
    this.runner.end(old, 'chatSwitched');
    this.replace(c);
  }

  renameConversation(id: string, title: string): Promise<void> {
    return this.store.rename(id, title);
  }

  /** Deletes a kept conversation; deleting the one shown opens the most recent other one, or a new chat. */
  async deleteConversation(id: string): Promise<void> {
    const shown = (await this.current()).id === id;
    await this.store.remove(id);
    if (!shown) return;
    const next = (await this.store.list())[0];
    if (next) await this.openConversation(next.id);
    else this.newChat();
  }

  async exportMarkdown(): Promise<void> {
    const c = await this.current();
    const kept = (await this.store.list()).find((info) => info.id === c.id);
    await this.actions.openText(
      conversationMarkdown(c),
      'markdown',
      exportTitle(c, kept?.renamed ? kept.title : undefined),
    );
  }

  /**
   * The accessible view of the last answer: its text (Markdown as the model wrote it) in a read-only editor, where a
   * screen reader reads and moves through it as any document.
   */
  async lastAnswerText(): Promise<void> {
    const c = await this.current();
    const last = [...c.items].reverse().find((i) => i.kind === 'assistant' && i.text.trim());
    await this.actions.openText(
      last?.kind === 'assistant' ? last.text : 'No answer yet in this chat.',
      'markdown',
      'MinAgent: last answer',
    );
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
    this.promptsListener?.dispose();
    this.listener?.dispose();
    this.runner.endAll('disposed');
    if (this.conversation) void this.save(this.conversation);
    this.views.clear();
  }
}
