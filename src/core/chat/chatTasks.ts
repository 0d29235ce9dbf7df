// Tool calls that became tasks (the Tasks extension), as the chat keeps them: a card's Run in Background and Stop Task,
// a task that runs on while the conversation goes on, its outcome as a message of its own that the model is asked to
// answer, and a task followed again after the window reloaded (its id is kept in its card).
import type { Disposable } from '../base/event';
import { framed } from '../base/framedText';
import type { TaskControl, ToolCallOptions, ToolProgress } from '../toolRegistry/toolRegistry';
import type { ToolResult } from '../toolRegistry/toolResult';
import { VIEW_RESULT_CHARS, type ToolCard, type TranscriptItem } from '../../shared/protocol';
import type { Conversation } from './conversation/conversation';
import type { TurnInput, TurnOutcome, TurnTasks } from './turn';

/** What the chat's tasks need of their host. */
export interface ChatTasksHost {
  /** Follows a task again by its id (ServerHub.resumeTask). */
  resume(server: string, tool: string, taskId: string, options: ToolCallOptions): Promise<ToolResult>;
  /** Starts a turn in the conversation, or throws while one runs there. */
  start(conversation: Conversation, input: TurnInput): Promise<TurnOutcome>;
  busy(conversation: Conversation): boolean;
  /** Fires when a conversation's turn starts or ends. */
  onDidChangeBusy(listener: (e: { conversation: Conversation; busy: boolean }) => void): Disposable;
  /** Keeps the conversation (its cards changed, or an outcome arrived). */
  save(conversation: Conversation): Promise<void>;
}

type Outcome = Extract<TranscriptItem, { kind: 'taskOutcome' }>;

const STATUS: Record<ToolResult['status'], Outcome['status']> = {
  ok: 'done',
  error: 'error',
  timeout: 'error',
  denied: 'error',
  cancelled: 'cancelled',
};

export class ChatTasks implements TurnTasks, Disposable {
  /** The tasks running now, by card. */
  private readonly live = new Map<string, { conversation: Conversation; control: TaskControl }>();
  /** Outcomes waiting for their conversation's turn to end, to be told to the model. */
  private readonly queued = new Map<Conversation, Outcome[]>();
  private readonly busyListener: Disposable;
  /** The window is closing: what its connections' end does to the tasks is not theirs (they are followed again). */
  private suspended = false;

  constructor(private readonly host: ChatTasksHost) {
    this.busyListener = host.onDidChangeBusy(({ conversation, busy }) => {
      if (!busy) this.tellNext(conversation);
    });
  }

  /** A call in this card became a task: the card says so and offers Run in Background and Stop Task. */
  started(conversation: Conversation, cardId: string, control: TaskControl): void {
    this.live.set(cardId, { conversation, control });
    updateCard(conversation, cardId, (card) => ({
      ...card,
      task: { id: control.id, tool: control.tool, ...(card.task?.background ? { background: true } : {}) },
    }));
  }

  /** A card's button. */
  act(cardId: string, action: 'background' | 'stop'): void {
    const running = this.live.get(cardId);
    if (!running) throw new Error('that task is not running any more');
    if (action === 'stop') return running.control.stop();
    updateCard(running.conversation, cardId, (card) =>
      card.task ? { ...card, task: { ...card.task, background: true } } : card,
    );
    running.control.background();
    void this.host.save(running.conversation);
  }

  /** Whether the card's call went to the background (its result so far says so; the outcome comes later). */
  inBackground(conversation: Conversation, cardId: string): boolean {
    const item = conversation.find(cardId);
    return item?.kind === 'tool' && !!item.card.task?.background;
  }

  /** A task in the background moved on (its status message). */
  progressed(conversation: Conversation, cardId: string, p: ToolProgress): void {
    updateCard(conversation, cardId, (card) => (card.status === 'running' ? { ...card, progress: p } : card));
  }

  /** A task ended. In the background: its card shows the outcome, and the model is told it in a turn of its own. */
  ended(conversation: Conversation, cardId: string, result: ToolResult): void {
    if (this.suspended) return;
    this.live.delete(cardId);
    const item = conversation.find(cardId);
    if (item?.kind !== 'tool' || !item.card.task?.background) return;
    conversation.setFullResult(cardId, result.text);
    const shown = result.text.length > VIEW_RESULT_CHARS ? result.text.slice(0, VIEW_RESULT_CHARS) : result.text;
    const { progress: _, ...card } = item.card;
    const status = STATUS[result.status];
    conversation.update({
      ...item,
      card: {
        ...card,
        status,
        result: shown,
        resultChars: result.text.length,
        durationMs: Date.now() - card.startedAt,
      },
    });
    const outcome: Outcome = {
      kind: 'taskOutcome',
      id: conversation.newId('k'),
      card: cardId,
      name: card.name,
      server: card.server ?? '',
      status,
      text: shown,
    };
    this.queued.set(conversation, [...(this.queued.get(conversation) ?? []), outcome]);
    this.tellNext(conversation);
    void this.host.save(conversation);
  }

  /**
   * Follows again the tasks of a conversation that were running in the background when it was last kept (a window
   * reload): each ends by its outcome or its time to live, as before.
   */
  resume(conversation: Conversation): void {
    for (const item of conversation.items) {
      if (item.kind !== 'tool' || item.card.status !== 'running' || !item.card.task?.background) continue;
      const { callId, server, task } = item.card;
      if (this.live.has(callId) || !server) continue;
      void this.host
        .resume(server, task.tool, task.id, {
          onTask: (control) => this.live.set(callId, { conversation, control }),
          onProgress: (p) => this.progressed(conversation, callId, p),
        })
        .then((result) => this.ended(conversation, callId, result));
    }
  }

  /** Tells the model the next outcome waiting, when no turn runs in its conversation. */
  private tellNext(conversation: Conversation): void {
    const waiting = this.queued.get(conversation);
    if (!waiting?.length || this.host.busy(conversation)) return;
    const outcome = waiting.shift()!;
    if (!waiting.length) this.queued.delete(conversation);
    void this.host
      .start(conversation, { taskOutcome: { item: outcome, message: outcomeMessage(outcome) } })
      .then(() => this.host.save(conversation));
  }

  /** The window closes: the tasks are left as kept, running, for the next window to follow again. */
  suspend(): void {
    this.suspended = true;
  }

  dispose(): void {
    this.suspended = true;
    this.busyListener.dispose();
    this.live.clear();
    this.queued.clear();
  }
}

/**
 * What the model reads of a task's outcome: one line of MinAgent's, then the server's words inside an element that
 * names whose they are (escaped: nothing inside can close it or speak as MinAgent).
 */
export function outcomeMessage(o: Outcome): string {
  const how = o.status === 'done' ? 'completed' : o.status === 'cancelled' ? 'was cancelled' : 'failed';
  return [
    `A tool call that ran on in the background as a task has ended: it ${how}. Its outcome, in the server's words:`,
    framed('task-outcome', { server: o.server, tool: o.name, status: o.status }, o.text),
  ].join('\n');
}

function updateCard(conversation: Conversation, cardId: string, fn: (c: ToolCard) => ToolCard): void {
  const item = conversation.find(cardId);
  if (item?.kind === 'tool') conversation.update({ ...item, card: fn(item.card) });
}
