/**
 * What the servers send is handled here, in arrival order across all servers, with at most
 * BUDGET_MS of handling per event-loop iteration. When 30 servers answer at once, libuv hands every
 * ready pipe to one poll phase, and handling all of their messages there (the SDK validates each
 * one) is one long stall of the host; what does not fit in the budget is handled in the next
 * iterations instead. A server's own messages, and its close after them, keep their order.
 */
const BUDGET_MS = 8;

const queue: Array<() => void> = [];
let sliceStart: number | undefined;
let draining = false;

/** Runs `handle` now if this iteration's budget allows and nothing waits before it, else later. */
export function deliver(handle: () => void): void {
  if (!queue.length && withinBudget()) {
    run(handle);
    return;
  }
  queue.push(handle);
  if (!draining) {
    draining = true;
    setImmediate(drain);
  }
}

function withinBudget(): boolean {
  const now = performance.now();
  if (sliceStart === undefined) {
    sliceStart = now;
    // The check phase ends this iteration's slice.
    setImmediate(() => {
      sliceStart = undefined;
    });
  }
  return now - sliceStart < BUDGET_MS;
}

/** Runs in a check phase; queues itself for the next iteration while work is left. */
function drain(): void {
  const start = performance.now();
  while (queue.length && performance.now() - start < BUDGET_MS) run(queue.shift()!);
  if (queue.length) setImmediate(drain);
  else draining = false;
}

function run(handle: () => void): void {
  try {
    handle();
  } catch (err) {
    // As if thrown by the stream handler that delivered it; the rest of the queue still runs.
    queueMicrotask(() => {
      throw err;
    });
  }
}
