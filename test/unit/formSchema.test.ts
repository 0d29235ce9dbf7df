import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { answerContent, parseFormSchema, parseTyped } from '../../src/core/mcp/clientRequests/formSchema';
import { initialValues, validateAnswers } from '../../src/shared/form';
import { plainText, safeUrl } from '../../src/shared/serverText';

describe('elicitation form schema', () => {
  test('reads every restricted field kind: titled and untitled enums, the older enumNames, multi-select', () => {
    const fields = parseFormSchema('s', {
      type: 'object',
      properties: {
        color: {
          type: 'string',
          oneOf: [
            { const: 'r', title: 'Red' },
            { const: 'g', title: 'Green' },
          ],
          default: 'g',
        },
        size: { type: 'string', enum: ['s', 'l'], enumNames: ['Small', 'Large'] },
        tags: {
          type: 'array',
          items: {
            anyOf: [
              { const: 'a', title: 'A' },
              { const: 'b', title: 'B' },
            ],
          },
          maxItems: 1,
          default: ['a'],
        },
        when: { type: 'string', format: 'date' },
      },
      required: ['size'],
    });
    assert.deepEqual(
      fields.map((f) => f.kind),
      ['enum', 'enum', 'multi', 'string'],
    );
    assert.deepEqual(fields[1]!.kind === 'enum' && fields[1]!.options, [
      { value: 's', label: 'Small' },
      { value: 'l', label: 'Large' },
    ]);
    assert.deepEqual(initialValues(fields), { color: 'g', tags: ['a'] });
    assert.deepEqual(validateAnswers(fields, { tags: ['a', 'b'], when: '2026-13-45' }), {
      size: 'size is required',
      tags: 'tags: choose at most 1',
      when: 'when: must be a date (YYYY-MM-DD)',
    });
    assert.deepEqual(answerContent(fields, { ...initialValues(fields), size: 'l' }), {
      color: 'g',
      size: 'l',
      tags: ['a'],
    });
  });

  test('attack: a field the user cleared, or "(none)", is sent as no value, never as the server\'s default', () => {
    const fields = parseFormSchema('s', {
      type: 'object',
      properties: {
        recipient: { type: 'string', default: 'attacker@evil.example' },
        scope: { type: 'string', enum: ['read', 'admin'], default: 'admin' },
        copies: { type: 'integer', default: 5 },
        tags: { type: 'array', items: { enum: ['a', 'b'] }, default: ['a', 'b'] },
        confirm: { type: 'boolean', default: true },
      },
    });
    // The form opened with every default; the user cleared the text, picked "(none)", emptied the number, unticked
    // every tag and the box.
    const left = { tags: [], confirm: false };
    assert.deepEqual(validateAnswers(fields, left), {});
    assert.deepEqual(answerContent(fields, left), { tags: [], confirm: false });
    // Empty strings (a cleared box that reports "") are no value either.
    assert.deepEqual(answerContent(fields, { recipient: '', scope: '' }), {});
  });

  test('a required field with a default that the user cleared must be filled again: the default does not answer it', () => {
    const fields = parseFormSchema('s', {
      type: 'object',
      properties: {
        branch: { type: 'string', title: 'Branch', default: 'main' },
        env: { type: 'string', title: 'Env', enum: ['dev', 'prod'], default: 'prod' },
      },
      required: ['branch', 'env'],
    });
    assert.deepEqual(validateAnswers(fields, {}), { branch: 'Branch is required', env: 'Env is required' });
    assert.deepEqual(validateAnswers(fields, initialValues(fields)), {});
  });

  test('typed text: Enter at a prompt that offers the default is the default; an emptied prefilled box is no value', () => {
    const [name, tags] = parseFormSchema('s', {
      type: 'object',
      properties: {
        name: { type: 'string', default: 'Ada' },
        tags: { type: 'array', items: { enum: ['a', 'b'] }, default: ['a'] },
      },
    });
    assert.equal(parseTyped(name!, ''), 'Ada');
    assert.deepEqual(parseTyped(tags!, '  '), ['a']);
    assert.equal(parseTyped(name!, '', 'none'), undefined);
    assert.equal(parseTyped(name!, 'Grace', 'none'), 'Grace');
  });

  test('a bad schema names the server and the field', () => {
    assert.throws(
      () => parseFormSchema('srv', { type: 'object', properties: { x: { type: 'null' } } }),
      /server "srv" .*field "x": type "null" is not one of/,
    );
    assert.throws(
      () => parseFormSchema('srv', { type: 'object', properties: {}, required: ['ghost'] }),
      /field "ghost": is required but not defined/,
    );
    assert.throws(
      () =>
        parseFormSchema('srv', { type: 'object', properties: { e: { type: 'string', enum: ['a'], default: 'z' } } }),
      /field "e": "default" is not one of its options/,
    );
    assert.throws(
      () =>
        parseFormSchema('srv', {
          type: 'object',
          properties: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`f${i}`, { type: 'string' }])),
        }),
      /51 fields \(at most 50\)/,
    );
    assert.throws(() => parseFormSchema('srv', { type: 'array' }), /not an object schema/);
  });

  test('an answer with a field the form does not have is refused', () => {
    const fields = parseFormSchema('s', { type: 'object', properties: { a: { type: 'boolean' } } });
    assert.deepEqual(validateAnswers(fields, { a: true, __proto__x: 1 }), {
      __proto__x: '"__proto__x" is not a field of this form',
    });
    assert.equal(parseTyped(fields[0]!, 'yes'), true);
  });
});

describe('server text', () => {
  test('control characters and bidirectional overrides are dropped; long text is cut with a note', () => {
    assert.equal(plainText('ok\u202Egnp.exe\u0007', 100), 'okgnp.exe');
    assert.equal(plainText('x'.repeat(20), 5), 'xxxxx… (cut: 20 characters)');
  });
  test('only http(s) URLs without credentials are accepted', () => {
    assert.deepEqual(safeUrl('https://a.example:8443/p?q=1'), {
      href: 'https://a.example:8443/p?q=1',
      host: 'a.example:8443',
    });
    assert.match((safeUrl('javascript:alert(1)') as { refused: string }).refused, /only http and https/);
    assert.match((safeUrl('data:text/html,<script>') as { refused: string }).refused, /only http and https/);
    assert.match((safeUrl('https://user:pw@evil.example/') as { refused: string }).refused, /user name or password/);
  });
});
