// The Tasks extension's wire (io.modelcontextprotocol/tasks, written for 2026-07-28): a server may answer a tools/call
// with a task handle (resultType "task"), polled with tasks/get, given input with tasks/update, stopped with
// tasks/cancel. What a server sends here is checked before anything reads it.

export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** Where a call's result carries the task handle the transport took out of the server's answer (taskTransport.ts). */
export const TASK_HANDLE_META = 'minagent/taskHandle';

export type TaskStatus = 'working' | 'input_required' | 'completed' | 'cancelled' | 'failed';

/** A task as tasks/get (or the handle) describes it, checked. */
export interface TaskState {
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  createdAt?: string;
  /** Time to live from creation; null: unlimited. */
  ttlMs: number | null;
  pollIntervalMs?: number;
  /** input_required: the server's requests, by key. */
  inputRequests?: Record<string, { method: string; params?: Record<string, unknown> }>;
  /** completed: the tool's result. */
  result?: Record<string, unknown>;
  /** failed: the JSON-RPC error. */
  error?: { code?: number; message: string };
}

const STATUSES: readonly TaskStatus[] = ['working', 'input_required', 'completed', 'cancelled', 'failed'];
const MAX_ID = 256;
const MAX_MESSAGE = 1_000;

/** A JSON object (not an array, not null). */
export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The task a server described, or what is wrong with it (in words that name no server text). */
export function parseTask(raw: unknown): TaskState | { invalid: string } {
  if (!isObject(raw)) return { invalid: 'it is not an object' };
  const { taskId, status } = raw;
  if (typeof taskId !== 'string' || !taskId || taskId.length > MAX_ID) return { invalid: 'it has no valid taskId' };
  if (typeof status !== 'string' || !STATUSES.includes(status as TaskStatus))
    return { invalid: 'its status is not one of working, input_required, completed, cancelled, failed' };
  const task: TaskState = { taskId, status: status as TaskStatus, ttlMs: null };
  if (typeof raw.statusMessage === 'string') task.statusMessage = raw.statusMessage.slice(0, MAX_MESSAGE);
  if (typeof raw.createdAt === 'string') task.createdAt = raw.createdAt;
  if (typeof raw.ttlMs === 'number' && Number.isFinite(raw.ttlMs) && raw.ttlMs >= 0) task.ttlMs = raw.ttlMs;
  if (typeof raw.pollIntervalMs === 'number' && Number.isFinite(raw.pollIntervalMs))
    task.pollIntervalMs = raw.pollIntervalMs;
  if (task.status === 'input_required') {
    if (!isObject(raw.inputRequests)) return { invalid: 'it needs input but names no inputRequests' };
    const requests: NonNullable<TaskState['inputRequests']> = {};
    for (const [key, value] of Object.entries(raw.inputRequests)) {
      if (!isObject(value) || typeof value.method !== 'string')
        return { invalid: 'one of its inputRequests is not a request' };
      requests[key] = { method: value.method, ...(isObject(value.params) ? { params: value.params } : {}) };
    }
    task.inputRequests = requests;
  }
  if (task.status === 'completed') {
    if (!isObject(raw.result)) return { invalid: 'it completed without a result' };
    task.result = raw.result;
  }
  if (task.status === 'failed') {
    const error = isObject(raw.error) ? raw.error : {};
    task.error = {
      ...(typeof error.code === 'number' ? { code: error.code } : {}),
      message:
        typeof error.message === 'string'
          ? error.message.slice(0, MAX_MESSAGE)
          : (task.statusMessage ?? 'the task failed'),
    };
  }
  return task;
}
