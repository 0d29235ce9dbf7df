import type { AskAnswer, AskView } from './asks';
/**
 * The typed messages between the extension host and the chat webview. Both sides import this
 * file; nothing else crosses the boundary. The host waits for `ready` before posting.
 */

export type ToolCardStatus = 'waiting' | 'running' | 'done' | 'error' | 'denied' | 'cancelled';

export interface ToolCard {
  callId: string;
  /** Registry name, e.g. `analytics.echo`. */
  name: string;
  /** What the model used, e.g. `analytics__echo`. */
  wireName: string;
  server?: string;
  /** Pretty-printed JSON arguments. */
  arguments: string;
  /** A search_tools card: what it loaded, one line a tool, by the names the user knows (shown instead of its JSON). */
  found?: string[];
  status: ToolCardStatus;
  progress?: { progress: number; total?: number; message?: string };
  /** The result as the model saw it, possibly cut for the view (`resultChars` says how long it was). */
  result?: string;
  resultChars?: number;
  durationMs?: number;
  startedAt: number;
  /**
   * Why the call ran without asking (e.g. the server declared it read-only), or why it asks although it would not
   * otherwise; shown in the card.
   */
  approval?: string;
  /** Images the tool returned (png, jpeg, gif or webp), shown in the card. */
  images?: Array<{ mimeType: string; data: string }>;
  /** Resource links and embedded resources in the result, shown as links the user can open. */
  resources?: CardResource[];
  /** The title the server gave the tool. */
  title?: string;
  /** The tool's (else its server's) icon, checked: a `data:` URI of an allowed image type. */
  icon?: string;
  /**
   * The tool's MCP App: its `ui://` resource, and once the call is done the result as the server sent it (for the app).
   */
  app?: CardApp;
  /** The server made the call a task (the Tasks extension). */
  task?: CardTask;
}

/** A call that became a task at its server. */
export interface CardTask {
  /** The server's id of the task. */
  id: string;
  /** The tool's own name at its server (to follow the task again after a reload). */
  tool: string;
  /** The user let it run on: the conversation went on, and its outcome comes as a message of its own. */
  background?: boolean;
}

export interface CardApp {
  resourceUri: string;
  /** The call was allowed (asked, or allowed before): only then may its app show while the call runs. */
  allowed?: true;
  /** The model is still writing the call's arguments (`arguments` is the JSON so far). */
  partial?: true;
  /** The server's `CallToolResult`; absent while running, after a failure, or when it was too large to keep. */
  result?: Record<string, unknown>;
  /** What the app last asked the model to know (`ui/update-model-context`): sent with this chat's requests. */
  context?: string;
}

/** What a card's icon may be: a base64 `data:` URI of an allowed image type, and small. */
export const CARD_ICON = /^data:image\/(png|jpeg|gif|webp|svg\+xml);base64,[A-Za-z0-9+/]+={0,2}$/;
export const MAX_CARD_ICON_CHARS = 32 * 1024;

/** A resource a tool result links to or embeds, as its card shows it (all of it server-written text). */
export interface CardResource {
  kind: 'link' | 'embedded';
  server: string;
  uri: string;
  label: string;
  mimeType?: string;
  /** Bytes, as the server states it (a link) or as embedded. */
  size?: number;
  /** An embedded text resource's text, cut to what the view keeps. */
  text?: string;
}

export type TranscriptItem =
  /**
   * `attachments`: the resources sent with the message, as labels; `model`: the picker's name of the model it was sent
   * to.
   */
  | { kind: 'user'; id: string; text: string; attachments?: string[]; model?: string; deferred?: boolean }
  /** `cut`: the model stopped at its output limit; the view offers Continue. */
  | { kind: 'assistant'; id: string; text: string; streaming?: boolean; cut?: boolean }
  | { kind: 'tool'; id: string; card: ToolCard }
  | { kind: 'notice'; id: string; level: 'info' | 'warning' | 'error'; text: string }
  /** A task that ran in the background ended: what it came to (the server's words), told to the model next. */
  | {
      kind: 'taskOutcome';
      id: string;
      /** The card of the call that became the task. */
      card: string;
      name: string;
      server: string;
      status: 'done' | 'error' | 'cancelled';
      text: string;
    }
  /** A server's prompt, expanded: it stands for the user's message (see PromptMessageView). */
  | {
      kind: 'prompt';
      id: string;
      name: string;
      server: string;
      messages: PromptMessageView[];
      model?: string;
      deferred?: boolean;
    };

/** One message of a server's prompt as the chat shows it: plain text, and raster images. */
export interface PromptMessageView {
  role: 'user' | 'assistant';
  text: string;
  images?: Array<{ mimeType: string; data: string }>;
}

/** A prompt the `/` menu offers, by its registry name (`review`, or `server.review` after a clash). */
export interface PromptChoice {
  name: string;
  server: string;
  title?: string;
  description?: string;
  arguments: Array<{ name: string; description?: string; required: boolean }>;
}

export interface ModelChoice {
  id: string;
  label: string;
  detail?: string;
}

/** An example prompt in the chat's welcome: clicking it puts `prompt` in the input (it is never sent by itself). */
export interface ExamplePrompt {
  /** The tool it shows off (registry name) and its server, for the tooltip. */
  tool: string;
  server?: string;
  /** What the click puts in the input: the user's words, for the user to finish ("Use echo to "). */
  prompt: string;
  /** What the tool does, in its server's words (one line, shortened at a word): shown beside the prompt as text. */
  description?: string;
}

/** Everything around the transcript: the model picker and the banner. Sent alone when only it changed. */
export interface ChatMeta {
  models: ModelChoice[];
  selectedModel?: string;
  /** Shown instead of failing when no model is available: how to get one. */
  setupHint?: string;
  /** Shown in an untrusted workspace that sets `minagent.*` values: which ones are ignored. */
  trustNotice?: string;
  /** Shown when entries of the user's model list were skipped: each problem names the entry and field. */
  modelNotice?: string;
  /** The empty chat's example prompts, built from the tools offered. */
  examples?: ExamplePrompt[];
  /** Resources attached to the next message, shown as chips in the input. */
  attachments?: AttachmentChip[];
}

/** A resource attached to the next message: its label, where it is from, and its size in tokens. */
export interface AttachmentChip {
  id: string;
  server: string;
  uri: string;
  label: string;
  tokens: number;
  /** False when the tokens are an estimate. */
  exact: boolean;
}

/** The whole state: sent when a view says `ready` and when the conversation is replaced (New Chat). */
export interface ChatState extends ChatMeta {
  items: TranscriptItem[];
  busy: boolean;
}

/** The parts of a request's cost (tokens) that the core's BudgetBreakdown and the wire's BudgetView share. */
export interface BudgetParts {
  /** Kept free for the answer. */
  reserve: number;
  system: number;
  /** Tool schemas by server (tools without a server under ""), in the order given. */
  tools: Array<{ server: string; tokens: number; count: number }>;
  /** The earlier conversation as it would be sent (after trimming). */
  history: number;
  /** The earlier conversation before trimming. */
  historyFull: number;
  /** The message being typed. */
  message: number;
  total: number;
  /** Why it would not be sent at all, when even trimming cannot make it fit. */
  over?: string;
  /**
   * Tools switched on that the request does not carry (deferred: the model finds them with
   * search_tools), and what they would cost if it did.
   */
  deferred?: { count: number; tokens: number };
}

/**
 * What the next request will cost, by part, against the model's window (tokens): the core's
 * BudgetBreakdown with its window, counter and trim report flattened for the wire.
 */
export type BudgetView = BudgetParts & {
  window: number;
  /** Where the window figure came from, e.g. "the model's limit" or "minagent.chat.contextWindow". */
  windowSource: string;
  /** How tokens were counted, e.g. "o200k_base tokenizer"; `exact` false for an estimate. */
  counter: string;
  exact: boolean;
  /** Set when the history would be trimmed to fit: what would be. */
  trimmed?: string;
};

/**
 * Host to webview. Only `state` carries the whole transcript; a local change is one `append`,
 * `update` (one item) or `textDelta` (text added to a streaming answer), and `meta` changes the
 * picker and banner without touching the transcript.
 */
export type HostMessage =
  | { type: 'state'; state: ChatState }
  | { type: 'meta'; meta: ChatMeta }
  | { type: 'append'; item: TranscriptItem }
  | { type: 'update'; item: TranscriptItem }
  | { type: 'textDelta'; id: string; delta: string }
  /** An item taken out of the transcript (a message that was not sent). */
  | { type: 'remove'; id: string }
  /**
   * The message the user sent was not sent (it alone is over the model's window): it goes back into the input, with
   * why.
   */
  | { type: 'notSent'; text: string; reason: string }
  /** Edit: the last message is taken back into the input to be changed and sent again. */
  /** `undoable`: Edit took a turn back, and the page offers to put it back (`undoEdit`). */
  | { type: 'editDraft'; text: string; undoable?: boolean }
  /**
   * An app's message (`ui/message`): into the input beside what the user typed, never over it (webview/appDraft.ts).
   */
  | { type: 'appSaid'; text: string }
  | { type: 'busy'; busy: boolean }
  /**
   * The startup reveal: the page puts the caret in its input (VS Code's focus can land before the page's frame is in
   * place).
   */
  | { type: 'focusInput' }
  | { type: 'budget'; budget: BudgetView | undefined }
  | { type: 'reply'; requestId: number; error?: string }
  /** Every server's prompts, for the `/` menu: sent when a view is ready and when they change. */
  | { type: 'prompts'; prompts: PromptChoice[] }
  /** The server's completions for a `completePrompt` request (before its `reply`). */
  | { type: 'completions'; requestId: number; values: string[]; error?: string }
  /**
   * A server asks the user (a form, a sampling request): a card until answered; `askDone` replaces it with what became
   * of it.
   */
  | { type: 'ask'; ask: AskView }
  | { type: 'askDone'; id: string; outcome: string }
  /** Where a card's app is served (or why it is not): the page frames it under the card. */
  /** `consent`: the server's first app, asked about in its card (no dialog): what the user is told before choosing. */
  | { type: 'appFrame'; callId: string; url?: string; error?: string; consent?: { server: string; detail: string } }
  /** A JSON-RPC message from the host's side of an app's bridge, for the app's frame. */
  | { type: 'appMessage'; callId: string; message: Record<string, unknown> }
  /** The height an app asked for (already bounded by the host). */
  | { type: 'appSize'; callId: string; height: number }
  /** Where a card's app lives now: in an editor tab of its own, or back in the card (the view asks for it again). */
  /** Where a card's app goes: its editor tab, back in its card, or pinned above the input (picture-in-picture). */
  | { type: 'appPlace'; callId: string; place: 'tab' | 'inline' | 'pip' }
  /** The places a card's app declared it may be shown in (its card's buttons offer those alone). */
  | { type: 'appModes'; callId: string; modes: Array<'inline' | 'fullscreen' | 'pip'> }
  /** A card's app was told it goes (`ui/resource-teardown`) and answered or ran out of time: its frame may go. */
  | { type: 'appGone'; callId: string; why: 'paused' | 'closedByApp' };

/** How the chat looks, for the apps in it (the spec's theme and style variables, from VS Code's theme). */
export interface AppLook {
  theme: 'light' | 'dark';
  variables: Record<string, string>;
  /** The width an app has in the chat, in CSS pixels. */
  width: number;
}

export type ApprovalDecision = 'once' | 'chat' | 'always' | 'deny';

export type WebviewRequest =
  | { type: 'ready' }
  | { type: 'send'; text: string }
  | { type: 'stop' }
  | { type: 'approve'; callId: string; decision: ApprovalDecision }
  | { type: 'newChat' }
  | { type: 'export' }
  | { type: 'selectModel'; id: string }
  | { type: 'openResult'; callId: string }
  /** A card's task: let it run on while the conversation goes on, or stop it (tasks/cancel). */
  | { type: 'task'; callId: string; action: 'background' | 'stop' }
  | { type: 'setupModel' }
  /** Asks the model to go on after an answer that was cut at its output limit. */
  | { type: 'continue' }
  /** Sends the last message again, in place of its answer. */
  | { type: 'retry' }
  /** Takes the last message and its answer back, the message into the input. */
  | { type: 'editLast' }
  /** Puts back the turn Edit took, while nothing was added since. */
  | { type: 'undoEdit' }
  /** The message being typed, so the budget meter can show what sending it would cost. */
  | { type: 'draft'; text: string }
  /** The chat's page got or lost the keyboard focus (the chat's keys apply while it has it). */
  | { type: 'focus'; focused: boolean }
  /**
   * A link in the model's text that is not a web address (a server's resource URI, `library://notes/readme`): open it.
   */
  | { type: 'openLink'; uri: string }
  /** Takes an attached resource back (the chip's x). */
  | { type: 'detach'; id: string }
  /** Opens the `index`th resource of a tool card (the host looks it up: the view names no URI). */
  | { type: 'openResource'; callId: string; index: number }
  /** Completions for one argument of a prompt, with the values typed so far in the others. */
  | { type: 'completePrompt'; prompt: string; argument: string; value: string; context: Record<string, string> }
  /** Gets a prompt with these arguments and sends its messages as the turn's input. */
  | { type: 'runPrompt'; prompt: string; arguments: Record<string, string> }
  /** The user's answer in a server's ask card. */
  | { type: 'answerAsk'; id: string; answer: AskAnswer }
  /** A card with an app is in view: serve its app (the host finds the card; the view names no URI). */
  /** `pip`: the app runs pinned above the input (its display mode says so). */
  | { type: 'appOpen'; callId: string; look: AppLook; pip?: boolean }
  /** A JSON-RPC message an app's frame posted (checked to come from that frame). */
  | { type: 'appMessage'; callId: string; message: Record<string, unknown> }
  /** An app's frame left the page (its card was replaced, or the chat was cleared). */
  | { type: 'appClosed'; callId: string }
  /** An app's frame is to go (paused): the host tells the app first and answers `appGone`. */
  | { type: 'appTeardown'; callId: string }
  /** The call a running app was opened for ended: the host sends it the result, or says it was cancelled. */
  | { type: 'appCallEnded'; callId: string }
  /** The arguments of a call whose app runs changed (the model writes them): the host tells the app. */
  | { type: 'appInput'; callId: string }
  /** The card's button: the app goes to an editor tab beside the chat (the host closes it in the card). */
  | { type: 'appFullscreen'; callId: string }
  /** The user's answer in a card that asks whether its server's apps may show (`show` false: text only). */
  | { type: 'appConsent'; callId: string; show: boolean }
  /** The app was pinned above the input (`pip`) or went back to its card, running on: its display mode changes. */
  | { type: 'appMode'; callId: string; pip: boolean }
  /** The chat's theme changed: its apps get the new look. */
  | { type: 'appLook'; look: AppLook };

/** Every request from the webview carries an id; the host answers each with a `reply`. */
export type WebviewMessage = WebviewRequest & { requestId: number };

/** How much of a tool result the webview gets; the full text opens in an editor. */
export const VIEW_RESULT_CHARS = 20_000;
