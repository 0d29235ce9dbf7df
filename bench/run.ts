// `npm run bench`: figures, never pass/fail, each as a ratio against a baseline measured in the
// same run. Writes bench/.tmp/results.json; `npm run docs` records a run in the tracked bench/results.json
// and docs/PERFORMANCE.md, so a bench run never leaves the checkout dirty.
import { benchAgent } from './agent';
import { benchCallOverhead } from './callOverhead';
import { benchClose } from './close';
import { benchConnect } from './connect';
import { benchMemory } from './memory';
import { save } from './results';
import { benchScale } from './scale';
import { benchSize } from './size';
import { benchTraceOverhead } from './traceOverhead';
import { benchTreeRender } from './treeRender';
import { benchWebviewStream } from './webviewStream';

async function main(): Promise<void> {
  await benchCallOverhead();
  await benchTraceOverhead();
  await benchConnect();
  await benchClose();
  benchScale();
  await benchTreeRender();
  await benchAgent();
  await benchWebviewStream();
  await benchSize();
  await benchMemory();
  save();
}
void main().then(() => process.exit(0));
