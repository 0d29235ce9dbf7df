import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkArguments, exampleArguments } from '../../src/core/toolRegistry/schema';

const schema = {
  type: 'object',
  properties: {
    query: { type: 'string' },
    limit: { type: 'integer', default: 3 },
    mode: { enum: ['fast', 'full'] },
    flags: { type: 'array' },
  },
  required: ['query', 'limit', 'mode', 'flags'],
};

test('example arguments fill the required properties from defaults, enums and types', () => {
  assert.deepEqual(exampleArguments(schema), { query: '', limit: 3, mode: 'fast', flags: [] });
  assert.deepEqual(exampleArguments({ type: 'object' }), {});
});

test('arguments are checked against the schema with a readable message', () => {
  assert.equal(checkArguments(schema, { query: 'x', limit: 1, mode: 'fast', flags: [] }), undefined);
  assert.match(checkArguments(schema, { query: 'x', limit: 'many', mode: 'fast', flags: [] }) ?? '', /limit.*integer/);
  assert.match(checkArguments(schema, { limit: 1, mode: 'fast', flags: [] }) ?? '', /query/);
});
