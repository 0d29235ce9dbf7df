// The official reference servers from npm, started from node_modules, side by side in one hub.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { ServerHub } from '../../src/core/mcp/hub/serverHub';
import { reference } from '../helpers';

describe('reference servers', () => {
  const hub = new ServerHub();
  after(() => hub.closeAll());
  const dir = mkdtempSync(join(tmpdir(), 'minagent-ref-'));
  writeFileSync(join(dir, 'notes.txt'), 'hello from the filesystem server\n');

  test('everything, filesystem and memory connect side by side and each answers a call', async () => {
    hub.reconcile([
      reference('everything', 'server-everything', ['stdio']),
      reference('filesystem', 'server-filesystem', [dir]),
      reference('memory', 'server-memory', [], { MEMORY_FILE_PATH: join(dir, 'memory.jsonl') }),
    ]);
    await hub.whenIdle();
    for (const s of hub.servers()) assert.equal(s.state.kind, 'running', `${s.name}: ${JSON.stringify(s.state)}`);

    assert.match(await hub.registry.call('echo', { message: 'ping' }), /ping/);
    const fileTool = hub.registry.names().includes('read_text_file') ? 'read_text_file' : 'read_file';
    assert.match(
      await hub.registry.call(fileTool, { path: join(dir, 'notes.txt') }),
      /hello from the filesystem server/,
    );
    const created = await hub.registry.call('create_entities', {
      entities: [{ name: 'MinAgent', entityType: 'project', observations: ['an MCP agent panel'] }],
    });
    assert.doesNotMatch(created, /^\{"error"/);
    assert.match(await hub.registry.call('read_graph', {}), /an MCP agent panel/);

    // Every tool has a real schema, as the model will see it.
    for (const t of hub.registry.list()) assert.equal((t.parameters as { type?: string }).type, 'object', t.name);
  });

  test('a second instance of the same server shows the conflict policy at work', async () => {
    hub.reconcile([...hub.servers().map((s) => s.config), reference('everything2', 'server-everything', ['stdio'])]);
    await hub.whenIdle();
    const first = hub.servers().find((s) => s.name === 'everything')!;
    const second = hub.servers().find((s) => s.name === 'everything2')!;
    assert.equal(second.state.kind, 'running');
    assert.ok(
      first.tools.some((t) => t.name === 'echo'),
      'the first instance keeps plain names',
    );
    assert.ok(
      second.tools.length > 0 && second.tools.every((t) => t.name.startsWith('everything2.') && t.renamed),
      'the second is prefixed as a whole, and marked',
    );
    assert.equal(second.tools.length, first.tools.length);
    assert.match(await hub.registry.call('everything2.echo', { message: 'from the twin' }), /from the twin/);
    assert.equal(hub.registry.wireName('everything2.echo'), 'everything2__echo');
  });
});
