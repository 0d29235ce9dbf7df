// `npm run bench`: figures, never pass/fail, each as a ratio against a baseline measured in the
// same run. Writes bench/results.json and docs/PERFORMANCE.md.
import { benchAgent } from './agent';
import { benchCallOverhead } from './callOverhead';
import { benchChatOpen } from './chatOpen';
import { benchClose } from './close';
import { benchConnect } from './connect';
import { benchMemory } from './memory';
import { writePerformanceDoc } from './report';
import { save } from './results';
import { benchScale } from './scale';
import { benchSize } from './size';
import { benchTreeRender } from './treeRender';
import { benchWebviewStream } from './webviewStream';
import { benchWebviewUpdate } from './webviewUpdate';

async function main(): Promise<void> {
  await benchCallOverhead();
  await benchConnect();
  await benchClose();
  benchScale();
  await benchTreeRender();
  await benchAgent();
  await benchWebviewStream();
  await benchWebviewUpdate();
  await benchChatOpen();
  await benchSize();
  await benchMemory();
  const results = save();
  writePerformanceDoc(results);
}
void main().then(() => process.exit(0));
