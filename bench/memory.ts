// 7. Memory: heap growth over 1,000 tool calls and 100 reconnects, after a full GC each time.
import { ServerHub } from '../src/core/mcp/hub/serverHub';
import { fixture } from '../test/helpers';
import { record } from './results';

function heap(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with --expose-gc');
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

export async function benchMemory(): Promise<void> {
  const hub = new ServerHub();
  hub.reconcile([fixture('research', 'research.mjs')]);
  await hub.whenIdle();
  for (let i = 0; i < 100; i++) await hub.registry.call('echo', { text: `warm ${i}` });
  hub.restart('research');
  await hub.whenIdle();
  const base = heap();
  for (let i = 0; i < 1_000; i++) await hub.registry.call('echo', { text: `call ${i}` });
  const afterCalls = heap();
  for (let i = 0; i < 100; i++) {
    hub.restart('research');
    await hub.whenIdle();
  }
  await new Promise((r) => setTimeout(r, 500)); // let the last closes finish
  const afterReconnects = heap();
  await hub.closeAll();
  const mb = (n: number) => n / 1024 / 1024;
  record('memory', 'heap after a full GC (MB)', {
    baselineMb: mb(base),
    growthAfter1000CallsMb: mb(afterCalls - base),
    growthAfter100ReconnectsMb: mb(afterReconnects - afterCalls),
    growthOverBaseline: (afterReconnects - base) / base,
  });
}
