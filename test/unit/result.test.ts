import assert from 'node:assert/strict';
import { test } from 'node:test';
import { truncate } from '../../src/core/base/text';
import { formatCallResult } from '../../src/core/mcp/tools/result';

test('text blocks are joined; isError becomes {"error"} with the text', () => {
  assert.equal(
    formatCallResult(
      {
        content: [
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b' },
        ],
      },
      100,
    ),
    'a\nb',
  );
  assert.equal(
    formatCallResult({ content: [{ type: 'text', text: 'bad table' }], isError: true }, 100),
    '{"error":"bad table"}',
  );
  assert.equal(formatCallResult({ content: [], isError: true }, 100), '{"error":"remote tool failed"}');
});

test('structured content is added only when the text does not already mirror it', () => {
  assert.equal(
    formatCallResult({ content: [{ type: 'text', text: '{"rows": 3}' }], structuredContent: { rows: 3 } }, 100),
    '{"rows": 3}',
  );
  assert.equal(
    formatCallResult({ content: [{ type: 'text', text: 'three rows' }], structuredContent: { rows: 3 } }, 100),
    'three rows\n{"rows":3}',
  );
});

test('truncation keeps the head and says how much was cut', () => {
  assert.equal(truncate('abcdef', 10), 'abcdef');
  assert.equal(truncate('abcdef', 2), 'ab\n…[truncated: 4 of 6 characters cut]');
  const err = formatCallResult({ content: [{ type: 'text', text: 'e'.repeat(50) }], isError: true }, 10);
  assert.match(JSON.parse(err).error, /^e{10}\n…\[truncated: 40 of 50/);
});
