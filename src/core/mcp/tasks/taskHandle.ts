import type { CallToolResult } from '@modelcontextprotocol/client';
import { parseTask, TASK_HANDLE_META, type TaskState } from './taskWire';

/** The task a call became (the handle taskTransport put in the result's `_meta`), checked; undefined: no task. */
export function taskHandleOf(result: CallToolResult): TaskState | { invalid: string } | undefined {
  const meta = result._meta as Record<string, unknown> | undefined;
  if (!meta || !(TASK_HANDLE_META in meta)) return undefined;
  return parseTask(meta[TASK_HANDLE_META]);
}

const STATUS_WORDS: Record<TaskState['status'], string> = {
  working: 'running as a task',
  input_required: 'the task waits for your input',
  completed: 'the task completed',
  failed: 'the task failed',
  cancelled: 'the task was cancelled',
};

/** A task's state in the words of a call's progress line: its status, and the server's message (a server's text). */
export function taskProgressText(task: TaskState): string {
  return task.statusMessage ? `${STATUS_WORDS[task.status]}: ${task.statusMessage}` : STATUS_WORDS[task.status];
}

/** Whether a call's progress message is a task's state (taskProgressText). */
export function isTaskProgress(message: string): boolean {
  return Object.values(STATUS_WORDS).some((words) => message === words || message.startsWith(`${words}: `));
}

/** What the model reads of a call the user let run on as a task: it runs, and its outcome comes later. */
export function backgroundNote(taskId: string): string {
  return JSON.stringify({
    task: taskId,
    status: 'running in the background',
    note: 'The user let this call run on as a task. Its outcome will come in a later message of this conversation.',
  });
}
