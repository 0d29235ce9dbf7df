import assert from 'node:assert/strict';
import { test } from 'node:test';
import { iterationCounter } from '../helpers';
import { deliver, sendTurn } from '../../src/core/mcp/transport/inbox';

test('messages that arrive together are handled in order, spread over event-loop iterations instead of one long stall', { timeout: 30_000 }, async () => {
  const loop = iterationCounter();
  const handled: Array<{ n: number; iteration: number }> = [];
  try {
    await new Promise<void>((resolve) => {
      // 40 messages in one go (as from 30 pipes ready in one poll phase), each 2 ms of handling.
      for (let n = 0; n < 40; n++) {
        deliver(() => {
          handled.push({ n, iteration: loop.now });
          const until = performance.now() + 2;
          while (performance.now() < until);
          if (n === 39) resolve();
        });
      }
    });
  } finally {
    loop.stop();
  }
  assert.deepEqual(handled.map((h) => h.n), Array.from({ length: 40 }, (_, i) => i), 'in arrival order');
  const perIteration = new Map<number, number>();
  for (const h of handled) perIteration.set(h.iteration, (perIteration.get(h.iteration) ?? 0) + 1);
  assert.ok(perIteration.size >= 5, `80 ms of handling ran in ${perIteration.size} iteration(s)`);
  assert.ok(Math.max(...perIteration.values()) < 40);
});

test('a burst of sends asked for in one tick is spread over iterations, and the work each turn sets going counts against the budget', { timeout: 30_000 }, async () => {
  const loop = iterationCounter();
  const sentIn: number[] = [];
  const asked = loop.now;
  try {
    // 60 calls made in one tick; each, once given its turn, does 2 ms of work in a continuation (a
    // microtask, as the SDK's serializing and writing is), not in the turn's own callback.
    await Promise.all(
      Array.from({ length: 60 }, async () => {
        await sendTurn();
        await Promise.resolve();
        sentIn.push(loop.now);
        const until = performance.now() + 2;
        while (performance.now() < until);
      }),
    );
  } finally {
    loop.stop();
  }
  assert.ok(sentIn.every((i) => i > asked), 'no send happens in the tick that asked for it');
  const perIteration = new Map<number, number>();
  for (const i of sentIn) perIteration.set(i, (perIteration.get(i) ?? 0) + 1);
  // 120 ms of sending at 8 ms per iteration: at least 10 iterations, and none did more than 5 sends (10 ms).
  assert.ok(perIteration.size >= 10, `120 ms of sending ran in ${perIteration.size} iteration(s)`);
  assert.ok(Math.max(...perIteration.values()) <= 5, `an iteration made ${Math.max(...perIteration.values())} sends`);
});

test('of many messages in one chunk, one is handled inline and the rest after it, in order', { timeout: 30_000 }, async () => {
  const order: string[] = [];
  await new Promise<void>((resolve) => {
    for (let n = 0; n < 5; n++) deliver(() => {
      order.push(`m${n}`);
      if (n === 4) resolve();
    });
    order.push('callback ends');
  });
  assert.deepEqual(order, ['m0', 'callback ends', 'm1', 'm2', 'm3', 'm4']);
});
