// Server prompts in the chat host, over real stdio servers: the `/` menu's list (named by the
// conflict policy), completions for the argument form, and a prompt's messages (text, images,
// embedded resources) reaching the model as the turn's input. The webview's requests are checked
// like any other message from a view.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ScriptedModel } from '../scriptedModel';
import type { ChatMessage } from '../../src/core/agentTypes/messages';
import { FileConversationStore } from '../../src/core/chat/conversation/fileConversationStore';
import { conversationMarkdown } from '../../src/core/chat/markdown';
import { ChatPrompts } from '../../src/core/chat/prompts';
import { ChatRouter } from '../../src/core/chat/router';
import { TurnRunner } from '../../src/core/chat/turns';
import { ServerHub } from '../../src/core/mcp/hub/serverHub';
import type { HostMessage, PromptChoice } from '../../src/shared/protocol';
import { parseHostMessage } from '../../src/shared/validate';
import { fixture, offerOf } from '../helpers';
import { chatView, oneModel, quietActions } from '../chatHarness';

const dirs: string[] = [];
const hub = new ServerHub();

before(async () => {
  hub.reconcile([
    fixture('alpha', 'library.mjs', [], { env: { LIBRARY_LABEL: 'alpha', LIBRARY_COVER_PROMPT: '1' } }),
    fixture('beta', 'library.mjs', [], { env: { LIBRARY_LABEL: 'beta' } }),
  ]);
  await hub.whenIdle();
});
after(async () => {
  await hub.closeAll();
  dirs.forEach((d) => rmSync(d, { recursive: true, force: true, maxRetries: 5 }));
});

function setup(model: ScriptedModel) {
  const actions = quietActions({ meta: oneModel('fake') });
  const runner = new TurnRunner({
    registry: hub.registry,
    createModel: async () => model,
    agentOptions: () => ({ system: 'sys', maxSteps: 3 }),
    offer: offerOf(hub.registry, true),
    preapproval: () => undefined,
    ask: async () => false,
  });
  const dir = mkdtempSync(join(tmpdir(), 'minagent-prompts-'));
  dirs.push(dir);
  const router = new ChatRouter(
    new FileConversationStore(dir),
    runner,
    actions,
    undefined,
    new ChatPrompts(hub.catalog),
  );
  // Every message the host posts goes through the webview's own check, as in the view.
  const { got, send } = chatView(router, (m) =>
    assert.ok(parseHostMessage(JSON.parse(JSON.stringify(m))), `the webview accepts ${m.type}`),
  );
  return { router, runner, got, send };
}

const userMessages = (messages: ChatMessage[]) => messages.filter((m) => m.role !== 'system');

describe('server prompts in the chat', { timeout: 60_000 }, () => {
  test('a ready view gets every prompt by its registry name, with server, description and arguments', async () => {
    const { got, send } = setup(new ScriptedModel([]));
    await send({ type: 'ready' });
    const list = got.find((m): m is Extract<HostMessage, { type: 'prompts' }> => m.type === 'prompts');
    assert.ok(list, 'the prompts were posted');
    const byName = new Map(list.prompts.map((p) => [p.name, p] as [string, PromptChoice]));
    assert.deepEqual([...byName.keys()], ['summarize', 'cover', 'beta.summarize']);
    assert.deepEqual(byName.get('beta.summarize'), {
      name: 'beta.summarize',
      server: 'beta',
      title: 'Summarize a note',
      description: 'Summarize a note of the beta',
      arguments: [
        { name: 'note', required: true, description: 'The note to summarize' },
        { name: 'style', required: false, description: 'How to write it' },
      ],
    });
  });

  test('completions for an argument come from the server the prompt belongs to', async () => {
    const { send } = setup(new ScriptedModel([]));
    const [answer, reply] = await send({
      type: 'completePrompt',
      prompt: 'beta.summarize',
      argument: 'note',
      value: 'g',
      context: {},
    });
    assert.deepEqual(answer, { type: 'completions', requestId: 1, values: ['guide'] });
    assert.deepEqual(reply, { type: 'reply', requestId: 1 });
    const [unknown] = await send({ type: 'completePrompt', prompt: 'nope', argument: 'note', value: '', context: {} });
    assert.deepEqual(unknown, {
      type: 'completions',
      requestId: 2,
      values: [],
      error: 'unknown prompt "nope"; prompts: summarize, cover, beta.summarize',
    });
  });

  test("a prompt's messages are the turn's input: the model gets its text and embedded resource, the transcript shows it as a prompt", async () => {
    const model = new ScriptedModel([{ final: 'Summarized.' }]);
    const { router, runner, got, send } = setup(model);
    await send({ type: 'ready' });
    const [reply] = await send({
      type: 'runPrompt',
      prompt: 'beta.summarize',
      arguments: { note: 'guide', style: 'short' },
    });
    assert.deepEqual(reply, { type: 'reply', requestId: 2 });
    await runner.idle();
    assert.deepEqual(userMessages(model.calls[0]!.messages), [
      { role: 'user', content: 'Summarize note guide of the beta in a short style.' },
      { role: 'user', content: '[resource <library://notes/guide>]\nHow to use the beta: read the notes.' },
    ]);
    const items = (await router.current()).items;
    assert.deepEqual(
      items.map((i) => i.kind),
      ['prompt', 'assistant'],
    );
    assert.deepEqual(items[0], {
      kind: 'prompt',
      id: items[0]!.id,
      name: 'beta.summarize',
      server: 'beta',
      messages: [
        { role: 'user', text: 'Summarize note guide of the beta in a short style.' },
        { role: 'user', text: '[resource <library://notes/guide>]\nHow to use the beta: read the notes.' },
      ],
      // Sent with every tool: nothing deferred (a later switch is marked).
      deferred: false,
    });
    assert.ok(
      got.some((m) => m.type === 'append' && m.item.kind === 'prompt'),
      'the views were told',
    );
    assert.match(conversationMarkdown(await router.current()), /prompt `\/beta\.summarize` \(server beta\)/);
  });

  test('images reach the model beside the text; an SVG never does; an assistant message stays an assistant message', async () => {
    const model = new ScriptedModel([{ final: 'A cover.' }]);
    const { runner, send } = setup(model);
    await send({ type: 'runPrompt', prompt: 'cover', arguments: {} });
    await runner.idle();
    const sent = userMessages(model.calls[0]!.messages);
    assert.equal(sent.length, 4);
    assert.deepEqual(sent[0], {
      role: 'user',
      content: '[image image/png]',
      images: [{ mimeType: 'image/png', data: sent[0]!.role === 'user' ? sent[0]!.images![0]!.data : '' }],
    });
    assert.match((sent[0] as { images: Array<{ data: string }> }).images[0]!.data, /^iVBORw0KGgo/);
    assert.deepEqual(
      sent[1],
      { role: 'user', content: '[image/svg+xml image: not sent]' },
      'an SVG is described, not sent or shown',
    );
    assert.deepEqual(
      sent[2],
      { role: 'assistant', content: '[resource <library://covers/1>, binary]' },
      'an assistant message carries no image',
    );
    assert.deepEqual(sent[3], { role: 'user', content: '[resource link: readme <library://notes/readme>]' });
  });

  test('a missing required argument and an unknown prompt are refused with a clear error; nothing is sent', async () => {
    const model = new ScriptedModel([{ final: 'x' }]);
    const { runner, send } = setup(model);
    assert.deepEqual(await send({ type: 'runPrompt', prompt: 'summarize', arguments: {} }), [
      { type: 'reply', requestId: 1, error: 'prompt "summarize" needs "note"' },
    ]);
    assert.deepEqual(await send({ type: 'runPrompt', prompt: 'nope', arguments: {} }), [
      { type: 'reply', requestId: 2, error: 'unknown prompt "nope"; prompts: summarize, cover, beta.summarize' },
    ]);
    assert.equal(model.calls.length, 0);
    await runner.idle();
  });

  test('a prompt picked while a turn runs is refused before the server is asked', async () => {
    let started!: () => void;
    const running = new Promise<void>((r) => (started = r));
    // A model that answers only when the turn is stopped.
    const hanging = new ScriptedModel([]);
    hanging.chat = (_m, _t, options) =>
      new Promise((_resolve, reject) => {
        started();
        options?.signal?.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
      });
    const { router, runner, send } = setup(hanging);
    void send({ type: 'send', text: 'hello' });
    await running;
    assert.deepEqual(await send({ type: 'runPrompt', prompt: 'summarize', arguments: { note: 'readme' } }), [
      { type: 'reply', requestId: 2, error: 'a turn is already running in this chat; stop it first' },
    ]);
    router.stop();
    await runner.idle();
    assert.deepEqual(
      (await router.current()).items.filter((i) => i.kind === 'prompt'),
      [],
    );
  });

  test('prompt requests a view may not send are dropped: wrong types, oversized values, too many arguments', async () => {
    const model = new ScriptedModel([]);
    const { send } = setup(model);
    for (const bad of [
      { type: 'runPrompt', prompt: 'summarize', arguments: { note: 3 } },
      { type: 'runPrompt', prompt: 'summarize', arguments: ['guide'] },
      { type: 'runPrompt', prompt: '', arguments: {} },
      { type: 'runPrompt', prompt: 'summarize', arguments: { note: 'x'.repeat(100_001) } },
      {
        type: 'runPrompt',
        prompt: 'summarize',
        arguments: Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`a${i}`, 'v'])),
      },
      { type: 'completePrompt', prompt: 'summarize', argument: 'note', value: 'g' },
      { type: 'completePrompt', prompt: 'summarize', argument: 'note', value: 1, context: {} },
      { type: 'completePrompt', prompt: 'x'.repeat(301), argument: 'note', value: '', context: {} },
    ]) {
      assert.deepEqual(await send(bad), [], `dropped without an answer: ${JSON.stringify(bad).slice(0, 80)}`);
    }
    assert.equal(model.calls.length, 0);
  });
});
