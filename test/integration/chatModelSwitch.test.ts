// Issue 53 item 12: a model switched mid-chat is marked in the transcript (and so in the export), where
// the next message goes to the other model; the same model again, or a reopened chat, adds no mark.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { ChatRouter } from '../../src/core/chat/router';
import { FileConversationStore } from '../../src/core/chat/conversation/fileConversationStore';
import { TurnRunner } from '../../src/core/chat/turns';
import { OpenAICompatibleModel } from '../../src/core/models/openai';
import { ToolRegistry } from '../../src/core/toolRegistry/toolRegistry';
import { isTranscriptItem } from '../../src/shared/validate';
import { chatView, quietActions } from '../chatHarness';
import { offerOf } from '../helpers';
import { startMockModel } from '../mockModel';

const dir = mkdtempSync(join(tmpdir(), 'minagent-model-switch-'));
const stores: FileConversationStore[] = [];
// Saves run behind the turn; the folder goes once each has ended (CI once found a file still being written).
after(async () => {
  await Promise.all(stores.map((s) => s.settled()));
  rmSync(dir, { recursive: true, force: true });
});

test('switching the model between messages puts a notice before the next message, kept after a reload and in the export', async () => {
  const m = await startMockModel([{ text: 'one' }, { text: 'two' }, { text: 'three' }, { text: 'four' }]);
  const models = [
    { id: 'a', label: 'mock-model · localhost' },
    { id: 'b', label: 'second-model · OpenRouter' },
  ];
  let selected = 'a';
  const exported: string[] = [];
  const open = () => {
    const registry = new ToolRegistry();
    const runner = new TurnRunner({
      registry,
      createModel: async () => new OpenAICompatibleModel({ baseUrl: `http://127.0.0.1:${m.port}/v1`, model: selected }),
      modelName: () => models.find((x) => x.id === selected)?.label,
      agentOptions: () => ({ system: 'sys', maxSteps: 2 }),
      offer: offerOf(registry),
      preapproval: () => 'test',
      ask: async () => true,
    });
    const actions = quietActions({
      meta: () => ({ models, selectedModel: selected }),
      selectModel: async (id) => void (selected = id),
      openText: async (text) => void exported.push(text),
    });
    const store = new FileConversationStore(dir);
    stores.push(store);
    return { runner, router: new ChatRouter(store, runner, actions) };
  };
  const shown = async (router: ChatRouter) =>
    (await router.current()).items.map((i) =>
      i.kind === 'user' || i.kind === 'assistant' || i.kind === 'notice' ? `${i.kind}: ${i.text}` : i.kind,
    );

  const first = open();
  const v = chatView(first.router);
  await v.send({ type: 'ready' });
  await v.send({ type: 'send', text: 'hello' });
  await first.runner.idle();
  await v.send({ type: 'selectModel', id: 'b' });
  await v.send({ type: 'send', text: 'and you?' });
  await first.runner.idle();
  assert.deepEqual(
    m.requests.map((r) => r.body.model),
    ['a', 'b'],
  );
  assert.deepEqual(await shown(first.router), [
    'user: hello',
    'assistant: one',
    'notice: Model changed: this message and what follows go to second-model · OpenRouter (before: mock-model · localhost).',
    'user: and you?',
    'assistant: two',
  ]);
  assert.ok((await first.router.current()).items.every(isTranscriptItem), "the webview's check takes every item");

  // Picking the same model again, or picking another and back before sending, marks nothing.
  await v.send({ type: 'selectModel', id: 'a' });
  await v.send({ type: 'selectModel', id: 'b' });
  await v.send({ type: 'send', text: 'still you' });
  await first.runner.idle();
  assert.equal((await shown(first.router)).filter((s) => s.startsWith('notice')).length, 1);

  // A reload: the chat remembers which model answered last.
  const second = open();
  const v2 = chatView(second.router);
  await v2.send({ type: 'ready' });
  selected = 'a';
  await v2.send({ type: 'send', text: 'back to the first' });
  await second.runner.idle();
  assert.deepEqual((await shown(second.router)).slice(-3), [
    'notice: Model changed: this message and what follows go to mock-model · localhost (before: second-model · OpenRouter).',
    'user: back to the first',
    'assistant: four',
  ]);
  await v2.send({ type: 'export' });
  assert.match(
    exported.at(-1)!,
    /> info: Model changed: this message and what follows go to second-model · OpenRouter \(before: mock-model · localhost\)\.\n\n## You\n\nand you\?/,
  );
});
