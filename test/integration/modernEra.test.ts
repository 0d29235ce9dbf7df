// The server features in the 2026-07-28 era: instructions from server/discover, subscriptions through
// subscriptions/listen, list changes on the listen stream. The same ServerFeatures the source uses,
// on an SDK client that negotiates the modern era with the library fixture (which speaks both).
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { silentLogger } from '../../src/core/base/logger';
import { isFeatureError } from '../../src/core/mcp/features/featureTypes';
import { ServerFeatures } from '../../src/core/mcp/features/features';
import { httpFixtureWithMethods, loggerInto, SERVERS, waitFor } from '../helpers';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

describe('2026-07-28 era', { timeout: 60_000 }, () => {
  // As in the source: the features exist first and give the client its list-change handlers.
  const features: ServerFeatures = new ServerFeatures(
    'modern',
    { server: 'modern', local: true },
    { client: () => client, timeoutMs: () => 10_000, describe: async (e) => String(e), log: silentLogger },
  );
  const client: Client = new Client(
    { name: 'minagent-test', version: '0' },
    { versionNegotiation: { mode: 'auto' }, listChanged: features.listChangedOptions() },
  );
  after(async () => {
    features.dispose();
    await client.close();
  });

  test('lists, reads, gets, completes, hears updates and list changes, with no initialize at all', async () => {
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [join(SERVERS, 'library.mjs')],
        env: { ...process.env, LIBRARY_LABEL: 'modern' } as Record<string, string>,
        stderr: 'ignore',
      }),
    );
    assert.equal(client.getProtocolEra(), 'modern');
    await features.load(client);
    assert.equal(features.instructions, 'Cite modern notes by their URI.', 'instructions come from server/discover');
    assert.equal(features.info.title, 'The modern Library');
    assert.deepEqual(
      features.resources.map((r) => r.uri),
      ['library://notes/readme', 'library://notes/guide'],
    );
    assert.deepEqual(
      features.prompts.map((p) => p.remoteName),
      ['summarize'],
    );

    const read = await features.read('library://notes/readme');
    assert.ok(!isFeatureError(read));
    assert.equal(read.contents[0]!.text, 'Welcome to the modern.');
    const completion = await features.complete({ type: 'ref/prompt', name: 'summarize' }, { name: 'note', value: 'r' });
    assert.ok(!isFeatureError(completion));
    assert.deepEqual(completion.values, ['readme']);

    const sub = await features.subscribe('library://notes/guide');
    assert.ok(!isFeatureError(sub), JSON.stringify(sub));
    const updated = new Promise<string>((resolve) => features.onDidUpdateResource(resolve));
    await client.callTool({ name: 'edit_note', arguments: { id: 'guide', text: 'changed' } });
    assert.equal(await updated, 'library://notes/guide');
    sub.dispose();

    const changed = new Promise<void>((resolve) =>
      features.onDidChange((kind) => kind === 'resources' && features.resources.length === 3 && resolve()),
    );
    await client.callTool({ name: 'add_note', arguments: { id: 'third', text: '3' } });
    await changed;
  });
});

describe('2026-07-28 era over HTTP: resource updates on one listen that comes back', { timeout: 60_000 }, () => {
  test('two resources share one listen; a dropped listen is listened again (after 1 s) and updates arrive', async () => {
    const { url, methods, child } = await httpFixtureWithMethods('library.mjs', [], {
      LIBRARY_HTTP: '1',
      LIBRARY_DROP_LISTEN_FOR: 'library://notes/guide',
    });
    const log: string[] = [];
    const features: ServerFeatures = new ServerFeatures(
      'modern',
      { server: 'modern', local: true },
      { client: () => client, timeoutMs: () => 10_000, describe: async (e) => String(e), log: loggerInto(log) },
    );
    const client: Client = new Client(
      { name: 'minagent-test', version: '0' },
      { versionNegotiation: { mode: 'auto' }, listChanged: features.listChangedOptions() },
    );
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      assert.equal(client.getProtocolEra(), 'modern');
      await features.load(client);
      const listens = () => methods.filter((m) => m === 'POST subscriptions/listen').length;
      const before = listens();
      const a = await features.subscribe('library://notes/readme');
      const b = await features.subscribe('library://notes/guide');
      assert.ok(!isFeatureError(a) && !isFeatureError(b));
      const updates: string[] = [];
      features.onDidUpdateResource((uri) => updates.push(uri));
      const edit = (id: string) => client.callTool({ name: 'edit_note', arguments: { id, text: `changed ${id}` } });
      await edit('guide');
      await edit('readme');
      await waitFor('both updates', () => updates.length === 2, 10_000);
      assert.deepEqual(updates.sort(), ['library://notes/guide', 'library://notes/readme']);
      assert.ok(listens() - before <= 2, `a listen per change of the set, not one per resource: ${listens() - before}`);
      // The listen for the guide alone is the one the server drops right after acknowledging it.
      a.dispose();
      await waitFor(
        'the dropped listen noticed',
        () => log.some((l) => /dropped; listening again in 1 s/.test(l)),
        10_000,
      );
      await waitFor(
        'listening again',
        () => log.some((l) => /listening again for updates of 1 resource/.test(l)),
        10_000,
      );
      updates.length = 0;
      await edit('guide');
      await waitFor('the update after the drop', () => updates.includes('library://notes/guide'), 10_000);
      await edit('readme');
      await new Promise((r) => setTimeout(r, 300));
      assert.ok(!updates.includes('library://notes/readme'), 'an unsubscribed resource is not listened for');
      b.dispose();
    } finally {
      features.dispose();
      await client.close();
      child.stdin!.end();
    }
  });
});
