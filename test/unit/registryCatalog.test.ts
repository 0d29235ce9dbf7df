// A registry's catalog between sessions: read in full once, then only what changed since the newest
// change seen (updated_since), merged by name; read again at most once a day unless asked; and an
// organisation's allowlist of names and globs.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ListOptions, Listing } from '../../src/core/serverRegistry/client';
import { allowedBy, DAILY_MS, due, refreshCatalog } from '../../src/core/serverRegistry/catalog';
import type { RegistryServer } from '../../src/core/serverRegistry/serverJson';

const server = (name: string, version: string, updatedAt: string): RegistryServer => ({
  server: { name, description: 'x', version },
  meta: { updatedAt, isLatest: true },
});

test('the first read is whole; the next asks only for what changed since the newest change seen, and merges it by name', async () => {
  const asked: ListOptions[] = [];
  const pages: Listing[] = [
    {
      servers: [server('a/one', '1.0.0', '2026-09-01T00:00:00Z'), server('a/two', '2.0.0', '2026-09-03T00:00:00Z')],
      skipped: [],
      truncated: false,
    },
    {
      servers: [server('a/one', '1.1.0', '2026-10-01T00:00:00Z')],
      skipped: ['server "a/bad": description: too long'],
      truncated: false,
    },
  ];
  const list = async (o: ListOptions) => (asked.push(o), pages.shift()!);
  const first = await refreshCatalog(undefined, 'https://r.example/', list, 1_000);
  assert.deepEqual(asked[0], {});
  assert.equal(first.state.updatedSince, '2026-09-03T00:00:00Z');
  const second = await refreshCatalog(first.state, 'https://r.example/', list, 2_000);
  assert.deepEqual(asked[1], { updatedSince: '2026-09-03T00:00:00Z' });
  assert.deepEqual(
    second.state.servers.map((s) => `${s.server.name}@${s.server.version}`),
    ['a/one@1.1.0', 'a/two@2.0.0'],
  );
  assert.deepEqual(second.skipped, ['server "a/bad": description: too long']);
  assert.equal(second.state.checkedAt, 2_000);
  // Another registry URL: read whole again.
  pages.push({ servers: [], skipped: [], truncated: false });
  await refreshCatalog(second.state, 'https://other.example/', list);
  assert.deepEqual(asked[2], {});
});

test('a catalog is due once a day', () => {
  assert.equal(due(undefined), true);
  assert.equal(due({ url: 'u', servers: [], checkedAt: 0 }, DAILY_MS - 1), false);
  assert.equal(due({ url: 'u', servers: [], checkedAt: 0 }, DAILY_MS), true);
});

test('an allowlist keeps names and globs only; none keeps everything', () => {
  assert.equal(allowedBy(undefined, 'io.github.x/y'), true);
  assert.equal(allowedBy([], 'io.github.x/y'), true);
  assert.equal(allowedBy(['io.github.my-org/*'], 'io.github.my-org/tool'), true);
  assert.equal(allowedBy(['io.github.my-org/*'], 'io.github.my-org-evil/tool'), false);
  assert.equal(allowedBy(['com.example/exact'], 'com.example/exact'), true);
  assert.equal(allowedBy(['com.example/exact'], 'com.example/exactly'), false);
  assert.equal(allowedBy(['io.github.*/time'], 'io.github.a/time'), true);
});
