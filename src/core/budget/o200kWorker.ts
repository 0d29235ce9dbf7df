// The o200k_base tokenizer (GPT-4o, GPT-4.1, GPT-5, o-series) in a worker thread: its ranks (about
// 2 MB of script, 200,000 entries) load and count off the host's thread, so nothing freezes. Bundled
// on its own as dist/o200kWorker.js and started only when an OpenAI model is first counted.
import { parentPort } from 'node:worker_threads';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';

parentPort?.on('message', (m: { id: number; text: string }) => {
  parentPort!.postMessage({ id: m.id, count: countTokens(m.text) });
});
