import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { progressPace } from '../../src/core/mcp/tools/progressPace';

describe("a call's progress, paced for the views", () => {
  test('a flood of reports reaches the view at most four times a second: the first at once, then the latest', (t) => {
    t.mock.timers.enable({ apis: ['setTimeout', 'Date'] });
    const seen: number[] = [];
    const paced = progressPace((p: number) => seen.push(p), 250);
    for (let i = 1; i <= 5000; i++) paced.report(i); // a server that reports each file it reads
    assert.deepEqual(seen, [1], 'the first at once');
    t.mock.timers.tick(249);
    assert.deepEqual(seen, [1]);
    t.mock.timers.tick(1);
    assert.deepEqual(seen, [1, 5000], 'then the latest, none of those between');
    // A second of steady reports every 10 ms: four reach the view.
    for (let ms = 0; ms < 1000; ms += 10) {
      paced.report(10_000 + ms);
      t.mock.timers.tick(10);
    }
    assert.ok(seen.length - 2 >= 3 && seen.length - 2 <= 5, `four a second, saw ${seen.length - 2}`);
    paced.stop();
  });

  test('a report still held when the result comes is dropped: no progress on a finished card', (t) => {
    t.mock.timers.enable({ apis: ['setTimeout', 'Date'] });
    const seen: number[] = [];
    const paced = progressPace((p: number) => seen.push(p), 250);
    paced.report(1);
    paced.report(2);
    paced.stop();
    t.mock.timers.tick(1000);
    paced.report(3);
    assert.deepEqual(seen, [1]);
  });

  test('reports further apart than the pace all arrive, as they came', (t) => {
    t.mock.timers.enable({ apis: ['setTimeout', 'Date'] });
    const seen: number[] = [];
    const paced = progressPace((p: number) => seen.push(p), 250);
    for (let i = 1; i <= 4; i++) {
      paced.report(i);
      t.mock.timers.tick(300);
    }
    assert.deepEqual(seen, [1, 2, 3, 4]);
    paced.stop();
  });
});
