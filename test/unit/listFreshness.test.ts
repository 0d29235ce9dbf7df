// A list's TTL (2026-07-28 `ttlMs`) read as the revision says: none given is no hint, a bad one is stale at once, the
// shortest page wins, and no server pins a list past a day.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ListFreshness, MAX_LIST_TTL_MS, pageTtl, shorterTtl } from '../../src/core/mcp/features/freshness';

test("a page's ttlMs: absent is no hint, invalid or negative is stale at once, a huge one is capped at a day", () => {
  assert.equal(pageTtl({ tools: [] }), undefined);
  assert.equal(pageTtl({ ttlMs: 1500 }), 1500);
  assert.equal(pageTtl({ ttlMs: 0 }), 0);
  for (const bad of [-5, '60000', null, Number.NaN, Number.POSITIVE_INFINITY, {}])
    assert.equal(pageTtl({ ttlMs: bad }), 0);
  assert.equal(pageTtl({ ttlMs: 10 * MAX_LIST_TTL_MS }), MAX_LIST_TTL_MS);
  assert.equal(pageTtl(null), undefined);
});

test('the TTL of a list of pages is the shortest a page gave', () => {
  assert.equal(shorterTtl(undefined, undefined), undefined);
  assert.equal(shorterTtl(undefined, 300), 300);
  assert.equal(shorterTtl(900, undefined), 900);
  assert.equal(shorterTtl(900, 300), 300);
});

test('a list goes stale when its TTL runs out; one without a TTL never does by time', () => {
  let now = 1_000;
  const lists = new ListFreshness<'tools' | 'prompts'>(() => now);
  lists.fetched('tools', 500);
  lists.fetched('prompts', undefined);
  assert.equal(lists.stale('tools'), false);
  now += 499;
  assert.equal(lists.stale('tools'), false);
  now += 1;
  assert.equal(lists.stale('tools'), true);
  now += 10 * MAX_LIST_TTL_MS;
  assert.equal(lists.stale('prompts'), false);
  lists.fetched('tools', 0);
  assert.equal(lists.stale('tools'), true, 'ttlMs 0: stale at once');
  lists.fetched('tools', undefined);
  assert.equal(lists.stale('tools'), false, 'listed again without a TTL: no hint any more');
});
