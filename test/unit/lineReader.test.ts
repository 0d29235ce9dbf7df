import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LineReader } from '../../src/core/mcp/transport/lineReader';
import { StderrTail } from '../../src/core/mcp/connection/stderrTail';

test('lines split across chunks are joined; CRLF is handled; oversize lines are dropped and reported', () => {
  const lines: string[] = [];
  const over: number[] = [];
  const r = new LineReader(
    10,
    (l) => lines.push(l),
    (n) => over.push(n),
  );
  r.push(Buffer.from('ab'));
  r.push(Buffer.from('c\r\nde'));
  r.push(Buffer.from('f\n0123456789'));
  r.push(Buffer.from('ABCDEF\nok\n'));
  assert.deepEqual(lines, ['abc', 'def', 'ok']);
  assert.deepEqual(over, [16]);
});

test('the stderr tail keeps the last lines within bounds', () => {
  const t = new StderrTail(3, 100);
  const seen: string[] = [];
  t.write('one\ntwo\nthree\nfour\nfi', (l) => seen.push(l));
  assert.equal(t.text(), 'two\nthree\nfour\nfi');
  assert.deepEqual(seen, ['one', 'two', 'three', 'four']);
  t.write('ve\n');
  assert.equal(t.text(), 'three\nfour\nfive');
});
