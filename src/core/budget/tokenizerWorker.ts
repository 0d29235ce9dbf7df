import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { TokenCounter } from './tokens';

/**
 * Counts with the o200k_base tokenizer in a worker thread running `script`: the bundled
 * dist/o200kWorker.js beside the bundle that calls this. Rejects when the worker cannot count.
 */
export function startO200kWorker(script = join(__dirname, 'o200kWorker.js')): Promise<TokenCounter> {
  const worker = new Worker(script);
  const pending = new Map<number, { resolve: (n: number) => void; reject: (e: Error) => void }>();
  let next = 0;
  let failure: Error | undefined;
  const fail = (err: Error) => {
    failure = err;
    for (const p of pending.values()) p.reject(err);
    pending.clear();
  };
  worker.on('message', (m: { id: number; count: number }) => {
    pending.get(m.id)?.resolve(m.count);
    pending.delete(m.id);
    if (!pending.size) worker.unref();
  });
  worker.on('error', fail);
  worker.on('exit', () => fail(new Error('the tokenizer worker stopped')));
  // Held only while a count is pending: an idle worker never keeps a process alive.
  worker.unref();
  const counter: TokenCounter = {
    label: 'o200k_base tokenizer',
    exact: true,
    count: (text) =>
      failure
        ? Promise.reject(failure)
        : new Promise<number>((resolve, reject) => {
            const id = next++;
            if (!pending.size) worker.ref();
            pending.set(id, { resolve, reject });
            worker.postMessage({ id, text });
          }),
  };
  // Ready once it has counted something: a worker that cannot load the tokenizer fails here.
  return Promise.resolve(counter.count('ready')).then(() => counter);
}
