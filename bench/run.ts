// `npm run bench`: figures, never pass/fail, each as a ratio against a baseline measured in the
// same run. Writes bench/.tmp/results.json; `npm run docs` records a run in the tracked bench/results.json
// and docs/PERFORMANCE.md, so a bench run never leaves the checkout dirty.
import { benchAgent } from './agent';
import { benchAppPaint } from './appPaint';
import { benchBurstLoaded } from './burstLoaded';
import { benchCallOverhead } from './callOverhead';
import { benchChatOpen } from './chatOpen';
import { benchClose } from './close';
import { benchConnect } from './connect';
import { benchConnectLoaded } from './connectLoaded';
import { benchLoopDelay } from './loopDelay';
import { benchMemory } from './memory';
import { save } from './results';
import { benchSandbox } from './sandbox';
import { benchScale } from './scale';
import { benchSize } from './size';
import { benchToolSearch } from './toolSearch';
import { benchTraceOverhead } from './traceOverhead';
import { benchTreeRender } from './treeRender';
import { benchWebviewStream } from './webviewStream';
import { benchWebviewUpdate } from './webviewUpdate';

async function main(): Promise<void> {
  await benchCallOverhead();
  await benchBurstLoaded();
  await benchTraceOverhead();
  await benchConnect();
  await benchConnectLoaded();
  await benchClose();
  await benchLoopDelay();
  benchScale();
  await benchTreeRender();
  await benchAgent();
  await benchWebviewStream();
  await benchWebviewUpdate();
  await benchAppPaint();
  await benchToolSearch();
  await benchSandbox();
  await benchChatOpen();
  await benchSize();
  await benchMemory();
  save();
}
void main().then(() => process.exit(0));
