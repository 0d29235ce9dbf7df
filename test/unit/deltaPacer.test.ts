import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, mock, test } from 'node:test';
import { DeltaPacer } from '../../src/core/chat/deltaPacer';
import type { HostMessage } from '../../src/shared/protocol';

const delta = (id: string, text: string): HostMessage => ({ type: 'textDelta', id, delta: text });

/** A view that records what it was posted, and a pacer in front of it (16 ms window, on mocked timers). */
function view() {
  const posted: HostMessage[] = [];
  return { posted, pacer: new DeltaPacer((m) => posted.push(m), 16) };
}

describe("a chat view's streamed text, at most once a frame", () => {
  beforeEach(() => mock.timers.enable({ apis: ['setTimeout'] }));
  afterEach(() => mock.timers.reset());

  test('a burst of 500 deltas reaches the view as the first at once, then one message a window, the text whole', () => {
    const { posted, pacer } = view();
    for (let i = 0; i < 500; i++) {
      pacer.send(delta('a1', `t${i} `));
      if (i % 50 === 49) mock.timers.tick(4); // 50 tokens every 4 ms: a fast local model
    }
    mock.timers.tick(16);
    mock.timers.tick(16);
    assert.equal(posted[0]!.type === 'textDelta' && posted[0]!.delta, 't0 ', 'the first token is not held back');
    assert.ok(posted.length <= 4 + 2, `${posted.length} messages for 500 deltas over 40 ms`);
    const text = posted.map((m) => (m.type === 'textDelta' ? m.delta : '')).join('');
    assert.equal(text, Array.from({ length: 500 }, (_, i) => `t${i} `).join(''));
  });

  test('any other message sends the gathered text first: the view sees everything in the order it happened', () => {
    const { posted, pacer } = view();
    pacer.send(delta('a1', 'Hel'));
    pacer.send(delta('a1', 'lo'));
    pacer.send(delta('a1', ' there'));
    pacer.send({ type: 'busy', busy: false });
    assert.deepEqual(posted, [delta('a1', 'Hel'), delta('a1', 'lo there'), { type: 'busy', busy: false }]);
  });

  test("another answer's delta sends the first answer's gathered text before its own", () => {
    const { posted, pacer } = view();
    pacer.send(delta('a1', 'one'));
    pacer.send(delta('a1', ' more'));
    pacer.send(delta('a2', 'two'));
    mock.timers.tick(16);
    assert.deepEqual(posted, [delta('a1', 'one'), delta('a1', ' more'), delta('a2', 'two')]);
  });

  test('after a quiet window the next delta goes at once again', () => {
    const { posted, pacer } = view();
    pacer.send(delta('a1', 'a'));
    mock.timers.tick(16);
    mock.timers.tick(100);
    pacer.send(delta('a1', 'b'));
    assert.deepEqual(posted, [delta('a1', 'a'), delta('a1', 'b')]);
  });

  test('a closed view gets nothing more', () => {
    const { posted, pacer } = view();
    pacer.send(delta('a1', 'a'));
    pacer.send(delta('a1', 'b'));
    pacer.dispose();
    mock.timers.tick(100);
    assert.deepEqual(posted, [delta('a1', 'a')]);
  });
});
