import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Disposable } from '../../base/event';
import { schemaBounds } from './toolList';

/** What became of a check: the result matches, it does not (and why), or it could not be checked (and why). */
export type OutputVerdict = { matches: true } | { matches: false; why: string } | { unchecked: string };

/** How long one check may take before the worker is stopped (and started anew for the next). */
export const CHECK_LIMIT_MS = 2_000;
/** Larger structured results (as JSON) are not checked: the check would cost more than the call. */
export const MAX_CHECKED_CHARS = 1_000_000;

type Reply = { id: number; valid?: boolean; message?: string; unusable?: string };

/**
 * Checks a tool's structured result against its `outputSchema` in a worker thread, started on the first check and
 * stopped by dispose. A check past CHECK_LIMIT_MS stops the worker (a server's `pattern` that backtracks for ever
 * cannot hold the host) and is reported unchecked. Never rejects.
 */
export class OutputChecker implements Disposable {
  /** The worker and the checks it has to answer (a worker stopped or gone answers only its own). */
  private current: { worker: Worker; pending: Map<number, (reply: Reply) => void> } | undefined;
  private next = 0;

  constructor(private readonly limitMs = CHECK_LIMIT_MS) {}

  async check(schema: unknown, data: unknown): Promise<OutputVerdict> {
    const oversized = schemaBounds(schema);
    if (oversized) return { unchecked: `its outputSchema is ${oversized}` };
    const json = JSON.stringify(data);
    if (json === undefined) return { matches: false, why: 'it has no structured result' };
    if (json.length > MAX_CHECKED_CHARS)
      return { unchecked: `its structured result is over ${MAX_CHECKED_CHARS} characters` };
    const reply = await this.ask(JSON.stringify(schema), data);
    if ('timeout' in reply) return { unchecked: `checking took longer than ${this.limitMs / 1000} s` };
    if (reply.unusable !== undefined)
      return { unchecked: `its outputSchema cannot be used: ${clip(reply.unusable, 300)}` };
    return reply.valid ? { matches: true } : { matches: false, why: clip(reply.message ?? 'no reason given', 500) };
  }

  private ask(schema: string, data: unknown): Promise<Reply | { timeout: true }> {
    const { worker, pending } = this.started();
    const id = this.next++;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        pending.delete(id);
        this.stop();
        resolve({ timeout: true });
      }, this.limitMs);
      pending.set(id, (reply) => {
        clearTimeout(timer);
        resolve(reply);
      });
      worker.ref();
      worker.postMessage({ id, schema, data });
    });
  }

  private started(): NonNullable<OutputChecker['current']> {
    if (this.current) return this.current;
    const worker = workerOf(__dirname);
    const pending = new Map<number, (reply: Reply) => void>();
    worker.on('message', (reply: Reply) => {
      pending.get(reply.id)?.(reply);
      pending.delete(reply.id);
      if (!pending.size) worker.unref();
    });
    const gone = (why: string) => {
      if (this.current?.worker === worker) this.current = undefined;
      for (const [id, answer] of pending) answer({ id, unusable: why });
      pending.clear();
    };
    worker.on('error', (err) => gone(`the checker failed: ${err.message}`));
    worker.on('exit', () => gone('the checker stopped'));
    worker.unref();
    this.current = { worker, pending };
    return this.current;
  }

  private stop(): void {
    const worker = this.current?.worker;
    this.current = undefined;
    void worker?.terminate();
  }

  dispose(): void {
    this.stop();
  }
}

/**
 * What the model reads after a result that does not match its tool's outputSchema. The reason quotes the server's
 * schema and data, so it is JSON-quoted: no line or bracket of it can pass for another note.
 */
export function mismatchNote(why: string): string {
  return `[outputSchema mismatch: the structured result does not match the tool's declared outputSchema: ${JSON.stringify(why)}]`;
}

/** The bundled worker beside the bundle; from the sources (tests run them through tsx), the source itself. */
function workerOf(dir: string): Worker {
  const bundled = join(dir, 'outputCheckWorker.js');
  if (existsSync(bundled)) return new Worker(bundled);
  const source = JSON.stringify(join(dir, 'outputCheckWorker.ts'));
  return new Worker(`require('tsx/cjs'); require(${source});`, { eval: true });
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
