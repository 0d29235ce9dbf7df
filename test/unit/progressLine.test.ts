import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { describeProgress, ProgressLine } from '../../src/cli/progressLine';

/** A terminal that records what it was sent. */
function terminal(columns = 80, isTTY = true) {
  const written: string[] = [];
  const stream = { isTTY, columns, write: (s: string) => (written.push(s), true) } as unknown as NodeJS.WriteStream;
  return { stream, written };
}

const ERASE = '\r\u001b[2K';

describe("the CLI's progress line", () => {
  test('how far a tool is: its message with the share done, or the bare count', () => {
    assert.equal(describeProgress({ progress: 3, total: 10, message: 'step 3' }), 'step 3 (30%)');
    assert.equal(describeProgress({ progress: 3, total: 10 }), '30%');
    assert.equal(describeProgress({ progress: 12, total: 10 }), '100%', 'a server that counts past its total');
    assert.equal(describeProgress({ progress: 7 }), '7');
    assert.equal(describeProgress({ progress: 7, message: 'indexing' }), 'indexing (7)');
  });

  test('rewritten in place, then erased; a server cannot write a control sequence of its own through it', () => {
    const { stream, written } = terminal();
    const line = ProgressLine.forTerminal(stream)!;
    line.clear();
    assert.equal(written.length, 0, 'nothing to erase before the first report');
    line.update('deploy', { progress: 1, total: 4, message: 'ok\r\u001b]52;c;cm0gLXJmIH4K\u0007\u001b[2J\u202eexe' });
    assert.equal(written[0], `${ERASE}deploy: ok\\r\\u001b]52;c;cm0gLXJmIH4K\\u0007\\u001b[2J\\u202eexe (25%)`);
    // The only control bytes are the line's own carriage return and erase.
    assert.equal(written[0]!.slice(ERASE.length).match(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e]/), null);
    line.clear();
    assert.deepEqual(written.slice(1), [ERASE]);
    line.clear();
    assert.equal(written.length, 2, 'erased once');
  });

  test("a long message is cut to the terminal's width, so the line never wraps", () => {
    const { stream, written } = terminal(40);
    ProgressLine.forTerminal(stream)!.update('t', { progress: 1, message: 'x'.repeat(200) });
    const shown = written[0]!.slice(ERASE.length);
    assert.equal(shown.length, 39);
    assert.ok(shown.endsWith('…'));
  });

  test('not on a terminal: no progress line at all (a script reading stderr gets none)', () => {
    assert.equal(ProgressLine.forTerminal(terminal(80, false).stream), undefined);
  });
});
