import assert from 'node:assert/strict';
import { test } from 'node:test';
import { deliver } from '../../src/core/mcp/transport/inbox';

test('messages that arrive together are handled in order, spread over event-loop iterations instead of one long stall', { timeout: 30_000 }, async () => {
  let iteration = 0;
  let counter = setImmediate(function tick() {
    iteration++;
    counter = setImmediate(tick);
  });
  const handled: Array<{ n: number; iteration: number }> = [];
  try {
    await new Promise<void>((resolve) => {
      // 40 messages in one go (as from 30 pipes ready in one poll phase), each 2 ms of handling.
      for (let n = 0; n < 40; n++) {
        deliver(() => {
          handled.push({ n, iteration });
          const until = performance.now() + 2;
          while (performance.now() < until);
          if (n === 39) resolve();
        });
      }
    });
  } finally {
    clearImmediate(counter);
  }
  assert.deepEqual(handled.map((h) => h.n), Array.from({ length: 40 }, (_, i) => i), 'in arrival order');
  const perIteration = new Map<number, number>();
  for (const h of handled) perIteration.set(h.iteration, (perIteration.get(h.iteration) ?? 0) + 1);
  assert.ok(perIteration.size >= 5, `80 ms of handling ran in ${perIteration.size} iteration(s)`);
  assert.ok(Math.max(...perIteration.values()) < 40);
});
