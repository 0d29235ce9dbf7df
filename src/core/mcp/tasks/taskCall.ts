import type { CallToolResult, Client } from '@modelcontextprotocol/client';
import type { Logger } from '../../base/logger';
import type { ToolCallOptions } from '../../toolRegistry/toolRegistry';
import { failed, succeeded, type ToolResult } from '../../toolRegistry/toolResult';
import { followTask } from './taskDriver';
import { backgroundNote, taskProgressText } from './taskHandle';
import { taskRequestsOf } from './taskTransport';
import type { TaskState } from './taskWire';

/** What a call that became a task needs of its server's session. */
export interface TaskSession {
  server: string;
  client: Client;
  /** Each of the extension's requests' bound. */
  timeoutMs: number;
  /** Answers one input request of the task (the host's ClientRequests.answerInput). */
  answerInput?(
    client: Client,
    request: { method: string; params?: Record<string, unknown> },
    signal: AbortSignal,
  ): Promise<unknown>;
  log: Logger;
  /** A completed task's result as the registry returns it (presented and checked, as a plain call's). */
  present(remoteName: string, result: CallToolResult, options: ToolCallOptions): Promise<ToolResult>;
}

/**
 * A call that became a task, followed to its end: each state reaches the call's progress (its card, the CLI's line),
 * its input requests go to the same cards as the server's own requests, and Stop cancels it at the server. The caller
 * may let it run in the background (onTask): the call then returns at once, saying so, and the outcome goes to
 * onTaskEnd. Never rejects.
 */
export async function runTask(
  session: TaskSession,
  remoteName: string,
  handle: TaskState | { invalid: string },
  options: ToolCallOptions,
): Promise<ToolResult> {
  if ('invalid' in handle)
    return failed(`server "${session.server}" answered with a task handle that is not a task: ${handle.invalid}`);
  const own = new AbortController();
  let toBackground: (() => void) | undefined;
  const wentToBackground = new Promise<'background'>((resolve) => (toBackground = () => resolve('background')));
  let detached = false;
  // While the call waits for it, the call's Stop stops the task; once in the background, only the task's own does.
  const onCallStop = () => {
    if (!detached) own.abort();
  };
  if (options.signal?.aborted) own.abort();
  options.signal?.addEventListener('abort', onCallStop, { once: true });
  const outcome = followToEnd(session, remoteName, handle, own.signal, options);
  options.onTask?.({
    id: handle.taskId,
    tool: remoteName,
    background: () => toBackground?.(),
    stop: () => own.abort(),
  });
  const first = await Promise.race([outcome, wentToBackground]);
  options.signal?.removeEventListener('abort', onCallStop);
  if (first !== 'background') return first;
  detached = true;
  void outcome.then((result) => options.onTaskEnd?.(result));
  session.log.info(`task ${handle.taskId} of tool "${remoteName}" runs on in the background`);
  return succeeded(backgroundNote(handle.taskId));
}

/** Follows a task again by its id (it ran in the background when the window reloaded): to its end. Never rejects. */
export function resumeTask(
  session: TaskSession,
  remoteName: string,
  taskId: string,
  options: ToolCallOptions,
): Promise<ToolResult> {
  const own = new AbortController();
  options.onTask?.({ id: taskId, tool: remoteName, background: () => undefined, stop: () => own.abort() });
  return followToEnd(session, remoteName, { taskId, status: 'working', ttlMs: null }, own.signal, options);
}

async function followToEnd(
  session: TaskSession,
  remoteName: string,
  handle: TaskState,
  signal: AbortSignal,
  options: ToolCallOptions,
): Promise<ToolResult> {
  const { client } = session;
  const requests = taskRequestsOf(client);
  if (!requests) return failed('the call became a task, which this connection cannot follow');
  let looks = 0;
  const end = await followTask(handle, {
    server: session.server,
    requests,
    timeoutMs: session.timeoutMs,
    signal,
    onState: (task) => options.onProgress?.({ progress: ++looks, message: taskProgressText(task) }),
    answerInput: (request, answerSignal) =>
      session.answerInput
        ? session.answerInput(client, request, answerSignal)
        : Promise.reject(new Error('this host answers no requests of servers')),
    log: session.log,
  });
  if (end.kind === 'failed') return failed(end.message);
  if (end.kind === 'cancelled') return failed(end.message, 'cancelled');
  return session.present(remoteName, end.result, options);
}
