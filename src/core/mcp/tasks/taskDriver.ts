import type { CallToolResult } from '@modelcontextprotocol/client';
import type { Logger } from '../../base/logger';
import { errorMessage } from '../../toolRegistry/toolRegistry';
import type { TaskRequests } from './taskTransport';
import { parseTask, type TaskState } from './taskWire';

/** How a task ended, for the call that became it. */
export type TaskEnd =
  | { kind: 'completed'; result: CallToolResult }
  | { kind: 'failed'; message: string }
  | { kind: 'cancelled'; message: string };

export interface TaskFollow {
  server: string;
  requests: TaskRequests;
  /** Each request's bound (tasks/get, tasks/update, tasks/cancel). */
  timeoutMs: number;
  /** Stop: the task is cancelled at the server (tasks/cancel, never notifications/cancelled). */
  signal?: AbortSignal;
  /** Every state the task is seen in (its status and message: the card's and the CLI's progress). */
  onState?(task: TaskState): void;
  /** Answers one of its input requests as the same request sent alone would be answered (same cards, same limits). */
  answerInput(request: { method: string; params?: Record<string, unknown> }, signal: AbortSignal): Promise<unknown>;
  log: Logger;
  now?(): number;
}

/** The poll interval a server asks for, within bounds: never a busy loop, never minutes between looks. */
export const POLL_BOUNDS = { minMs: 100, maxMs: 30_000, defaultMs: 1_000 } as const;

/**
 * Follows a task from its handle to its end: polls tasks/get at the server's pollIntervalMs (and listens for its
 * notifications/tasks, which the server may send instead), answers what it asks for (each key once) with tasks/update,
 * and on Stop sends tasks/cancel. A task past its time to live, a tasks/get answer
 * that is not a task, a server that dies: each ends it with what happened. Never rejects.
 */
export async function followTask(handle: TaskState, follow: TaskFollow): Promise<TaskEnd> {
  const notices = new TaskNotices(handle.taskId);
  const listening = follow.requests.listen(handle.taskId, (raw) => notices.heard(raw), follow.timeoutMs);
  try {
    return await followLoop(handle, follow, notices);
  } finally {
    listening.dispose();
  }
}

/**
 * Where the server sends them, its notifications/tasks move the task on between polls (which go on as a backstop):
 * the latest one heard, and the pause it ends.
 */
class TaskNotices {
  private latest: TaskState | undefined;
  private wake: (() => void) | undefined;

  constructor(private readonly taskId: string) {}

  heard(raw: unknown): void {
    const task = parseTask(raw);
    if ('invalid' in task || task.taskId !== this.taskId) return;
    this.latest = task;
    this.wake?.();
  }

  /** Waits `ms`, or until a notification is heard; false when `signal` aborted first. */
  async pause(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
    if (this.latest) return true;
    try {
      return await pause(ms, signal, (wake) => (this.wake = wake));
    } finally {
      this.wake = undefined;
    }
  }

  /** The task as last notified, once. */
  take(): TaskState | undefined {
    const task = this.latest;
    this.latest = undefined;
    return task;
  }
}

async function followLoop(handle: TaskState, follow: TaskFollow, notices: TaskNotices): Promise<TaskEnd> {
  const { server, requests, timeoutMs, signal } = follow;
  const now = follow.now ?? Date.now;
  const began = Date.parse(handle.createdAt ?? '') || now();
  const answered = new Set<string>();
  let task = handle;
  for (;;) {
    follow.onState?.(task);
    if (task.status === 'completed') return { kind: 'completed', result: task.result as CallToolResult };
    if (task.status === 'failed') return { kind: 'failed', message: `the task failed: ${task.error?.message}` };
    if (task.status === 'cancelled')
      return { kind: 'cancelled', message: `cancelled: the server cancelled the task${said(task)}` };
    if (task.status === 'input_required') {
      const given = await giveInput(task, answered, follow);
      if (given) return given;
    }
    // Counted from the task's own creation (a task followed again after a reload learns it from its first tasks/get).
    if (task.ttlMs !== null && now() > (Date.parse(task.createdAt ?? '') || began) + task.ttlMs)
      return {
        kind: 'failed',
        message: `the task did not finish within its time to live (${Math.round(task.ttlMs / 1000)} s); it was given up`,
      };
    if (!(await notices.pause(pollInterval(task), signal))) return cancel(task, follow);
    const notified = notices.take();
    if (notified) {
      task = notified;
      continue;
    }
    let raw: unknown;
    try {
      raw = await requests.request('tasks/get', { taskId: task.taskId }, timeoutMs, signal);
    } catch (err) {
      if (signal?.aborted) return cancel(task, follow);
      return { kind: 'failed', message: `following the task failed: ${errorMessage(err)}` };
    }
    const next = parseTask(raw);
    if ('invalid' in next)
      return {
        kind: 'failed',
        message: `server "${server}" answered tasks/get with something that is not a task: ${next.invalid}`,
      };
    if (next.taskId !== task.taskId)
      return {
        kind: 'failed',
        message: `server "${server}" answered tasks/get with another task than the one asked for`,
      };
    task = next;
  }
}

/**
 * Answers what a task asks for that was not answered before (each key once), and sends the answers with
 * tasks/update; what ended the task instead, if anything did.
 */
async function giveInput(task: TaskState, answered: Set<string>, follow: TaskFollow): Promise<TaskEnd | undefined> {
  const { server, requests, timeoutMs, signal, log } = follow;
  const asked = Object.entries(task.inputRequests ?? {}).filter(([key]) => !answered.has(key));
  if (!asked.length) return undefined;
  const inputResponses: Record<string, unknown> = {};
  for (const [key, request] of asked) {
    answered.add(key);
    try {
      inputResponses[key] = await follow.answerInput(request, signal ?? new AbortController().signal);
    } catch (err) {
      if (signal?.aborted) return cancel(task, follow);
      log.warn(`task ${task.taskId}: its input request "${key}" was refused: ${errorMessage(err)}`);
      await cancel(task, follow);
      return { kind: 'failed', message: `the task asked for what MinAgent does not give: ${errorMessage(err)}` };
    }
  }
  if (signal?.aborted) return cancel(task, follow);
  try {
    await requests.request('tasks/update', { taskId: task.taskId, inputResponses }, timeoutMs);
  } catch (err) {
    return { kind: 'failed', message: `server "${server}" did not take the task's answers: ${errorMessage(err)}` };
  }
  return undefined;
}

function pollInterval(task: TaskState): number {
  const ms = task.pollIntervalMs ?? POLL_BOUNDS.defaultMs;
  return Math.min(POLL_BOUNDS.maxMs, Math.max(POLL_BOUNDS.minMs, ms));
}

function said(task: TaskState): string {
  return task.statusMessage ? ` (${JSON.stringify(task.statusMessage)})` : '';
}

/** Sends tasks/cancel (once, unbounded by the stopped signal) and says the call was cancelled. */
async function cancel(task: TaskState, follow: TaskFollow): Promise<TaskEnd> {
  try {
    await follow.requests.request('tasks/cancel', { taskId: task.taskId }, follow.timeoutMs);
  } catch (err) {
    follow.log.warn(`task ${task.taskId}: tasks/cancel failed: ${errorMessage(err)}`);
  }
  return { kind: 'cancelled', message: 'cancelled' };
}

/** Waits `ms`, or until woken (`onWake` gets the waker); false when `signal` aborted first. */
function pause(ms: number, signal: AbortSignal | undefined, onWake: (wake: () => void) => void): Promise<boolean> {
  if (signal?.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const done = (ok: boolean) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      resolve(ok);
    };
    const onAbort = () => done(false);
    const timer = setTimeout(() => done(true), ms);
    signal?.addEventListener('abort', onAbort, { once: true });
    onWake(() => done(true));
  });
}
