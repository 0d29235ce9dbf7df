// Tool search (issue 27): recall over real servers' tools, tokens per request at scale, and a
// search's time. Alone: `node --import tsx bench/toolSearch.ts` (BENCH_MISSES=1 lists the misses).
import { ServerHub } from '../src/core/mcp/hub';
import { catalogue } from './toolSearch/catalogue';
import { benchRetrieval, QUERIES } from './toolSearch/retrieval';
import { benchSearchScale } from './toolSearch/scale';

export async function benchToolSearch(): Promise<void> {
  const hub = new ServerHub();
  hub.reconcile(catalogue());
  await hub.whenIdle();
  try {
    await benchRetrieval(hub);
    await benchSearchScale(hub.registry.list(), QUERIES);
  } finally {
    await hub.closeAll();
  }
}

if (process.argv[1]?.endsWith('toolSearch.ts')) void benchToolSearch().then(() => process.exit(0));
