// SEP-2243: which tools a 2026-07-28 Streamable HTTP connection keeps. A declaration must sit on a property reached
// through "properties" alone, typed string, integer or boolean, named by a header token unique whatever its case;
// anything else leaves the tool out, with the reason (the conformance scenario http-invalid-tool-headers plays a
// server that lists such tools beside a valid one).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { paramHeaderProblem, withValidParamHeaders } from '../../src/core/mcp/tools/paramHeaders';

const object = (properties: Record<string, unknown>, more: Record<string, unknown> = {}) => ({
  type: 'object',
  properties,
  ...more,
});

test('valid declarations, nested through properties, and none at all', () => {
  assert.equal(paramHeaderProblem(object({ region: { type: 'string', 'x-mcp-header': 'Region' } })), undefined);
  assert.equal(
    paramHeaderProblem(object({ a: object({ b: { type: 'integer', 'x-mcp-header': 'Deep' } }) })),
    undefined,
  );
  assert.equal(paramHeaderProblem(object({ q: { type: 'string' } })), undefined);
  assert.equal(paramHeaderProblem(undefined), undefined);
});

test('each invalid declaration is named with its reason', () => {
  const cases: Array<[unknown, RegExp]> = [
    [object({ v: { type: 'string', 'x-mcp-header': '' } }), /not a header name/],
    [object({ v: { type: 'string', 'x-mcp-header': 'Two Words' } }), /not a header name/],
    [object({ v: { type: 'object', 'x-mcp-header': 'Data' } }), /its type is "object"/],
    [object({ v: { type: 'number', 'x-mcp-header': 'N' } }), /its type is "number"/],
    [object({ v: { type: 'array', items: { type: 'string', 'x-mcp-header': 'I' } } }), /only a property reached/],
    [object({}, { anyOf: [object({ v: { type: 'string', 'x-mcp-header': 'A' } })] }), /only a property reached/],
    [
      object({ a: { type: 'string', 'x-mcp-header': 'Same' }, b: { type: 'string', 'x-mcp-header': 'same' } }),
      /declared twice/,
    ],
    [{ type: 'object', 'x-mcp-header': 'Root' }, /only a property reached/],
  ];
  for (const [schema, reason] of cases) assert.match(paramHeaderProblem(schema) ?? '(valid)', reason);
});

test('the valid tools are kept beside the invalid ones, which are listed with why', () => {
  const { kept, left } = withValidParamHeaders([
    { name: 'valid_tool', inputSchema: object({ region: { type: 'string', 'x-mcp-header': 'Region' } }) },
    { name: 'bad', inputSchema: object({ v: { type: 'object', 'x-mcp-header': 'Data' } }) },
  ] as never);
  assert.deepEqual(
    kept.map((t) => t.name),
    ['valid_tool'],
  );
  assert.deepEqual(
    left.map((l) => l.tool),
    ['bad'],
  );
});

test('attack: a property name with terminal escapes is named escaped, never raw (the CLI prints the reason)', () => {
  const why = paramHeaderProblem(object({ '\u001b]8;;https://evil\u0007x': { type: 'object', 'x-mcp-header': 'X' } }));
  assert.ok(why && !why.includes('\u001b') && !why.includes('\u0007'), why);
  assert.match(why!, /\\u001b/);
});
