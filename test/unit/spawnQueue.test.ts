// npm test: a process of its own (these tests count the event loop's iterations; another file's timers in the
// same process would run in them).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { iterationCounter } from '../helpers';
import { spawnSlot } from '../../src/core/mcp/transport/spawnQueue';

test('spawn turns asked for together are granted one per event-loop iteration, even when each is slow and sets timers', {
  timeout: 30_000,
}, async () => {
  const loop = iterationCounter();
  const granted: number[] = [];
  try {
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        await spawnSlot();
        granted.push(loop.now);
        // What a spawn does to the loop, a few promise hops into the turn: synchronous work that
        // moves its clock on, then a timer (a request timeout). Chained zero-delay timers would
        // then run back to back in one timers phase.
        await Promise.resolve();
        await Promise.resolve();
        const until = performance.now() + 15;
        while (performance.now() < until);
        setTimeout(() => {}, 0);
      }),
    );
  } finally {
    loop.stop();
  }
  assert.equal(granted.length, 8);
  assert.equal(new Set(granted).size, 8, `two turns shared an event-loop iteration: ${granted.join(', ')}`);
});
