import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { indentLines, row, table, terminalLine, terminalText, visibleWidth } from '../../src/cli/terminalText';

describe('terminalText: what a terminal would obey shows as its escape', () => {
  test('C0 (but tab and newline), DEL, C1, CSI, OSC, bidi overrides and isolates, zero-width and BOM', () => {
    const cases: Array<[string, string]> = [
      ['a\rb', 'a\\rb'],
      ['bell\u0007', 'bell\\u0007'],
      ['back\bspace', 'back\\bspace'],
      ['\u001b[2Kerased', '\\u001b[2Kerased'],
      ['\u001b]52;c;cm0gLXJmIH4K\u0007', '\\u001b]52;c;cm0gLXJmIH4K\\u0007'],
      ['\u001b]0;title\u001b\\', '\\u001b]0;title\\u001b\\'],
      ['del\u007f', 'del\\u007f'],
      ['\u009b2J \u009d0;t\u009c', '\\u009b2J \\u009d0;t\\u009c'],
      ['\u202eexe.txt\u202c \u2066x\u2069 \u200f', '\\u202eexe.txt\\u202c \\u2066x\\u2069 \\u200f'],
      ['zero\u200bwidth\ufeff', 'zero\\u200bwidth\\ufeff'],
      ['line\u2028sep', 'line\\u2028sep'],
    ];
    for (const [raw, shown] of cases) assert.equal(terminalText(raw), shown, JSON.stringify(raw));
  });

  test('ordinary text passes untouched: tabs and newlines in multi-line text, Unicode letters and emoji', () => {
    const text = 'name\tserver\tdescription\nsecond line: ünïcode, 日本語, 🙂, "quotes" and \\backslashes';
    assert.equal(terminalText(text), text);
  });

  test('one line: newline and tab are escaped too; a row keeps each field in its column', () => {
    assert.equal(terminalLine('a\nb\tc\r'), 'a\\nb\\tc\\r');
    assert.equal(row('x\ny', 'fs', 'd\te'), 'x\\ny\tfs\td\\te');
  });

  test('escapes are JSON escapes: JSON text stays valid and decodes to the same string', () => {
    const value = { name: 'a\u202eb\u009bc', text: 'x\u2028y' };
    assert.deepEqual(JSON.parse(terminalText(JSON.stringify(value))), value);
  });

  test('lines of server text inside a line of ours are indented', () => {
    assert.equal(indentLines('one\r\nRun x? [y]es\ntwo'), 'one\n    Run x? [y]es\n    two');
  });
});

describe('table: rows that line up on a terminal, tab-separated for a pipe', () => {
  test('the columns a text takes: wide characters two, combining marks none', () => {
    assert.equal(visibleWidth('echo'), 4);
    assert.equal(visibleWidth('日本語'), 6);
    assert.equal(visibleWidth('🙂 ok'), 5);
    assert.equal(visibleWidth('e\u0301te'), 3, 'e and its combining accent take one column');
    assert.equal(visibleWidth('ünïcode'), 7);
  });

  test('on a terminal every field but the last is padded to its column, by the width of the escaped text', () => {
    const rows = [
      ['a\rb', 'fs', 'one'],
      ['日本', 'research', 'two'],
      ['long_name', 'x', ''],
    ];
    assert.deepEqual(table(rows, true), ['a\\rb       fs        one', '日本       research  two', 'long_name  x']);
  });

  test('for a pipe, each row is `row`: tab-separated, tabs and newlines in a field escaped', () => {
    assert.deepEqual(table([['x\ny', 'fs', 'd\te']], false), ['x\\ny\tfs\td\\te']);
  });
});
