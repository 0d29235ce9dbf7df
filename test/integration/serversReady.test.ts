// A turn sent while servers start waits for them (bounded), so the model is shown their tools and is
// not told they do not exist (a message sent right after a window reload).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { serversReady } from '../../src/core/chat/serversReady';
import { DEFAULT_HUB_SETTINGS } from '../../src/core/mcp/config/hubSettings';
import { ServerHub } from '../../src/core/mcp/hub/serverHub';
import { fixture, httpFixtureWithMethods } from '../helpers';

test('a turn waits for a starting server and then has its tools; one that never answers is shown while waited for and named after the bound; Stop ends the wait', async () => {
  const hub = new ServerHub({ settings: { ...DEFAULT_HUB_SETTINGS, connectTimeoutMs: 60_000 } });
  try {
    hub.reconcile([fixture('research', 'research.mjs')]);
    assert.equal(hub.servers()[0]!.state.kind, 'starting');
    assert.equal(await serversReady(hub, new AbortController().signal), undefined);
    assert.ok(hub.registry.get('echo'), 'its tools are there when the wait ends');

    hub.reconcile([fixture('research', 'research.mjs'), fixture('silent', 'faulty.mjs', ['never-init'])]);
    const began = Date.now();
    const shown: string[][] = [];
    assert.equal(
      await serversReady(hub, new AbortController().signal, {
        waitMs: 500,
        showAfterMs: 100,
        onWaiting: (names) => shown.push(names),
      }),
      'Sent without the tools of silent: still starting after 1 s.',
    );
    assert.deepEqual(shown, [['silent']], 'the user is told, once, which server the turn waits for');
    assert.ok(Date.now() - began < 5_000, 'bounded');

    const stop = new AbortController();
    setTimeout(() => stop.abort(), 100);
    const stopped = Date.now();
    assert.equal(await serversReady(hub, stop.signal, { waitMs: 60_000 }), undefined);
    assert.ok(Date.now() - stopped < 5_000, 'Stop ends the wait');
  } finally {
    await hub.closeAll();
  }
});

test('a turn lists again only what is stale: a list still fresh, or one whose server tells its changes, is not asked for again', async () => {
  const fresh = await httpFixtureWithMethods('modern-only.mjs', ['--http', '--ttl', '60000']);
  // The SDK's server stamps ttlMs 0 on every list, and says it tells of changes (listChanged).
  const telling = await httpFixtureWithMethods('modern-only.mjs', ['--http']);
  const hub = new ServerHub();
  const lists = (methods: string[]) => methods.filter((m) => m === 'POST tools/list').length;
  try {
    hub.reconcile([
      { name: 'fresh', type: 'http', url: fresh.url, headers: {}, autoApprove: [] },
      { name: 'telling', type: 'http', url: telling.url, headers: {}, autoApprove: [] },
    ]);
    await hub.whenIdle();
    const before = [lists(fresh.methods), lists(telling.methods)];
    assert.deepEqual(before, [1, 1]);
    assert.equal(await hub.registry.call('modern_unlock', {}), 'unlocked');
    assert.equal(await serversReady(hub, new AbortController().signal), undefined);
    assert.deepEqual([lists(fresh.methods), lists(telling.methods)], before, 'no list asked for again');
    assert.equal(hub.registry.get('modern_unlocked'), undefined, 'a fresh list is kept as it is');
  } finally {
    await hub.closeAll();
    fresh.child.stdin!.end();
    telling.child.stdin!.end();
  }
});
