// "Add to chat": resources (and filled templates) of a real server attached to the next message,
// sized in tokens by the budget's counter, removable, and given to the model with the message
// (a real OpenAI-compatible provider against the mock model server).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { Attachments } from '../../src/core/chat/attachments';
import { FileConversationStore } from '../../src/core/chat/conversation/fileConversationStore';
import { ChatRouter } from '../../src/core/chat/router';
import { TurnRunner } from '../../src/core/chat/turns';
import { estimateCounter } from '../../src/core/budget/tokens';
import { ServerHub } from '../../src/core/mcp/hub/serverHub';
import { expandTemplate } from '../../src/core/mcp/features/resources';
import { OpenAICompatibleModel } from '../../src/core/models/openai';
import { parseHostMessage, parseWebviewMessage } from '../../src/shared/validate';
import { fixture, waitFor, offerOf } from '../helpers';
import { chatView, oneModel, quietActions } from '../chatHarness';
import { startMockModel } from '../mockModel';

const dirs: string[] = [];
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true, maxRetries: 5 })));

describe('attaching resources to the next message', { timeout: 60_000 }, () => {
  const hub = new ServerHub();
  after(() => hub.closeAll());

  async function setup(replies: Array<Record<string, unknown>>) {
    hub.reconcile([fixture('library', 'library.mjs')]);
    await hub.whenIdle();
    const mock = await startMockModel(replies);
    const attachments = new Attachments({
      read: (s, u) => hub.catalog.readResource(s, u),
      counter: async () => estimateCounter,
      maxChars: () => 50_000,
    });
    const exported: string[] = [];
    const actions = quietActions({
      meta: () => ({
        ...oneModel('mock')(),
        ...(attachments.chips().length ? { attachments: attachments.chips() } : {}),
      }),
      openText: async (text) => void exported.push(text),
      attachments,
    });
    const runner = new TurnRunner({
      registry: hub.registry,
      createModel: async () =>
        new OpenAICompatibleModel({ baseUrl: `http://127.0.0.1:${mock.port}/v1`, model: 'mock' }),
      agentOptions: () => ({ system: 'sys', maxSteps: 3 }),
      offer: offerOf(hub.registry, true),
      preapproval: () => undefined,
      ask: async () => false,
    });
    const dir = mkdtempSync(join(tmpdir(), 'minagent-attach-'));
    dirs.push(dir);
    const router = new ChatRouter(new FileConversationStore(dir), runner, actions);
    attachments.onDidChange(() => router.metaChanged());
    const { got, send } = chatView(router);
    await send({ type: 'ready' });
    return { mock, attachments, router, runner, got, send, exported };
  }

  test('a resource and a filled template become chips with their size in tokens; the next message carries both to the model, then the chips are gone', async () => {
    const { mock, attachments, router, runner, got, send, exported } = await setup([
      { text: 'read them' },
      { text: 'plain' },
    ]);
    assert.equal(await attachments.add('library', 'library://notes/readme', 'Note readme'), undefined);
    const book = expandTemplate('library://books/{shelf}/{title}', { shelf: 'fiction', title: 'Dune' }) as string;
    assert.equal(await attachments.add('library', book, book), undefined);
    const meta = got.filter((m) => m.type === 'meta').at(-1);
    assert.ok(meta && meta.type === 'meta' && parseHostMessage(meta), "the chips pass the webview's check");
    const chips = meta.type === 'meta' ? meta.meta.attachments! : [];
    assert.deepEqual(
      chips.map((c) => [c.label, c.server, c.uri]),
      [
        ['Note readme', 'library', 'library://notes/readme'],
        [book, 'library', 'library://books/fiction/Dune'],
      ],
    );
    const sent = '[resource <library://notes/readme> (text/plain) from server "library"]\nWelcome to the library.';
    assert.equal(chips[0]!.tokens, estimateCounter.count(sent), 'the chip counts what the model will get');
    assert.equal(chips[0]!.exact, false);

    await send({ type: 'send', text: 'What do these say?' });
    await runner.idle();
    const user = mock.requests[0]!.body.messages.filter((m) => m.role === 'user').map((m) => String(m.content));
    assert.equal(user.length, 1);
    assert.ok(user[0]!.includes(sent), user[0]);
    assert.ok(user[0]!.includes('library: "Dune" from the fiction shelf'), "the filled template's contents too");
    assert.ok(user[0]!.endsWith('\n\nWhat do these say?'), "the user's text after the context");
    const item = (await router.current()).items[0]!;
    assert.deepEqual(item.kind === 'user' && [item.text, item.attachments], [
      'What do these say?',
      ['Note readme (library)', `${book} (library)`],
    ]);
    assert.deepEqual(attachments.chips(), [], 'sending took them');
    await send({ type: 'export' });
    assert.match(
      exported[0]!,
      /## You\n\nWhat do these say\?\n\n- attached: `Note readme \(library\)`\n- attached: `library:\/\/books\/fiction\/Dune \(library\)`/,
    );

    await send({ type: 'send', text: 'and now?' });
    await runner.idle();
    assert.deepEqual(
      mock.requests[1]!.body.messages.filter((m) => m.role === 'user')
        .map((m) => String(m.content))
        .slice(-1),
      ['and now?'],
      'the next message has no attachment',
    );
  });

  test("the chip's x (a detach message) takes one back; a malformed detach is dropped; an unreadable resource is an error, not a chip", async () => {
    const { mock, attachments, runner, send } = await setup([{ text: 'ok' }]);
    await attachments.add('library', 'library://notes/readme', 'readme');
    await attachments.add('library', 'library://notes/guide', 'guide');
    assert.equal(parseWebviewMessage({ type: 'detach', id: 42, requestId: 1 }), undefined);
    assert.equal(parseWebviewMessage({ type: 'detach', id: 'x'.repeat(201), requestId: 1 }), undefined);
    await send({ type: 'detach', id: { toString: () => 'r1' } });
    assert.equal(attachments.chips().length, 2, 'a detach that is not a string id does nothing');
    await send({ type: 'detach', id: attachments.chips()[0]!.id });
    assert.deepEqual(
      attachments.chips().map((c) => c.label),
      ['guide'],
    );
    const failed = await attachments.add('library', 'library://notes/missing', 'missing');
    assert.ok(failed && /missing|not found/i.test(failed.error), JSON.stringify(failed));
    assert.equal(attachments.chips().length, 1);
    await send({ type: 'send', text: 'q' });
    await runner.idle();
    const user = String(mock.requests[0]!.body.messages.filter((m) => m.role === 'user')[0]!.content);
    assert.match(user, /How to use the library/);
    assert.doesNotMatch(user, /Welcome to the library/, 'the removed one is not sent');
  });

  test('a send refused while a turn runs keeps the chips for the next message', async () => {
    const { attachments, runner, send, got } = await setup([{ hang: true }]);
    await send({ type: 'send', text: 'long story' });
    await waitFor('the turn to run', () => got.some((m) => m.type === 'busy' && m.busy));
    await attachments.add('library', 'library://notes/readme', 'readme');
    await send({ type: 'send', text: 'second' });
    assert.ok(got.some((m) => m.type === 'reply' && /already running/.test(m.error ?? '')));
    assert.equal(attachments.chips().length, 1, 'kept');
    await send({ type: 'stop' });
    await runner.idle();
  });
});
