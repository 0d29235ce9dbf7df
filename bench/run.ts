// `npm run bench`: figures as ratios against baselines measured in the same run.
import { benchClose } from './close';
import { save } from './results';

async function main(): Promise<void> {
  await benchClose();
  save();
}
void main().then(() => process.exit(0));
