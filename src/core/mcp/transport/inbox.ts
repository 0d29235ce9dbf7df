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
 * Paced only when the loop is behind: while this iteration's budget lasts and nothing waits, work
 * runs at once (a burst of sends goes out in one write batch, a chunk of answers is handled in its
 * callback, as the SDK's own client does; on a busy machine every extra hop costs a wake-up). What an
 * item sets going runs in the microtasks after it and is not seen by the clock until then, so the
 * items run at once per iteration are counted too: as many as the budget holds at the cost per item
 * measured in the iterations before (at first a cautious guess), at most INLINE_ITEMS.
 *
 * Queued work runs one item per immediate, all queued together for one check phase: Node runs the
 * microtasks after each immediate, so the continuation of an item (the promise chain it resolves)
 * is part of the time the next item measures. An item that finds the slice spent starts the next
 * slice, in the next iteration.
 *
 * Time is counted as the host's work: the wall time, but no more than the CPU time the process got
 * meanwhile. On a machine whose cores are busy with other processes, an iteration the OS preempted
 * is long without the host having done much; counted by the wall clock it would end the slice early
 * and push the rest of a burst into later iterations, each one more wait for the CPU (a burst of 100
 * calls beside two busy loops took 1.2-1.5x the SDK's time so).
 */
const BUDGET_MS = 8;
/** Immediates queued at a time; a slice rarely fits more items than this. */
const STEPS_PER_SLICE = 64;
/**
 * Items run at once (not queued) per iteration at most, however cheap they have been: room for a burst of 100 answers
 * and the 100 calls a model makes right after them.
 */
const INLINE_ITEMS = 256;
/** The cost of one item, with what it sets going, assumed until one has been measured. */
const FIRST_GUESS_MS = 1;

export class Inbox {
  /**
   * `clock` reads the wall time in ms (a test passes one that says what work costs), `cpu` the CPU
   * time the process has used, in ms.
   */
  constructor(
    private readonly clock: () => number = () => performance.now(),
    private readonly cpu: () => number = processCpuMs,
  ) {}

  private readonly queue: Array<() => void> = [];
  /** Which slice the queued steps belong to; steps of an older slice do nothing. */
  private slice = 0;
  private sliceBegan: Mark | undefined;
  private stepsQueued = 0;
  /** When this iteration's inline handling began, and how many items ran inline in it. */
  private inlineBegan: Mark | undefined;
  private inlineItems = 0;
  /** Set once a message ran inline in this iteration: the next ones run after its microtasks. */
  private inlineChain: Promise<void> | undefined;
  /** The measured cost of one inline item with its continuations (ms). */
  private itemMs = FIRST_GUESS_MS;
  /** When the last queued step began, and in which slice. */
  private lastStep: { slice: number; at: Mark } | undefined;

  deliver(handle: () => void): void {
    if (!this.mayRunNow()) return this.enqueue(handle);
    // A message's handling may go on in a microtask (the SDK dispatches a notification so, and handles
    // a response at once): the next message waits for it, or a progress note just before a result
    // would find its call already answered.
    if (this.inlineChain) this.inlineChain = this.inlineChain.then(() => run(handle));
    else {
      run(handle);
      this.inlineChain = Promise.resolve();
    }
  }

  sendTurn(): Promise<void> {
    if (this.mayRunNow()) return Promise.resolve();
    return new Promise<void>((resolve) => this.enqueue(resolve));
  }

  /** Nothing waits, the iteration's budget lasts, and the items already run now leave room for one more. */
  private mayRunNow(): boolean {
    if (this.queue.length || !this.withinBudget()) return false;
    if (this.inlineItems >= Math.min(INLINE_ITEMS, Math.max(1, Math.floor(BUDGET_MS / this.itemMs)))) return false;
    this.inlineItems++;
    return true;
  }

  private enqueue(item: () => void): void {
    this.queue.push(item);
    this.queueSteps();
  }

  /** Queues steps (for the current slice) until there is one per waiting item, up to the slice's cap. */
  private queueSteps(): void {
    while (this.stepsQueued < Math.min(this.queue.length, STEPS_PER_SLICE)) {
      this.stepsQueued++;
      setImmediate(this.step, this.slice);
    }
  }

  private readonly step = (of: number): void => {
    if (of !== this.slice) return;
    this.stepsQueued--;
    if (!this.queue.length) return;
    const now = this.mark();
    this.sliceBegan ??= now;
    // The step before this one, in this slice, ran its item and that item's continuations: its cost.
    if (this.lastStep?.slice === of) this.learn(workBetween(this.lastStep.at, now));
    this.lastStep = { slice: of, at: now };
    if (workBetween(this.sliceBegan, now) >= BUDGET_MS) {
      // This slice is spent: the rest waits for the next iteration (immediates queued from a check
      // phase run in the next one).
      this.nextSlice();
      return;
    }
    run(this.queue.shift()!);
    // Everything queued for this slice ran within it: a new slice for what is still waiting.
    if (this.stepsQueued === 0) this.nextSlice();
  };

  /** A measured cost per item: the estimate moves half way to it. */
  private learn(observedMs: number): void {
    this.itemMs = (this.itemMs + observedMs) / 2;
  }

  private mark(): Mark {
    return { wall: this.clock(), cpu: this.cpu() };
  }

  private nextSlice(): void {
    this.slice++;
    this.sliceBegan = undefined;
    this.stepsQueued = 0;
    this.queueSteps();
  }

  /**
   * Whether this iteration's inline handling is still within the budget. The check phase ends it and
   * learns the cost per item from it (the time includes their continuations, and anything else the
   * iteration did meanwhile: the guess errs on the cautious side).
   */
  private withinBudget(): boolean {
    if (this.inlineBegan === undefined) {
      this.inlineBegan = this.mark();
      setImmediate(this.endIteration);
      return true;
    }
    // The CPU clock is read only once the wall clock says the budget is spent.
    return this.clock() - this.inlineBegan.wall < BUDGET_MS || workBetween(this.inlineBegan, this.mark()) < BUDGET_MS;
  }

  private readonly endIteration = (): void => {
    if (this.inlineItems > 0 && this.inlineBegan !== undefined)
      this.learn(workBetween(this.inlineBegan, this.mark()) / this.inlineItems);
    this.inlineBegan = undefined;
    this.inlineItems = 0;
    this.inlineChain = undefined;
  };
}

/** A moment, on the wall clock and on the process's CPU clock (ms). */
interface Mark {
  wall: number;
  cpu: number;
}

/** The host's work from `a` to `b`: the wall time between them, but no more than the CPU time. */
function workBetween(a: Mark, b: Mark): number {
  return Math.min(b.wall - a.wall, b.cpu - a.cpu);
}

function processCpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
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

/** One inbox for the whole host: its budget is the host's event loop, shared by every server. */
const inbox = new Inbox();

/** Runs `handle` (a server's message) now if the budget allows and nothing waits before it, else later. */
export function deliver(handle: () => void): void {
  inbox.deliver(handle);
}

/**
 * Resolves when the caller may send: at once while the iteration's budget lasts and nothing waits,
 * else on a later step, so a burst of requests is spread over iterations with the messages that
 * arrive, in one order.
 */
export function sendTurn(): Promise<void> {
  return inbox.sendTurn();
}
