import type { ToolResult, ToolStatus } from '../toolRegistry/toolResult';
import { searchCardLines } from '../toolSearch/searchCard';
import { Agent } from '../agent/agent';
import type { AgentEvent, ApprovalRequest, Step } from '../agentTypes/events';
import type { ChatModel } from '../agent/model';
import { errorMessage, type TaskControl, type ToolRegistry } from '../toolRegistry/toolRegistry';
import type { ToolOffer } from '../toolSearch/toolOffer';
import { deferralSwitch, watchedOffer } from './deferralNotice';
import { VIEW_RESULT_CHARS, type ToolCard, type TranscriptItem } from '../../shared/protocol';
import { cardResources } from './cardResources';
import { EarlyCards } from './earlyCards';
import { isCardIcon } from '../../shared/validate';
import { appContextSection } from './appContext';
import { withContext, type TakenContext } from './attachments';
import type { Conversation } from './conversation/conversation';
import type { PromptInput } from './prompts';

/**
 * What starts a turn: the user's message, a server's prompt expanded into messages, or the outcome of a task that ran
 * in the background (its transcript item, and what the model reads of it).
 */
export type TurnInput = string | PromptInput | TaskOutcomeInput;

export interface TaskOutcomeInput {
  taskOutcome: { item: Extract<TranscriptItem, { kind: 'taskOutcome' }>; message: string };
}

/** Raster images only (an SVG could carry script), at most about 1.5 MB each. */
const SHOWN_IMAGE = /^image\/(png|jpeg|gif|webp)$/;
const MAX_IMAGE_CHARS = 2_000_000;
/** The largest result (as JSON) kept for a tool's app, in the card and the stored chat; a larger one shows as text. */
const MAX_APP_RESULT_CHARS = 512 * 1024;

/** What a turn needs from its host; every call is made for this turn only. */
export interface TurnHost {
  registry: ToolRegistry;
  createModel(signal: AbortSignal): Promise<ChatModel>;
  /** The picker's name of the model a turn starting now asks: kept with the message, so a switch mid-chat is marked. */
  modelName?(): string | undefined;
  /** System prompt, step limit and stream idle timeout, read when the turn starts. */
  agentOptions(): { system: string; instructions?: () => string; maxSteps: number; idleTimeoutMs?: number };
  /** The tools the model is offered, request by request (all, or deferred behind search_tools). */
  offer: ToolOffer;
  /**
   * Waits (bounded, until `signal`) for servers still starting, calling `onWaiting` with their names if
   * the wait is long enough to show; resolves with what to tell the user when some were not waited for.
   */
  whenServersReady?(signal: AbortSignal, onWaiting: (starting: string[]) => void): Promise<string | undefined>;
  /** Why a tool the model was not shown may not run (e.g. switched off), for the refusal it reads. */
  whyUnavailable?(name: string): string | undefined;
  /** How a tool's card looks: the title the server gave it and its checked icon (a `data:` URI). */
  look?(name: string, server: string | undefined): { title?: string; icon?: string; app?: { resourceUri: string } };
  /** Why the call may run without asking (shown in its card), or undefined: ask. */
  preapproval(req: ApprovalRequest): string | undefined;
  /** Why a call that would otherwise run unasked asks this time (shown in its card while it waits). */
  askNote?(req: ApprovalRequest): string | undefined;
  /** Asks the user; the request's callId is the card's item id. Resolves false when `signal` aborts. */
  ask(req: ApprovalRequest, signal: AbortSignal): Promise<boolean>;
  /** The chat's tool calls that became tasks (absent: a task is waited for, as the CLI does). */
  tasks?: TurnTasks;
}

/** What a turn tells of its calls that became tasks (ChatTasks). */
export interface TurnTasks {
  started(conversation: Conversation, cardId: string, control: TaskControl): void;
  ended(conversation: Conversation, cardId: string, result: ToolResult): void;
  /** Whether the card's call went to the background (its card stays running until its outcome). */
  inBackground(conversation: Conversation, cardId: string): boolean;
}

/** Why a turn ended before its answer; shown in the transcript. */
export type EndReason = 'stopped' | 'newChat' | 'chatSwitched' | 'modelChanged' | 'viewClosed' | 'disposed';

const END_TEXT: Record<EndReason, string> = {
  stopped: 'Stopped.',
  newChat: 'Stopped: a new chat was started.',
  chatSwitched: 'Stopped: another chat was opened.',
  modelChanged: 'Stopped: the model was changed.',
  viewClosed: 'Stopped: the chat view that started this turn was closed.',
  disposed: 'Stopped.',
};

/**
 * One agent turn in one conversation. It owns its abort signal and its cards, and writes only into
 * the conversation it was started for: a turn that was abandoned (New Chat) can finish, but the
 * conversation that replaced it never sees it.
 */
/** What became of a turn, for the view that started it. */
export interface TurnOutcome {
  /** Nothing reached the model (the message alone is over its window): the message, why, and what was attached. */
  notSent?: { text: string; reason: string; attached?: TakenContext };
}

export class Turn {
  private readonly abort = new AbortController();
  private endReason: EndReason | undefined;
  /** Transcript item id of each tool call, by the agent's call id. */
  private readonly cards = new Map<string, string>();
  private streaming: Extract<TranscriptItem, { kind: 'assistant' }> | undefined;
  /** Cards of calls with an app, shown while the model writes their arguments. */
  private readonly early: EarlyCards;

  constructor(
    readonly conversation: Conversation,
    private readonly host: TurnHost,
    readonly input: TurnInput,
    /** Who started it (a view); closing that view ends the turn. */
    readonly origin: unknown,
    /** Resources attached to the message: the model gets them before the text. */
    private readonly attached?: TakenContext,
  ) {
    this.early = new EarlyCards(conversation, host);
  }

  get signal(): AbortSignal {
    return this.abort.signal;
  }

  get ended(): boolean {
    return this.abort.signal.aborted;
  }

  end(reason: EndReason): void {
    if (this.abort.signal.aborted) return;
    this.endReason = reason;
    this.abort.abort();
  }

  private notice(level: 'info' | 'warning' | 'error', text: string): string {
    const id = this.conversation.newId('n');
    this.conversation.append({ kind: 'notice', id, level, text });
    return id;
  }

  /** Waits for servers still starting; the user sees the wait while it lasts, then what came of it. */
  private async serversReady(): Promise<void> {
    const began = Date.now();
    let waiting: { id: string; names: string } | undefined;
    const without = await this.host.whenServersReady?.(this.signal, (starting) => {
      const names = starting.join(', ');
      waiting = { id: this.notice('info', `Waiting for ${names} to start before sending…`), names };
    });
    if (!waiting) {
      if (without && !this.ended) this.notice('warning', without);
      return;
    }
    const text =
      without ?? `Waited ${Math.max(1, Math.round((Date.now() - began) / 1000))} s for ${waiting.names} to start.`;
    this.conversation.update({ kind: 'notice', id: waiting.id, level: without ? 'warning' : 'info', text });
  }

  private running: Promise<TurnOutcome> | undefined;

  /** Shows the user's message and runs the agent, once. */
  start(): Promise<TurnOutcome> {
    this.running ??= this.run();
    return this.running;
  }

  /** Settles when the turn has written its last change. */
  get finished(): Promise<unknown> {
    return this.running ?? Promise.resolve();
  }

  private async run(): Promise<TurnOutcome> {
    const c = this.conversation;
    const input = this.input;
    const outcome = typeof input === 'object' && 'taskOutcome' in input ? input.taskOutcome : undefined;
    const shownId = outcome ? outcome.item.id : c.newId(typeof input === 'string' ? 'u' : 'p');
    const modelName = this.host.modelName?.();
    const asked = modelName ? { model: modelName } : {};
    const switched = outcome ? undefined : modelSwitch(c.items, modelName);
    const switchId = switched ? this.notice('info', switched) : undefined;
    if (outcome) c.append(outcome.item);
    else if (typeof input === 'string')
      c.append({
        kind: 'user',
        id: shownId,
        text: input,
        ...(this.attached ? { attachments: this.attached.labels } : {}),
        ...asked,
      });
    else if ('prompt' in input)
      c.append({
        kind: 'prompt',
        id: shownId,
        name: input.prompt,
        server: input.server,
        messages: input.shown,
        ...asked,
      });
    let model: ChatModel;
    try {
      model = await this.host.createModel(this.signal);
    } catch (err) {
      this.notice(
        this.ended ? 'info' : 'error',
        this.ended ? END_TEXT[this.endReason ?? 'stopped'] : errorMessage(err),
      );
      return {};
    }
    await this.serversReady();
    if (this.ended) {
      this.notice('info', END_TEXT[this.endReason ?? 'stopped']);
      return {};
    }
    const options = this.host.agentOptions();
    const agent = new Agent(model, this.host.registry, {
      ...options,
      // The servers' instructions, then what this chat's apps asked the model to know (as they say it now).
      instructions: () => [options.instructions?.(), appContextSection(c.items)].filter((t) => !!t).join('\n\n'),
      approve: (req, signal) => this.approve(req, signal),
      // The first request says whether tools are deferred; a switch since the last message is marked in the transcript.
      ...watchedOffer(this.host.offer, (plan) => {
        const item = c.find(shownId);
        if (item?.kind !== 'user' && item?.kind !== 'prompt') return;
        const switched = deferralSwitch(c.items, shownId, plan);
        c.update({ ...item, deferred: plan.deferred });
        if (switched) this.notice('info', switched);
      }),
      ...(this.host.whyUnavailable ? { whyUnavailable: (name: string) => this.host.whyUnavailable?.(name) } : {}),
    });
    try {
      const sent =
        typeof input === 'string'
          ? withContext(input, this.attached)
          : 'taskOutcome' in input
            ? input.taskOutcome.message
            : input.messages;
      const result = await agent.run(sent, {
        signal: this.signal,
        history: c.messages,
        onEvent: (e) => this.onEvent(e),
      });
      if (result.notSent !== undefined && typeof input === 'string') {
        // Not a turn of the conversation: the message leaves the transcript and goes back to the input, the history
        // stays as it was.
        c.remove(shownId);
        if (switchId) c.remove(switchId);
        return {
          notSent: {
            text: input,
            reason: `Not sent: ${result.notSent}. Your message is back in the input.`,
            ...(this.attached ? { attached: this.attached } : {}),
          },
        };
      }
      if (result.notSent !== undefined) this.notice('error', `Not sent: ${result.notSent}.`);
      c.messages = result.messages;
    } catch (err) {
      this.notice('error', `unexpected error: ${errorMessage(err)}`);
    } finally {
      this.endStreaming();
      for (const id of [...this.cards.values(), ...this.early.leftovers()]) {
        const item = c.find(id);
        // A call the user let run on in the background is not this turn's to end.
        if (item?.kind === 'tool' && item.card.task?.background) continue;
        if (item?.kind === 'tool' && (item.card.status === 'running' || item.card.status === 'waiting'))
          c.update({ ...item, card: { ...item.card, status: 'cancelled' } });
      }
    }
    return {};
  }

  private onEvent(e: AgentEvent): void {
    const c = this.conversation;
    switch (e.type) {
      case 'text':
        if (!this.streaming) {
          this.streaming = { kind: 'assistant', id: c.newId('a'), text: '', streaming: true };
          c.append(this.streaming);
        }
        c.appendText(this.streaming.id, e.delta);
        break;
      case 'notice':
        this.notice('warning', e.message);
        break;
      case 'cut': {
        // The answer (or an empty one, when only a cut tool call came) offers Continue.
        const item = this.streaming ? c.find(this.streaming.id) : undefined;
        this.streaming = undefined;
        if (item?.kind === 'assistant') c.update({ ...item, streaming: false, cut: true });
        else c.append({ kind: 'assistant', id: c.newId('a'), text: '', cut: true });
        break;
      }
      case 'tool_input':
        this.early.input(e);
        break;
      case 'tool_start':
        this.endStreaming();
        this.startCard(e);
        break;
      case 'tool_task': {
        const id = this.cards.get(e.callId);
        if (id) this.host.tasks?.started(c, id, e.task);
        break;
      }
      case 'tool_task_end': {
        const id = this.cards.get(e.callId);
        if (id) this.host.tasks?.ended(c, id, e.result);
        break;
      }
      case 'tool_progress':
        this.updateCard(this.cards.get(e.callId), (card) => ({
          ...card,
          progress: {
            progress: e.progress,
            ...(e.total !== undefined ? { total: e.total } : {}),
            ...(e.message !== undefined ? { message: e.message } : {}),
          },
        }));
        break;
      case 'step':
        if (e.step.kind === 'tool_call' && e.step.tool) this.finishCard(e.step.tool);
        if (e.step.kind === 'error') {
          const stopped = e.step.detail === 'cancelled';
          this.notice(stopped ? 'info' : 'error', stopped ? END_TEXT[this.endReason ?? 'stopped'] : e.step.detail);
        }
        break;
    }
  }

  private async approve(req: ApprovalRequest, signal?: AbortSignal): Promise<boolean> {
    const id = this.cards.get(req.callId);
    const preapproved = this.host.preapproval(req);
    if (preapproved !== undefined) {
      this.updateCard(id, (card) => ({ ...allowedApp(card), approval: preapproved }));
      return true;
    }
    // What the call will do, where its arguments alone do not say it (load_skill: the skill, its files and digest).
    const args = req.arguments && typeof req.arguments === 'object' ? (req.arguments as Record<string, unknown>) : {};
    const what = this.host.registry.get(req.name)?.describeCall?.(args);
    const note = [what, this.host.askNote?.(req)].filter((n) => !!n).join(' ');
    this.updateCard(id, (card) => ({ ...card, status: 'waiting', ...(note ? { approval: note } : {}) }));
    // The webview answers with the card's id.
    const allowed = await this.host.ask({ ...req, callId: id ?? req.callId }, signal ?? this.signal);
    this.updateCard(id, (card) =>
      allowed ? { ...allowedApp(card), status: 'running' } : { ...card, status: this.ended ? 'cancelled' : 'denied' },
    );
    return allowed;
  }

  private startCard(e: Extract<AgentEvent, { type: 'tool_start' }>): void {
    const arguments_ = typeof e.arguments === 'string' ? e.arguments : (JSON.stringify(e.arguments, null, 2) ?? '{}');
    // Its card came while the model wrote it: the call takes it over, its arguments now whole.
    const early = this.early.adopt(e.wireName);
    if (early) {
      this.cards.set(e.callId, early);
      return this.updateCard(early, (card) => {
        const { partial: _partial, ...app } = card.app ?? { resourceUri: '' };
        return {
          ...card,
          arguments: arguments_,
          ...(card.app ? { app } : {}),
          ...(e.server ? { server: e.server } : {}),
        };
      });
    }
    const id = this.conversation.newId('t');
    this.cards.set(e.callId, id);
    const look = this.host.look?.(e.name, e.server) ?? {};
    const card: ToolCard = {
      callId: id,
      name: e.name,
      ...(look.title ? { title: look.title.slice(0, 200) } : {}),
      ...(look.icon && isCardIcon(look.icon) ? { icon: look.icon } : {}),
      ...(look.app ? { app: { resourceUri: look.app.resourceUri } } : {}),
      wireName: e.wireName,
      ...(e.server ? { server: e.server } : {}),
      arguments: arguments_,
      status: 'running',
      startedAt: Date.now(),
    };
    this.conversation.append({ kind: 'tool', id, card });
  }

  private finishCard(tool: NonNullable<Step['tool']>): void {
    const id = this.cards.get(tool.callId);
    if (!id) return;
    // It runs on in the background: its card stays running until its outcome comes (ChatTasks.ended).
    if (this.host.tasks?.inBackground(this.conversation, id)) return;
    this.conversation.setFullResult(id, tool.result);
    const status = CARD_STATUS[tool.status];
    const shown = tool.result.length > VIEW_RESULT_CHARS ? tool.result.slice(0, VIEW_RESULT_CHARS) : tool.result;
    this.updateCard(id, (c) => {
      const { progress: _progress, ...rest } = c;
      const images = tool.images
        .filter((i) => SHOWN_IMAGE.test(i.mimeType) && i.data.length <= MAX_IMAGE_CHARS)
        .slice(0, 4);
      const resources = cardResources(tool.resources);
      const app =
        rest.app && status === 'done' && tool.appResult && JSON.stringify(tool.appResult).length <= MAX_APP_RESULT_CHARS
          ? { ...rest.app, result: tool.appResult }
          : rest.app;
      const found = searchCardLines(tool, (wire) => this.host.registry.resolve(wire));
      return {
        ...rest,
        status,
        result: shown,
        resultChars: tool.result.length,
        ...(found ? { found } : {}),
        durationMs: tool.durationMs,
        ...(images.length ? { images } : {}),
        ...(resources.length ? { resources } : {}),
        ...(app ? { app } : {}),
      };
    });
  }

  private updateCard(id: string | undefined, fn: (c: ToolCard) => ToolCard): void {
    const item = id === undefined ? undefined : this.conversation.find(id);
    if (item?.kind === 'tool') this.conversation.update({ ...item, card: fn(item.card) });
  }

  private endStreaming(): void {
    const item = this.streaming && this.conversation.find(this.streaming.id);
    this.streaming = undefined;
    if (item?.kind === 'assistant' && item.streaming) this.conversation.update({ ...item, streaming: false });
  }
}

/** A card whose call was allowed: its app (if it has one) may show while the call runs. */
function allowedApp(card: ToolCard): ToolCard {
  return card.app ? { ...card, app: { ...card.app, allowed: true } } : card;
}

/** A card's status for how its call ended (a timeout is an error the card's text explains). */
const CARD_STATUS: Record<ToolStatus, ToolCard['status']> = {
  ok: 'done',
  error: 'error',
  timeout: 'error',
  cancelled: 'cancelled',
  denied: 'denied',
};

/**
 * What marks a model switch before a message sent to `now`: the model the conversation's last message
 * was sent to, when it was another. Nothing for a chat's first message, or one kept before models were recorded.
 */
export function modelSwitch(items: readonly TranscriptItem[], now: string | undefined): string | undefined {
  if (now === undefined) return undefined;
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i]!;
    if ((item.kind !== 'user' && item.kind !== 'prompt') || item.model === undefined) continue;
    return item.model === now
      ? undefined
      : `Model changed: this message and what follows go to ${now} (before: ${item.model}).`;
  }
  return undefined;
}
