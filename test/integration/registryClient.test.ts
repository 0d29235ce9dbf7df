// The registry client against a local registry serving the v0.1 API (fixtures/registry): every page
// followed, search, updated_since, one version and every version, and the bounds that hold against a
// hostile registry (a document that breaks the rules is left out and named; an answer too large is
// not read; a registry that does not answer in time is named).
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { DEFAULT_REGISTRY_LIMITS, parseRegistryUrl, RegistryClient } from '../../src/core/serverRegistry/client';
import { ROOT } from '../helpers';

interface Fixture {
  url: string;
  requests: string[];
  close(): Promise<void>;
}
const FIXTURES = join(ROOT, 'fixtures', 'registry');
const start = async (dirs: string[], pageSize = 3): Promise<Fixture> =>
  ((await import(join(FIXTURES, 'registry.mjs'))) as { startRegistry(o: object): Promise<Fixture> }).startRegistry({
    dirs,
    pageSize,
  });

describe('a registry client', () => {
  let registry: Fixture;
  before(async () => (registry = await start([join(FIXTURES, 'servers')])));
  after(() => registry.close());

  test('lists the latest version of every server, following each page', async () => {
    registry.requests.length = 0;
    const listing = await new RegistryClient(registry.url).list();
    assert.deepEqual(listing.servers.map((s) => `${s.server.name}@${s.server.version}`).sort(), [
      'com.example.mcp/weather@1.4.0',
      'io.github.modelcontextprotocol/server-everything@2026.8.31',
      'io.github.modelcontextprotocol/server-filesystem@2026.8.31',
      'io.github.modelcontextprotocol/server-github@2025.4.8',
      'io.github.modelcontextprotocol/server-memory@2026.8.31',
      'io.github.modelcontextprotocol/server-time@2026.5.2',
    ]);
    assert.equal(registry.requests.length, 2, `two pages of three: ${registry.requests.join(', ')}`);
    assert.match(registry.requests[1]!, /cursor=/);
    assert.ok(listing.servers.every((s) => s.meta.isLatest === true));
  });

  test('search and updated_since narrow the list', async () => {
    const client = new RegistryClient(registry.url);
    assert.deepEqual(
      (await client.list({ search: 'memory' })).servers.map((s) => s.server.version),
      ['2026.8.31'],
    );
    assert.deepEqual(
      (await client.list({ updatedSince: '2026-08-31T11:30:00Z' })).servers.map((s) => s.server.name).sort(),
      ['com.example.mcp/weather', 'io.github.modelcontextprotocol/server-filesystem'],
    );
  });

  test('one version, the latest, and every version of a server', async () => {
    const client = new RegistryClient(`${registry.url}v0.1`);
    assert.equal(
      (await client.version('io.github.modelcontextprotocol/server-memory', '2026.7.4')).server.version,
      '2026.7.4',
    );
    assert.equal((await client.version('io.github.modelcontextprotocol/server-memory')).server.version, '2026.8.31');
    assert.deepEqual(
      (await client.versions('io.github.modelcontextprotocol/server-memory')).servers
        .map((s) => s.server.version)
        .sort(),
      ['2026.7.4', '2026.8.31'],
    );
    await assert.rejects(client.version('io.example/none'), /not found \(404\)/);
  });

  test('a registry URL must be https (http only on this machine) and hold no credentials', () => {
    assert.match(String(parseRegistryUrl('http://registry.example.com/')), /must be https/);
    assert.match(String(parseRegistryUrl('https://user:pw@registry.example.com/')), /must not hold credentials/);
    assert.equal(String(parseRegistryUrl('https://registry.example.com/v0.1')), 'https://registry.example.com/');
  });
});

describe('a hostile registry', () => {
  test('a document that breaks the rules is left out and named; the rest of the page is kept', async () => {
    const registry = await start([join(FIXTURES, 'hostile')], 10);
    try {
      const listing = await new RegistryClient(registry.url).list();
      assert.deepEqual(listing.servers.map((s) => s.server.name).sort(), [
        'com.example.hostile/env-exfiltration',
        'com.example.hostile/escapes',
        'com.example.hostile/option-injection',
      ]);
      assert.equal(listing.skipped.length, 1);
      assert.match(listing.skipped[0]!, /server "com\.example\.hostile\/huge": description/);
    } finally {
      await registry.close();
    }
  });

  test('an answer larger than the bound is not read; a registry that does not answer in time is named; a redirect is not followed', async () => {
    let mode = 'big';
    const server = createServer((_req, res) => {
      if (mode === 'big') res.end(JSON.stringify({ servers: [], pad: 'x'.repeat(2_000_000) }));
      else if (mode === 'redirect') res.writeHead(302, { location: 'http://127.0.0.1:1/' }).end();
      // silent: never answers
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/`;
    try {
      await assert.rejects(
        new RegistryClient(url, { ...DEFAULT_REGISTRY_LIMITS, bodyBytes: 1_000_000 }).list(),
        /the answer is larger than 1 MB; not read/,
      );
      mode = 'silent';
      await assert.rejects(
        new RegistryClient(url, { ...DEFAULT_REGISTRY_LIMITS, timeoutMs: 300 }).list(),
        /did not answer within 0\.3 s/,
      );
      mode = 'redirect';
      await assert.rejects(new RegistryClient(url).list(), /cannot reach/);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
