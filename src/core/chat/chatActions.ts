import type { AppLook, CardResource, ApprovalDecision, ChatMeta, HostMessage, ToolCard } from '../../shared/protocol';
import type { AskAnswer } from '../../shared/asks';
import type { TakenContext } from './attachments';
import type { Conversation } from './conversation/conversation';

/** How the host reaches one chat view. */
export type Post = (message: HostMessage) => void;

/** What the router asks of the editor; each is one user-visible action. */
export interface ChatActions {
  /** The picker and banner as they are now (cached: no I/O). */
  meta(): ChatMeta;
  selectModel(id: string): Promise<void>;
  decide(callId: string, decision: ApprovalDecision): void;
  /** "Allow for this chat" ends with the chat. */
  forgetChatApprovals(): void;
  /** Opens text in a read-only editor whose tab reads `title`. */
  openText(content: string, language: 'markdown' | 'plaintext', title: string): Promise<void>;
  setupModel(): Promise<void>;
  /** The message being typed (the budget meter measures what sending it would cost). */
  draft?(text: string): void;
  /** A chat page got or lost the keyboard focus. */
  focusChanged?(focused: boolean): void;
  /** What the next request costs may have changed: a view opened, a turn ended, the model, tools or chat changed. */
  contextChanged?(): void;
  /** Opens a resource a tool card shows: a link through a fresh read, an embedded one as it was embedded. */
  openResource?(resource: CardResource): Promise<void>;
  /** Opens a resource a link in the model's text names, when a running server lists it; rejects saying why not. */
  openLink?(uri: string): Promise<void>;
  /** Resources attached to the next message: a send takes them all, a chip's x takes one back. */
  attachments?: {
    take(): TakenContext | undefined;
    remove(id: string): void;
    giveBack(taken: TakenContext | undefined): void;
  };
  /** The user answered a server's ask card (a form, a sampling request). */
  answerAsk?(id: string, answer: AskAnswer): void;
  /** A view has its state: it gets what is still waiting for the user beyond the transcript (open ask cards). */
  viewReady?(post: Post): void;
  /** The chat's MCP Apps, per view and card (absent: cards show their text only). */
  apps?: ChatAppsActions;
  /** Tool calls that became tasks: a card's buttons, and following a shown conversation's tasks again. */
  tasks?: {
    act(callId: string, action: 'background' | 'stop'): void;
    resume(conversation: Conversation): void;
  };
}

export interface ChatAppsActions {
  /** `pip`: it runs pinned above the input. */
  open(card: ToolCard, look: AppLook, post: Post, pip?: boolean): Promise<void>;
  message(post: Post, callId: string, message: Record<string, unknown>): void;
  close(post: Post, callId: string): void;
  /** The app is told it goes (`ui/resource-teardown`), then the view is told it may remove the frame (`appGone`). */
  teardown(post: Post, callId: string): Promise<void>;
  /** Every app of every view is told it goes, before the views show another conversation; undefined when none runs. */
  teardownAll(): Promise<void> | undefined;
  /** More of the arguments of a call whose app runs (the model still writes them), or all of them. */
  input(post: Post, card: ToolCard): void;
  /** The call of an app opened while it ran ended: the app gets its result, or is told it was cancelled. */
  callEnded(post: Post, card: ToolCard): void;
  /** The app goes to an editor tab of its own; closing the tab brings it back to its card. */
  fullscreen(post: Post, callId: string): void;
  /**
   * The user's answer in a card that asked whether its server's apps may show: every card of that server waiting on it
   * opens (or shows text).
   */
  consent(post: Post, callId: string, show: boolean): Promise<void>;
  /** The app, still running, was pinned above the input or went back to its card: it is told its display mode. */
  mode(post: Post, callId: string, mode: 'inline' | 'pip'): void;
  look(post: Post, look: AppLook): void;
  viewClosed(post: Post): void;
}
