// Tool search (issue 27): recall over real servers' tools, tokens per request at scale, and a
// search's time. Alone: `node --import tsx bench/toolSearch.ts` (BENCH_MISSES=1 lists the misses).
import { ServerHub } from '../src/core/mcp/hub/serverHub';
import { catalogue, lookalikes } from './toolSearch/catalogue';
import { benchRetrieval, QUERIES } from './toolSearch/retrieval';
import { benchSearchScale } from './toolSearch/scale';

export async function benchToolSearch(): Promise<void> {
  const hub = new ServerHub();
  const extra = lookalikes();
  hub.reconcile([...catalogue(), ...extra]);
  await hub.whenIdle();
  try {
    const real = await benchRetrieval(
      hub,
      extra.map((s) => s.name),
    );
    await benchSearchScale(real.list(), QUERIES);
  } finally {
    await hub.closeAll();
  }
}

if (process.argv[1]?.endsWith('toolSearch.ts')) void benchToolSearch().then(() => process.exit(0));
