import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assignNames } from '../../src/core/mcp/tools/naming';
import { toWireName, WIRE_NAME_PATTERN, WireNames } from '../../src/core/toolRegistry/wireNames';

const seed = [
  { server: 'research', tools: ['echo', 'search_corpus', 'word_count'] },
  { server: 'analytics', tools: ['echo', 'row_count'] },
];

test('prefix: a later server with any clash is namespaced as a whole, and says why', () => {
  const { assignments, problems } = assignNames(seed, 'prefix');
  assert.deepEqual(
    assignments.map((a) => a.name),
    ['echo', 'search_corpus', 'word_count', 'analytics.echo', 'analytics.row_count'],
  );
  assert.equal(assignments[3]!.renamed, 'prefixed because "echo" already belonged to an earlier server');
  assert.equal(assignments[0]!.renamed, undefined);
  assert.deepEqual(problems, []);
});

test('names follow settings order, not arrival order', () => {
  const reversed = assignNames([...seed].reverse(), 'prefix').assignments.map((a) => a.name);
  assert.deepEqual(reversed, ['echo', 'row_count', 'research.echo', 'research.search_corpus', 'research.word_count']);
});

test('duplicates across three servers all survive under distinct names', () => {
  const three = [
    { server: 'a', tools: ['x'] },
    { server: 'b', tools: ['x'] },
    { server: 'c', tools: ['x', 'b.x'] },
  ];
  const { assignments } = assignNames(three, 'prefix');
  const names = assignments.map((a) => a.name);
  assert.deepEqual(names, ['x', 'b.x', 'c.x', 'c.b.x']);
  const clash = assignNames(
    [
      { server: 'a', tools: ['b.x'] },
      { server: 'b', tools: ['x', 'y'] },
      { server: 'q', tools: ['y'] },
    ],
    'prefixAll',
  );
  assert.equal(
    new Set(clash.assignments.map((a) => a.name)).size,
    clash.assignments.length,
    'never two tools under one name',
  );
  const taken = assignNames(
    [
      { server: 'a', tools: ['b.x'] },
      { server: 'b', tools: ['x'] },
    ],
    'prefixAll',
  );
  assert.deepEqual(
    taken.assignments.map((a) => a.name),
    ['a.b.x', 'b.x'],
  );
  const collide = assignNames(
    [
      { server: 'b', namespace: 'b', tools: ['x'] },
      { server: 'c', namespace: 'b', tools: ['x'] },
    ],
    'prefix',
  );
  assert.deepEqual(
    collide.assignments.map((a) => a.name),
    ['b.x', 'b.x~2'],
  );
  assert.match(collide.problems[0]!.message, /registered as "b\.x~2"/);
});

test('error refuses only the clashing tools; prefixAll prefixes everything', () => {
  const err = assignNames(seed, 'error');
  assert.deepEqual(
    err.assignments.map((a) => a.name),
    ['echo', 'search_corpus', 'word_count', 'row_count'],
  );
  assert.equal(err.problems.length, 1);
  assert.equal(err.problems[0]!.tool, 'echo');
  assert.deepEqual(
    assignNames(seed, 'prefixAll')
      .assignments.map((a) => a.name)
      .slice(0, 2),
    ['research.echo', 'research.search_corpus'],
  );
});

test('wire names are valid, deterministic, unique and map back', () => {
  assert.equal(toWireName('analytics.echo'), 'analytics__echo');
  assert.equal(toWireName('has space'), 'has_space');
  const long = `server.${'t'.repeat(100)}`;
  const wire = toWireName(long);
  assert.equal(wire.length, 64);
  assert.match(wire, WIRE_NAME_PATTERN);
  assert.equal(toWireName(long), wire, 'deterministic');

  const names = ['a.b', 'a__b', 'a_b', 'ünï', long, `server.${'t'.repeat(99)}u`];
  const map = new WireNames(names);
  const wires = names.map((n) => map.wire(n)!);
  assert.equal(new Set(wires).size, names.length);
  for (const [i, w] of wires.entries()) {
    assert.match(w, WIRE_NAME_PATTERN);
    assert.equal(map.name(w), names[i]);
  }
  assert.equal(map.name('a.b'), 'a.b', 'registry names are accepted too');
  assert.equal(map.name('nope'), undefined);
});
