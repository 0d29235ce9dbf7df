import type { Client, JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import { layerIncoming } from '../../base/accessors';
import { isObject, TASK_HANDLE_META } from './taskWire';

/** Where an acknowledgement names the listen it answers. */
const SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';

/** Sends one of the extension's requests (tasks/get, tasks/update, tasks/cancel) and resolves with its result. */
export interface TaskRequests {
  /**
   * Listens for a task's notifications/tasks (subscriptions/listen with its id): resolves with whether the server
   * agreed (its acknowledgement names the task); `onTask` gets each notification's task, unparsed. Dispose ends it.
   */
  listen(
    taskId: string,
    onTask: (raw: unknown) => void,
    timeoutMs: number,
  ): { agreed: Promise<boolean>; dispose(): void };
  request(
    method: string,
    params: Record<string, unknown>,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<Record<string, unknown>>;
}

/** A request of the extension that failed: the server's JSON-RPC error, or the connection's end. */
export class TaskRequestError extends Error {
  constructor(
    message: string,
    readonly code?: number,
  ) {
    super(message);
  }
}

const channels = new WeakMap<Client, TaskRequests>();

/** The task requests of a connected client (undefined for a client whose transport was not made for tasks). */
export function taskRequestsOf(client: Client): TaskRequests | undefined {
  return channels.get(client);
}

type Pending = { resolve(result: Record<string, unknown>): void; reject(err: Error): void };

/**
 * Two things the SDK cannot do for the Tasks extension, on the transport it speaks through:
 * - a tools/call answered with a task handle (resultType "task") reaches the SDK as a result it accepts, with the
 *   handle under TASK_HANDLE_META in its `_meta` (the SDK would reject the result type and the task would be lost);
 *   that key is taken out of every other result, so a server cannot forge a handle;
 * - tasks/get, tasks/update and tasks/cancel, which the SDK refuses to send to a 2026-07-28 server (they are 2025
 *   methods to it), go out here with ids of their own and the request's `_meta` envelope, and their answers never
 *   reach the SDK.
 * Made above the redaction, so what the server says here is redacted like everything else.
 */
export function taskTransport(client: Client, transport: Transport): Transport {
  const calls = new Set<string | number>();
  const pending = new Map<string, Pending>();
  let next = 0;
  let handler: Transport['onmessage'];
  const receive = (message: JSONRPCMessage, extra?: Parameters<NonNullable<Transport['onmessage']>>[1]) => {
    const m = message as { id?: string | number; method?: string; params?: unknown; result?: unknown; error?: unknown };
    if (m.method !== undefined && m.id === undefined && taskNotice(m.method, m.params)) return;
    if (m.method === undefined && m.id !== undefined) {
      const raw = typeof m.id === 'string' ? pending.get(m.id) : undefined;
      if (raw) {
        pending.delete(m.id as string);
        if (isObject(m.result)) raw.resolve(m.result);
        else {
          const error = isObject(m.error) ? m.error : {};
          raw.reject(
            new TaskRequestError(
              typeof error.message === 'string'
                ? error.message
                : 'the server answered with neither a result nor an error',
              typeof error.code === 'number' ? error.code : undefined,
            ),
          );
        }
        return;
      }
      if (calls.delete(m.id) && isObject(m.result)) message = asAcceptedResult(message, m.result);
      else if (isObject(m.result)) stripHandle(m.result);
    }
    handler?.(message, extra);
  };
  layerIncoming(transport, (above) => {
    handler = above;
    return receive;
  });
  /** Listens by their request id: the acknowledgement's waiter and the task's notifications. */
  const listens = new Map<string, { taskId: string; acked(agreed: boolean): void; onTask(raw: unknown): void }>();
  /** Consumes an acknowledgement of one of these listens, and notifications/tasks of a listened task. */
  const taskNotice = (method: string, params: unknown): boolean => {
    if (!isObject(params)) return false;
    if (method === 'notifications/subscriptions/acknowledged') {
      const id = isObject(params._meta) ? params._meta[SUBSCRIPTION_ID] : undefined;
      const listen = typeof id === 'string' ? listens.get(id) : undefined;
      if (!listen) return false;
      const honored = isObject(params.notifications) ? params.notifications.taskIds : undefined;
      listen.acked(Array.isArray(honored) && honored.includes(listen.taskId));
      return true;
    }
    if (method !== 'notifications/tasks') return false;
    for (const listen of listens.values()) if (listen.taskId === params.taskId) listen.onTask(params);
    return true;
  };
  const closeAll = (why: string) => {
    for (const p of pending.values()) p.reject(new TaskRequestError(why));
    pending.clear();
  };
  // The connection's end fails the extension's requests at once (a server that died is not waited out).
  const withClose = (h: Transport['onclose']): Transport['onclose'] =>
    h
      ? () => {
          closeAll('the connection closed');
          h();
        }
      : undefined;
  let closeHandler = withClose(transport.onclose);
  if (!Object.getOwnPropertyDescriptor(transport, 'onclose')?.get)
    Object.defineProperty(transport, 'onclose', {
      configurable: true,
      enumerable: true,
      get: () => closeHandler,
      set: (h: Transport['onclose']) => {
        closeHandler = withClose(h);
      },
    });
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    const m = message as { id?: string | number; method?: string };
    if (m.method === 'tools/call' && m.id !== undefined) calls.add(m.id);
    return send(message, options);
  };
  const envelope = () =>
    (client as unknown as { _outboundMetaEnvelope?(): Record<string, unknown> | undefined })._outboundMetaEnvelope?.();
  channels.set(client, {
    listen: (taskId, onTask, timeoutMs) => {
      const id = `minagent-task-${next++}`;
      const stream = new AbortController();
      let acked: (agreed: boolean) => void = () => undefined;
      const agreed = new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), timeoutMs);
        acked = (ok) => {
          clearTimeout(timer);
          resolve(ok);
        };
      });
      listens.set(id, { taskId, acked: (ok) => acked(ok), onTask });
      // Its answer (the server closing it, or refusing it) is consumed like any request of the extension's.
      pending.set(id, { resolve: () => acked(false), reject: () => acked(false) });
      const meta = envelope();
      const body = {
        jsonrpc: '2.0' as const,
        id,
        method: 'subscriptions/listen',
        params: { notifications: { taskIds: [taskId] }, ...(meta ? { _meta: meta } : {}) },
      };
      send(body, { requestSignal: stream.signal }).catch(() => acked(false));
      return {
        agreed,
        dispose: () => {
          if (!listens.delete(id)) return;
          pending.delete(id);
          acked(false);
          stream.abort();
          send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id } }).catch(() => undefined);
        },
      };
    },
    request: (method, params, timeoutMs, signal) =>
      new Promise((resolve, reject) => {
        if (signal?.aborted) return reject(new TaskRequestError('cancelled'));
        const id = `minagent-task-${next++}`;
        const meta = envelope();
        let onAbort: (() => void) | undefined;
        const timer = setTimeout(
          () => settle(() => reject(new TaskRequestError(`${method} timed out after ${timeoutMs} ms`))),
          timeoutMs,
        );
        const settle = (then: () => void) => {
          clearTimeout(timer);
          if (onAbort) signal?.removeEventListener('abort', onAbort);
          pending.delete(id);
          then();
        };
        pending.set(id, {
          resolve: (result) => settle(() => resolve(result)),
          reject: (err) => settle(() => reject(err)),
        });
        if (signal)
          signal.addEventListener('abort', (onAbort = () => settle(() => reject(new TaskRequestError('cancelled')))));
        const body = {
          jsonrpc: '2.0' as const,
          id,
          method,
          params: { ...params, ...(meta ? { _meta: meta } : {}) },
        };
        send(body).catch((err: unknown) =>
          settle(() => reject(new TaskRequestError(err instanceof Error ? err.message : String(err)))),
        );
      }),
  });
  return transport;
}

/** A task handle as a result the SDK accepts: no content, the handle in `_meta`. */
function asAcceptedResult(message: JSONRPCMessage, result: Record<string, unknown>): JSONRPCMessage {
  if (result.resultType !== 'task') {
    stripHandle(result);
    return message;
  }
  const { resultType: _, _meta, ...task } = result;
  return {
    ...(message as object),
    result: {
      resultType: 'complete',
      content: [],
      _meta: { ...(isObject(_meta) ? _meta : {}), [TASK_HANDLE_META]: task },
    },
  } as unknown as JSONRPCMessage;
}

function stripHandle(result: Record<string, unknown>): void {
  if (isObject(result._meta) && TASK_HANDLE_META in result._meta) delete result._meta[TASK_HANDLE_META];
}
