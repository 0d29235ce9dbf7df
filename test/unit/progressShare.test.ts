import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { progressShare } from '../../src/core/mcp/tools/progressShare';

describe("a call's progress as a bar that fills", () => {
  test('steps out of 100 that add up to the share done; a report past the total stops at 100', () => {
    const share = progressShare();
    const steps = [1, 2, 5, 10, 12].map((progress) => share({ progress, total: 10 }));
    assert.deepEqual(steps, [10, 10, 30, 50, 0]);
    assert.equal(
      steps.reduce((a, b) => a! + b!, 0),
      100,
    );
  });

  test('no total: no step (the endless animation stays); a total of 0 or a progress that is not a number, the same', () => {
    const share = progressShare();
    assert.equal(share({ progress: 3 }), undefined);
    assert.equal(share({ progress: 3, total: 0 }), undefined);
    assert.equal(share({ progress: Number.NaN, total: 10 }), undefined);
  });

  test('progress that goes back leaves the bar where it is', () => {
    const share = progressShare();
    assert.equal(share({ progress: 6, total: 10 }), 60);
    assert.equal(share({ progress: 2, total: 10 }), 0);
    assert.equal(share({ progress: 8, total: 10 }), 20);
  });
});
