/**
 * The host's traffic with its servers, handled a slice at a time: what the servers send, in arrival
 * order across all servers, and the requests the host sends (see `sendTurn`), with at most BUDGET_MS
 * of work per event-loop iteration.
 *
 * When 30 servers answer at once, libuv hands every ready pipe to one poll phase; when a model asks
 * for 100 calls at once, they are all made in one tick. Doing all of that in one go (the SDK
 * validates and serializes each message, the callers format each result) is one long stall of the
 * host; what does not fit in the budget is done in the next iterations instead. A server's own
 * messages, and its close after them, keep their order.
 *
 * Queued work runs one item per immediate, all queued together for one check phase: Node runs the
 * microtasks after each immediate, so the continuation of an item (the promise chain it resolves)
 * is part of the time the next item measures. An item that finds the slice spent starts the next
 * slice, in the next iteration.
 */
const BUDGET_MS = 8;
/** Immediates queued at a time; a slice rarely fits more items than this. */
const STEPS_PER_SLICE = 64;

const queue: Array<() => void> = [];
/** Which slice the queued steps belong to; steps of an older slice do nothing. */
let slice = 0;
let sliceBegan: number | undefined;
let stepsQueued = 0;

/** When this iteration's inline handling began (the fast path of deliver). */
let inlineBegan: number | undefined;
/** Set while the microtasks of an inline handle have not run yet (its cost is not known). */
let inlineTaken = false;

/**
 * Runs `handle` now if this iteration's budget allows and nothing waits before it, else later. At
 * most one message is handled inline per callback (a chunk of many lines queues the rest): what a
 * handle sets going runs in the microtasks after the callback, and only then is its cost known.
 */
export function deliver(handle: () => void): void {
  if (!queue.length && !inlineTaken && inlineWithinBudget()) {
    inlineTaken = true;
    queueMicrotask(() => {
      inlineTaken = false;
    });
    run(handle);
    return;
  }
  enqueue(handle);
}

/**
 * Resolves when the caller may send: always on a later step (never inline), so a burst of requests
 * made in one tick is spread over iterations with the messages that arrive, in one order.
 */
export function sendTurn(): Promise<void> {
  return new Promise<void>((resolve) => enqueue(resolve));
}

function enqueue(item: () => void): void {
  queue.push(item);
  queueSteps();
}

/** Queues steps (for the current slice) until there is one per waiting item, up to the slice's cap. */
function queueSteps(): void {
  while (stepsQueued < Math.min(queue.length, STEPS_PER_SLICE)) {
    stepsQueued++;
    setImmediate(step, slice);
  }
}

function step(of: number): void {
  if (of !== slice) return;
  stepsQueued--;
  if (!queue.length) return;
  const now = performance.now();
  sliceBegan ??= now;
  if (now - sliceBegan >= BUDGET_MS) {
    // This slice is spent: the rest waits for the next iteration (immediates queued from a check
    // phase run in the next one).
    slice++;
    sliceBegan = undefined;
    stepsQueued = 0;
    queueSteps();
    return;
  }
  run(queue.shift()!);
  if (stepsQueued === 0) {
    // Everything queued for this slice ran within it: a new slice for what is still waiting.
    slice++;
    sliceBegan = undefined;
    queueSteps();
  }
}

function inlineWithinBudget(): boolean {
  const now = performance.now();
  if (inlineBegan === undefined) {
    inlineBegan = now;
    // The check phase ends this iteration's inline handling.
    setImmediate(() => {
      inlineBegan = undefined;
    });
  }
  return now - inlineBegan < BUDGET_MS;
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
