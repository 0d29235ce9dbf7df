import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { initialValues, parseFormSchema, parseTyped, validateAnswers, withDefaults } from '../../src/core/mcp/clientRequests/formSchema';
import { plainText, safeUrl } from '../../src/core/mcp/clientRequests/serverText';

describe('elicitation form schema', () => {
  test('reads every restricted field kind: titled and untitled enums, the older enumNames, multi-select', () => {
    const fields = parseFormSchema('s', {
      type: 'object',
      properties: {
        color: { type: 'string', oneOf: [{ const: 'r', title: 'Red' }, { const: 'g', title: 'Green' }], default: 'g' },
        size: { type: 'string', enum: ['s', 'l'], enumNames: ['Small', 'Large'] },
        tags: { type: 'array', items: { anyOf: [{ const: 'a', title: 'A' }, { const: 'b', title: 'B' }] }, maxItems: 1, default: ['a'] },
        when: { type: 'string', format: 'date' },
      },
      required: ['size'],
    });
    assert.deepEqual(fields.map((f) => f.kind), ['enum', 'enum', 'multi', 'string']);
    assert.deepEqual(fields[1]!.kind === 'enum' && fields[1]!.options, [{ value: 's', label: 'Small' }, { value: 'l', label: 'Large' }]);
    assert.deepEqual(initialValues(fields), { color: 'g', tags: ['a'] });
    assert.deepEqual(validateAnswers(fields, { tags: ['a', 'b'], when: '2026-13-45' }), { size: 'size is required', tags: 'tags: choose at most 1', when: 'when: must be a date (YYYY-MM-DD)' });
    assert.deepEqual(withDefaults(fields, { size: 'l' }), { color: 'g', size: 'l', tags: ['a'] });
  });

  test('a bad schema names the server and the field', () => {
    assert.throws(() => parseFormSchema('srv', { type: 'object', properties: { x: { type: 'null' } } }), /server "srv" .*field "x": type "null" is not one of/);
    assert.throws(() => parseFormSchema('srv', { type: 'object', properties: {}, required: ['ghost'] }), /field "ghost": is required but not defined/);
    assert.throws(() => parseFormSchema('srv', { type: 'object', properties: { e: { type: 'string', enum: ['a'], default: 'z' } } }), /field "e": "default" is not one of its options/);
    assert.throws(() => parseFormSchema('srv', { type: 'object', properties: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`f${i}`, { type: 'string' }])) }), /51 fields \(at most 50\)/);
    assert.throws(() => parseFormSchema('srv', { type: 'array' }), /not an object schema/);
  });

  test('an answer with a field the form does not have is refused', () => {
    const fields = parseFormSchema('s', { type: 'object', properties: { a: { type: 'boolean' } } });
    assert.deepEqual(validateAnswers(fields, { a: true, __proto__x: 1 }), { __proto__x: '"__proto__x" is not a field of this form' });
    assert.equal(parseTyped(fields[0]!, 'yes'), true);
  });
});

describe('server text', () => {
  test('control characters and bidirectional overrides are dropped; long text is cut with a note', () => {
    assert.equal(plainText('ok\u202Egnp.exe\u0007', 100), 'okgnp.exe');
    assert.equal(plainText('x'.repeat(20), 5), 'xxxxx… (cut: 20 characters)');
  });
  test('only http(s) URLs without credentials are accepted', () => {
    assert.deepEqual(safeUrl('https://a.example:8443/p?q=1'), { href: 'https://a.example:8443/p?q=1', host: 'a.example:8443' });
    assert.match((safeUrl('javascript:alert(1)') as { refused: string }).refused, /only http and https/);
    assert.match((safeUrl('data:text/html,<script>') as { refused: string }).refused, /only http and https/);
    assert.match((safeUrl('https://user:pw@evil.example/') as { refused: string }).refused, /user name or password/);
  });
});
