// Issue 53 item 4: with deferred tools, MinAgent's own search_tools is no server's result, so a
// read-only tool found by it still runs unasked; a read through MinAgent's read_resource still counts
// as the server it read, and the reason the next read-only call asks names that server plainly.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import type { ApprovalRequest } from '../../src/core/agentTypes/events';
import { ApprovalPolicy } from '../../src/core/approvals/approvalPolicy';
import { ChatRouter } from '../../src/core/chat/router';
import { FileConversationStore } from '../../src/core/chat/conversation/fileConversationStore';
import { TurnRunner } from '../../src/core/chat/turns';
import { ServerHub } from '../../src/core/mcp/hub/serverHub';
import { OpenAICompatibleModel } from '../../src/core/models/openai';
import { SEARCH_TOOL } from '../../src/core/toolSearch/deferral';
import { ToolIndex } from '../../src/core/toolSearch/toolIndex';
import { ToolOffer } from '../../src/core/toolSearch/toolOffer';
import type { ToolCard } from '../../src/shared/protocol';
import { chatView, oneModel, quietActions } from '../chatHarness';
import { fixture } from '../helpers';
import { startMockModel } from '../mockModel';

const dir = mkdtempSync(join(tmpdir(), 'minagent-ro-search-'));
after(() => rmSync(dir, { recursive: true, force: true, maxRetries: 5 }));

test('after a tool search a read-only tool runs unasked; after read_resource from another server it asks and names that server', {
  timeout: 60_000,
}, async () => {
  const hub = new ServerHub();
  after(() => hub.closeAll());
  hub.reconcile([fixture('research', 'research.mjs'), fixture('library', 'library.mjs')]);
  await hub.whenIdle();
  const m = await startMockModel([
    { toolCalls: [{ name: SEARCH_TOOL, arguments: { query: 'echo text back' } }] },
    { toolCalls: [{ name: 'echo', arguments: { text: 'hello' } }] },
    { text: 'done' },
    { toolCalls: [{ name: 'read_resource', arguments: { server: 'library', uri: 'library://notes/readme' } }] },
    { toolCalls: [{ name: 'echo', arguments: { text: 'Welcome' } }] },
    { text: 'done again' },
  ]);
  // The policy the editor and the CLI use, in its default mode (read-only tools run unasked).
  const policy = new ApprovalPolicy(
    { server: (name) => hub.server(name)?.config, mode: () => 'readOnly', trusted: () => true },
    { get: (_k, d) => d, update: async () => undefined },
  );
  const asked: ApprovalRequest[] = [];
  const runner = new TurnRunner({
    registry: hub.registry,
    createModel: async () => new OpenAICompatibleModel({ baseUrl: `http://127.0.0.1:${m.port}/v1`, model: 'mock' }),
    agentOptions: () => ({ system: 'sys', maxSteps: 5 }),
    // Deferred whatever the size, as a large set of servers would be.
    offer: new ToolOffer({
      registry: hub.registry,
      index: new ToolIndex(hub.registry),
      settings: () => ({ share: 0, maxLoaded: 32 }),
    }),
    preapproval: (req) => policy.preapproval(req),
    askNote: (req) => policy.askNote(req),
    ask: async (req) => {
      asked.push(req);
      return true;
    },
  });
  const router = new ChatRouter(new FileConversationStore(dir), runner, quietActions({ meta: oneModel('mock') }));
  const v = chatView(router);
  await v.send({ type: 'ready' });
  const cards = async () =>
    (await router.current()).items.flatMap((i) => (i.kind === 'tool' ? [(i as { card: ToolCard }).card] : []));

  await v.send({ type: 'send', text: 'echo hello' });
  await runner.idle();
  let shown = await cards();
  assert.deepEqual(
    shown.map((c) => [c.name, c.status]),
    [
      [SEARCH_TOOL, 'done'],
      ['echo', 'done'],
    ],
  );
  assert.deepEqual(
    asked.map((r) => r.name),
    [],
    "nothing asked: the search is no server's result",
  );
  assert.match(shown[1]!.approval ?? '', /declared this tool read-only/);

  await v.send({ type: 'send', text: 'read the readme and echo it' });
  await runner.idle();
  shown = await cards();
  assert.deepEqual(
    shown.slice(2).map((c) => [c.name, c.server, c.status]),
    [
      ['read_resource', 'library', 'done'],
      ['echo', 'research', 'done'],
    ],
  );
  assert.deepEqual(
    asked.map((r) => r.name),
    ['read_resource', 'echo'],
    "read_resource asks (not read-only); then echo asks: the model read library's resource",
  );
  assert.equal(
    shown[3]!.approval,
    'Asks although its server calls it read-only: this conversation holds results from server "library", and its arguments could carry them to "research".',
  );
});
