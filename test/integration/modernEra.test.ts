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
import { SERVERS } from '../helpers';

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
