// The era memory: a server's era is kept by the digest of what it is, outlives the process through
// its store, trusts a 2025 verdict for a week only, and forgets a verdict that failed.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MemorySecretStore } from '../memorySecretStore';
import { EraMemory, LEGACY_HORIZON_MS } from '../../src/core/mcp/connection/eraMemory';

describe('era memory', () => {
  test('a verdict outlives the process through the store, keyed by digest only', async () => {
    const store = new MemorySecretStore();
    new EraMemory(store).remember('stdio:abc123', 'legacy');
    await new Promise((r) => setImmediate(r));
    assert.deepEqual([...store.values.keys()], ['era:stdio:abc123']);
    assert.equal(await new EraMemory(store).recall('stdio:abc123'), 'legacy');
    assert.equal(await new EraMemory(store).recall('stdio:other'), undefined);
  });

  test('a 2025 verdict older than the horizon is probed again; a 2026-07-28 one is kept', async () => {
    let now = 1_000_000;
    const memory = new EraMemory(new MemorySecretStore(), () => now);
    memory.remember('old', 'legacy');
    memory.remember('new', 'modern');
    now += LEGACY_HORIZON_MS + 1;
    assert.equal(await memory.recall('old'), undefined);
    assert.equal(await memory.recall('new'), 'modern');
  });

  test('forget drops the verdict in memory and in the store; a store that fails or holds junk is no verdict', async () => {
    const store = new MemorySecretStore();
    const memory = new EraMemory(store);
    memory.slot('k').remember('legacy');
    memory.slot('k').forget();
    await new Promise((r) => setImmediate(r));
    assert.equal(await memory.recall('k'), undefined);
    assert.equal(store.values.size, 0);
    store.values.set('era:junk', '{not json');
    assert.equal(await new EraMemory(store).recall('junk'), undefined);
    const broken = new EraMemory({
      get: () => Promise.reject(new Error('disk gone')),
      store: () => Promise.reject(new Error('disk gone')),
      delete: () => Promise.reject(new Error('disk gone')),
    });
    broken.remember('x', 'legacy');
    assert.equal(await broken.recall('x'), 'legacy', 'still kept for this process');
    assert.equal(await broken.recall('y'), undefined);
  });
});
