// The chat host's turns: single-flight per conversation, owned, and never writing into a
// conversation that replaced theirs. A real OpenAI-compatible provider against the mock model server.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { FileConversationStore } from '../../src/core/chat/conversation/fileConversationStore';
import { ChatRouter } from '../../src/core/chat/router';
import type { TurnHost } from '../../src/core/chat/turn';
import { TurnRunner } from '../../src/core/chat/turns';
import { OpenAICompatibleModel } from '../../src/core/models/openai';
import { ToolRegistry } from '../../src/core/toolRegistry/toolRegistry';
import { BudgetMeter } from '../../src/extension/chat/budgetMeter';
import type { HostMessage, TranscriptItem } from '../../src/shared/protocol';
import { parseHostMessage, parseWebviewMessage } from '../../src/shared/validate';
import { chatView, oneModel, quietActions } from '../chatHarness';
import { waitFor, offerOf } from '../helpers';
import { startMockModel } from '../mockModel';

const mock = startMockModel;

const dirs: string[] = [];
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true, maxRetries: 5 })));

const view = (router: ChatRouter) => chatView(router);

function setup(
  replies: Array<Record<string, unknown>>,
  tools: ToolRegistry = new ToolRegistry(),
  idleTimeoutMs?: number,
  extra: Partial<TurnHost> = {},
) {
  const asked: string[] = [];
  const selected: string[] = [];
  return mock(replies).then((m) => {
    const host: TurnHost = {
      registry: tools,
      createModel: async () => new OpenAICompatibleModel({ baseUrl: `http://127.0.0.1:${m.port}/v1`, model: 'mock' }),
      agentOptions: () => ({ system: 'sys', maxSteps: 5, ...(idleTimeoutMs ? { idleTimeoutMs } : {}) }),
      offer: offerOf(tools),
      preapproval: () => undefined,
      // Waits for a decision that never comes; only the turn's signal ends it (as Approvals.ask does).
      ask: (req, signal) =>
        new Promise((resolve) => {
          asked.push(req.name);
          signal.addEventListener('abort', () => resolve(false), { once: true });
        }),
      ...extra,
    };
    const actions = quietActions({ meta: oneModel('mock'), selectModel: async (id) => void selected.push(id) });
    const dir = mkdtempSync(join(tmpdir(), 'minagent-turns-'));
    dirs.push(dir);
    const store = new FileConversationStore(dir);
    const runner = new TurnRunner(host);
    const router = new ChatRouter(store, runner, actions);
    return { mock: m, store, runner, router, asked, selected, dir };
  });
}

const userTexts = (body: { messages: Array<{ role: string; content: unknown }> }) =>
  body.messages.filter((m) => m.role === 'user').map((m) => String(m.content));

/** A chat whose model calls `delete_things` (a destructive tool that counts its runs), then answers `answer`. */
async function deletingTurn(answer: string) {
  const tools = new ToolRegistry();
  let ran = 0;
  tools.add({
    name: 'delete_things',
    description: 'destructive',
    parameters: { type: 'object' },
    call: async () => String(++ran),
  });
  const chat = await setup([{ toolCalls: [{ name: 'delete_things', arguments: {} }] }, { text: answer }], tools);
  return { ...chat, ran: () => ran };
}

describe('chat turns', { timeout: 20_000 }, () => {
  test('New Chat during a streaming turn: the new conversation stays empty and the next request has none of the old messages', async () => {
    const { mock: m, runner, router } = await setup([{ hang: true }, { text: 'fresh answer' }]);
    const v = view(router);
    await v.send({ type: 'ready' });
    const old = await router.current();
    await v.send({ type: 'send', text: 'the old question' });
    await waitFor('the streamed text', () => v.got.some((x) => x.type === 'textDelta'));
    await v.send({ type: 'newChat' });
    const fresh = await router.current();
    assert.notEqual(fresh, old);
    assert.equal(runner.busy(fresh), false, 'the new conversation is not busy');
    await runner.idle();
    assert.deepEqual(fresh.items, [], 'the abandoned turn wrote nothing into the new conversation');
    assert.deepEqual(fresh.messages, []);
    assert.match(
      old.items.map((i) => ('text' in i ? i.text : '')).join('|'),
      /the old question\|thinking\|Stopped: a new chat was started/,
    );
    const state = v.got.filter((x) => x.type === 'state').at(-1)!;
    const after = v.got.slice(v.got.lastIndexOf(state));
    assert.deepEqual(
      after.filter((x) => x.type === 'append' || x.type === 'textDelta' || x.type === 'update'),
      [],
      'the view got nothing of the old turn after the reset',
    );

    await v.send({ type: 'send', text: 'a new question' });
    await runner.idle();
    assert.equal(m.requests.length, 2);
    assert.deepEqual(userTexts(m.requests[1]!.body), ['a new question']);
    assert.ok(!JSON.stringify(m.requests[1]!.body).includes('old question'));
    assert.deepEqual(
      (await router.current()).items.map((i) => i.kind),
      ['user', 'assistant'],
    );
  });

  test('New Chat during a waiting approval: the tool never runs and the next request starts clean', async () => {
    const { mock: m, runner, router, asked, ran } = await deletingTurn('hello again');
    const v = view(router);
    await v.send({ type: 'ready' });
    const old = await router.current();
    await v.send({ type: 'send', text: 'delete the things' });
    await waitFor('the approval question', () => asked.length === 1);
    const card = old.items.find((i) => i.kind === 'tool');
    assert.equal(card?.kind === 'tool' && card.card.status, 'waiting');
    await v.send({ type: 'newChat' });
    await runner.idle();
    assert.equal(ran(), 0, 'the tool did not run');
    const oldCard = old.items.find((i) => i.kind === 'tool');
    assert.equal(oldCard?.kind === 'tool' && oldCard.card.status, 'cancelled');
    const fresh = await router.current();
    assert.deepEqual(fresh.items, []);
    await v.send({ type: 'send', text: 'hello' });
    await runner.idle();
    assert.deepEqual(userTexts(m.requests.at(-1)!.body), ['hello']);
    assert.ok(
      !JSON.stringify(m.requests.at(-1)!.body.messages).includes('delete_things'),
      'no old tool call in the history',
    );
  });

  test('two sends at once from the view and the panel start one turn; the other sender is told why', async () => {
    const { mock: m, runner, router } = await setup([{ text: 'one answer' }, { text: 'never asked' }]);
    const sidebar = view(router);
    const panel = view(router);
    await Promise.all([sidebar.send({ type: 'ready' }), panel.send({ type: 'ready' })]);
    await Promise.all([
      sidebar.send({ type: 'send', text: 'from the sidebar' }),
      panel.send({ type: 'send', text: 'from the panel' }),
    ]);
    await runner.idle();
    assert.equal(m.requests.length, 1);
    assert.deepEqual(userTexts(m.requests[0]!.body), ['from the sidebar']);
    assert.equal(sidebar.replies().at(-1)!.error, undefined);
    assert.match(panel.replies().at(-1)!.error ?? '', /a turn is already running/);
    const c = await router.current();
    assert.deepEqual(
      c.items.map((i) => i.kind),
      ['user', 'assistant'],
      'one user message, one answer',
    );
    // Both views saw the same turn.
    assert.ok(panel.got.some((x) => x.type === 'textDelta'));
  });

  test('Stop keeps the chat busy until the turn has ended, so the next turn never interleaves with it', async () => {
    const { mock: m, runner, router } = await setup([{ hang: true }, { text: 'second' }]);
    const v = view(router);
    await v.send({ type: 'ready' });
    await v.send({ type: 'send', text: 'first' });
    await waitFor('the streamed text', () => v.got.some((x) => x.type === 'textDelta'));
    const c = await router.current();
    await v.send({ type: 'stop' });
    await runner.idle();
    assert.deepEqual(
      v.got.filter((x) => x.type === 'busy').map((x) => x.type === 'busy' && x.busy),
      [true, false],
    );
    assert.equal(
      c.items.at(-1)?.kind === 'notice' && c.items.at(-1)!.kind === 'notice'
        ? (c.items.at(-1) as { text: string }).text
        : '',
      'Stopped.',
    );
    await v.send({ type: 'send', text: 'second question' });
    await runner.idle();
    assert.deepEqual(userTexts(m.requests[1]!.body), ['first', 'second question']);
  });

  test('a model switch and closing the view that started a turn each end it', async () => {
    const { runner, router, selected } = await setup([{ hang: true }, { hang: true }]);
    const v = view(router);
    await v.send({ type: 'ready' });
    const c = await router.current();
    await v.send({ type: 'send', text: 'one' });
    await waitFor('streaming', () => v.got.some((x) => x.type === 'textDelta'));
    await v.send({ type: 'selectModel', id: 'other' });
    await runner.idle();
    assert.deepEqual(selected, ['other']);
    assert.match(JSON.stringify(c.items.at(-1)), /Stopped: the model was changed/);

    const panel = view(router);
    await panel.send({ type: 'send', text: 'two' });
    await waitFor('streaming', () => panel.got.filter((x) => x.type === 'textDelta').length >= 1 && runner.busy(c));
    v.close(); // another view closing does not end the panel's turn
    assert.equal(runner.busy(c), true);
    panel.close();
    await runner.idle();
    assert.match(JSON.stringify(c.items.at(-1)), /Stopped: the chat view that started this turn was closed/);
  });

  test('closing the editor panel during a waiting approval ends its turn: the tool never runs, and the turn writes nothing after its end', async () => {
    const { mock: m, runner, router, asked, ran } = await deletingTurn('after the panel closed');
    const sidebar = view(router);
    const panel = view(router);
    await Promise.all([sidebar.send({ type: 'ready' }), panel.send({ type: 'ready' })]);
    const c = await router.current();
    await panel.send({ type: 'send', text: 'delete the things' });
    await waitFor('the approval question', () => asked.length === 1);
    assert.equal(runner.busy(c), true);

    panel.close();
    await runner.idle();
    assert.equal(ran(), 0, 'the tool did not run');
    assert.equal(runner.busy(c), false, 'the chat is free again');
    const card = c.items.find((i) => i.kind === 'tool');
    assert.equal(card?.kind === 'tool' && card.card.status, 'cancelled');
    assert.match(JSON.stringify(c.items.at(-1)), /Stopped: the chat view that started this turn was closed/);
    // The sidebar, still open, saw the turn end.
    assert.deepEqual(
      sidebar.got.filter((x) => x.type === 'busy').map((x) => x.type === 'busy' && x.busy),
      [true, false],
    );
    const ended = c.items.length;
    const panelGot = panel.got.length;

    // The next turn, from the sidebar: the ended turn adds nothing to it, before or after.
    await sidebar.send({ type: 'send', text: 'something else' });
    await runner.idle();
    assert.equal(sidebar.replies().at(-1)!.error, undefined);
    assert.deepEqual(
      c.items.slice(ended).map((i) => i.kind),
      ['user', 'assistant'],
      'only the new turn wrote into the conversation',
    );
    assert.match(JSON.stringify(c.items.at(-1)), /after the panel closed/);
    assert.equal(panel.got.length, panelGot, 'the closed panel is sent nothing more');
    assert.equal(ran(), 0);
    assert.equal(m.requests.length, 2);
    assert.deepEqual(userTexts(m.requests[1]!.body), ['delete the things', 'something else']);
  });
});

describe('a message the model cannot take', { timeout: 20_000 }, () => {
  test('a message over the window alone is not sent: it leaves the transcript, goes back to the view that sent it, and the next message keeps the whole history', async () => {
    let port = 0;
    const {
      mock: m,
      runner,
      router,
      store,
      dir,
    } = await setup([{ text: 'first answer' }, { text: 'second answer' }], new ToolRegistry(), undefined, {
      createModel: async () =>
        new OpenAICompatibleModel({ baseUrl: `http://127.0.0.1:${port}/v1`, model: 'mock', contextWindow: 2000 }),
    });
    port = m.port;
    const v = view(router);
    const other = view(router);
    await v.send({ type: 'ready' });
    await v.send({ type: 'send', text: 'first question' });
    await runner.idle();
    const c = await router.current();
    const before = { items: c.items.map((i) => i.id), messages: c.messages.length };

    const paste = Array.from({ length: 1500 }, (_, i) => `line ${i} of a long paste`).join('\n');
    await v.send({ type: 'send', text: paste });
    await runner.idle();
    await waitFor('the message back in the view', () => v.got.some((x) => x.type === 'notSent'), 10_000);
    const notSent = v.got.filter((x): x is Extract<HostMessage, { type: 'notSent' }> => x.type === 'notSent');
    assert.equal(notSent.length, 1, 'the sending view gets the message back');
    assert.equal(notSent[0]!.text, paste);
    assert.match(
      notSent[0]!.reason,
      /^Not sent: this request needs about \d+ tokens, but the model's window allows \d+ .*shorten the message.*\. Your message is back in the input\.$/,
    );
    assert.ok(!other.got.some((x) => x.type === 'notSent'), 'only the view that sent it');
    const removed = v.got.filter((x) => x.type === 'remove');
    assert.equal(removed.length, 1, 'the message left the transcript in every view');
    assert.ok(other.got.some((x) => x.type === 'remove'));
    assert.deepEqual(
      c.items.map((i) => i.id),
      before.items,
      'the transcript is as it was',
    );
    assert.equal(c.messages.length, before.messages, 'the history is as it was');
    assert.equal(m.requests.length, 1, 'nothing reached the model');
    // Stored as it shows: a reopened conversation has no trace of the paste.
    await store.save(c);
    const reopened = await new FileConversationStore(dir).open(c.id);
    assert.ok(!JSON.stringify(reopened.items).includes('long paste'));

    const notices = v.got.length;
    await v.send({ type: 'send', text: 'second question' });
    await runner.idle();
    assert.deepEqual(
      userTexts(m.requests[1]!.body),
      ['first question', 'second question'],
      'the next request carries the whole history',
    );
    assert.ok(!JSON.stringify(v.got.slice(notices)).includes('left out'), 'no earlier turn was left out');
  });
});

describe('Retry and Edit on the last message', { timeout: 20_000 }, () => {
  test('Retry sends the last message again in place of its answer; Edit takes both back and the message into the input', async () => {
    const {
      mock: m,
      runner,
      router,
    } = await setup([
      { text: 'answer one' },
      { text: 'a poor answer' },
      { text: 'a better answer' },
      { text: 'answer to the edit' },
    ]);
    const v = view(router);
    await v.send({ type: 'ready' });
    await v.send({ type: 'send', text: 'first question' });
    await runner.idle();
    await v.send({ type: 'send', text: 'second question' });
    await runner.idle();
    const c = await router.current();
    const shown = () => c.items.map((i) => `${i.kind}:${'text' in i ? i.text : ''}`);
    assert.deepEqual(shown(), [
      'user:first question',
      'assistant:answer one',
      'user:second question',
      'assistant:a poor answer',
    ]);

    await v.send({ type: 'retry' });
    await waitFor('the retried answer', () => c.items.some((i) => 'text' in i && i.text === 'a better answer'));
    await runner.idle();
    assert.deepEqual(
      shown(),
      ['user:first question', 'assistant:answer one', 'user:second question', 'assistant:a better answer'],
      'the message once, its new answer in place of the old',
    );
    assert.deepEqual(
      userTexts(m.requests[2]!.body),
      ['first question', 'second question'],
      'the model got it once, without the poor answer',
    );
    assert.ok(!JSON.stringify(m.requests[2]!.body).includes('a poor answer'));

    await v.send({ type: 'editLast' });
    assert.deepEqual(
      v.got.filter((x) => x.type === 'editDraft'),
      [{ type: 'editDraft', text: 'second question', undoable: true }],
    );
    assert.deepEqual(shown(), ['user:first question', 'assistant:answer one']);
    assert.equal(c.messages.length, 2, 'the history is back to before it');
    // Undo (issue 53 item 11): the turn comes back as it was, answer and history too.
    const history = JSON.stringify(c.messages);
    await v.send({ type: 'undoEdit' });
    assert.deepEqual(shown(), [
      'user:first question',
      'assistant:answer one',
      'user:second question',
      'assistant:a better answer',
    ]);
    assert.equal(c.messages.length, 4, 'the history as it was');
    assert.ok(JSON.stringify(c.messages).startsWith(history.slice(0, -1)));
    await v.send({ type: 'undoEdit' });
    assert.match(v.replies().at(-1)!.error ?? '', /can no longer be put back/, 'one Undo per Edit');
    await v.send({ type: 'editLast' });
    await v.send({ type: 'send', text: 'second question, better put' });
    await runner.idle();
    assert.deepEqual(userTexts(m.requests[3]!.body), ['first question', 'second question, better put']);
    // Once another message went, what Edit took cannot come back over it.
    await v.send({ type: 'undoEdit' });
    assert.match(v.replies().at(-1)!.error ?? '', /can no longer be put back: the chat changed since Edit/);
    assert.equal(shown().filter((s) => s.startsWith('user:')).length, 2);
  });

  test('nothing to take back, or a chat still answering: the view is told why', async () => {
    const { router } = await setup([]);
    const v = view(router);
    await v.send({ type: 'ready' });
    await v.send({ type: 'retry' });
    assert.match(v.replies().at(-1)!.error ?? '', /there is no message of yours to take back/);
  });
});

describe('no silent stalls in the chat', { timeout: 20_000 }, () => {
  test('a model that stops sending ends the turn with a message; the chat is free again', async () => {
    const { runner, router } = await setup([{ hang: true }, { text: 'back' }], new ToolRegistry(), 1_000);
    const v = view(router);
    await v.send({ type: 'ready' });
    await v.send({ type: 'send', text: 'hello?' });
    await runner.idle();
    const c = await router.current();
    const last = c.items.at(-1);
    assert.equal(last?.kind, 'notice');
    assert.match(
      last?.kind === 'notice' ? `${last.level}: ${last.text}` : '',
      /^error: model error: OpenAI-compatible: the model sent nothing for 1 s, so the turn was ended/,
    );
    assert.deepEqual(
      v.got.filter((x) => x.type === 'busy').map((x) => x.type === 'busy' && x.busy),
      [true, false],
    );
    await v.send({ type: 'send', text: 'again' });
    await runner.idle();
    assert.equal(c.items.at(-1)?.kind === 'assistant' && (c.items.at(-1) as { text: string }).text, 'back');
  });

  test('an answer cut at the output limit says so, and Continue asks the model to go on from it', async () => {
    const {
      mock: m,
      runner,
      router,
    } = await setup([{ text: 'Step one, step tw', cut: true }, { text: 'o, step three.' }]);
    const v = view(router);
    await v.send({ type: 'ready' });
    await v.send({ type: 'send', text: 'count the steps' });
    await runner.idle();
    const c = await router.current();
    const answer = c.items.find((i) => i.kind === 'assistant');
    assert.deepEqual(answer && { ...answer, id: '' }, {
      kind: 'assistant',
      id: '',
      text: 'Step one, step tw',
      streaming: false,
      cut: true,
    });
    assert.ok(
      v.got.some((x) => x.type === 'update' && x.item.kind === 'assistant' && x.item.cut === true),
      'the view was told',
    );
    await v.send({ type: 'continue' });
    await runner.idle();
    const sent = m.requests[1]!.body.messages.slice(1);
    assert.deepEqual(
      sent.map((x) => [x.role, x.content]),
      [
        ['user', 'count the steps'],
        ['assistant', 'Step one, step tw'],
        ['user', 'Continue exactly where your previous answer was cut off.'],
      ],
    );
  });
});

describe('webview messages are checked on arrival', () => {
  test('the host drops anything the protocol does not allow, and answers nothing', async () => {
    const { mock: m, router, runner } = await setup([{ text: 'x' }]);
    const v = view(router);
    const bad = [
      null,
      'send',
      { type: 'send', text: 'no request id' },
      { type: 'send', text: 42, requestId: 1 },
      { type: 'send', text: '   ', requestId: 2 },
      { type: 'approve', callId: 't-1', decision: 'always-and-forever', requestId: 3 },
      { type: 'openResult', callId: { toString: 'x' }, requestId: 4 },
      { type: 'evalThis', code: 'process.exit()', requestId: 5 },
      { type: 'selectModel', id: 'x'.repeat(10_000), requestId: 6 },
    ];
    for (const b of bad) await router.handle(b, v.post);
    await runner.idle();
    assert.deepEqual(v.got, []);
    assert.equal(m.requests.length, 0);
    assert.deepEqual(
      parseWebviewMessage({ type: 'send', text: 'hi', requestId: 7, extra: 'dropped' }),
      { type: 'send', text: 'hi', requestId: 7 },
      'only the known fields pass',
    );
  });

  test('the webview drops host messages that are not the protocol (a script in a card is still text)', () => {
    assert.equal(
      parseHostMessage({
        type: 'state',
        state: { items: [{ kind: 'html', id: 'x', html: '<script>' }], busy: false, models: [] },
      }),
      undefined,
    );
    assert.equal(
      parseHostMessage({
        type: 'update',
        item: {
          kind: 'tool',
          id: 't',
          card: { callId: 't', name: 'n', wireName: 'n', arguments: '{}', status: 'pwned', startedAt: 1 },
        },
      }),
      undefined,
    );
    assert.equal(parseHostMessage({ type: 'busy', busy: 'yes' }), undefined);
    assert.equal(parseHostMessage({ type: 'exec' }), undefined);
    const ok = { type: 'append', item: { kind: 'assistant', id: 'a', text: '<img onerror=x>' } };
    assert.deepEqual(parseHostMessage(ok), ok);
  });
});

describe('the budget meter follows the chat', { timeout: 20_000 }, () => {
  test('a typed draft, a finished turn and New Chat each give the views a new measurement they accept', async () => {
    const { mock: m, store, runner } = await setup([{ text: 'an answer of some length to be counted in the history' }]);
    const model = () =>
      new OpenAICompatibleModel({ baseUrl: `http://127.0.0.1:${m.port}/v1`, model: 'mock', contextWindow: 2000 });
    const meter = new BudgetMeter({ warn: () => undefined });
    const actions = quietActions({
      meta: oneModel('mock'),
      draft: (text) => meter.setDraft(text),
      contextChanged: () => void meter.update(),
    });
    const router = new ChatRouter(store, runner, actions);
    meter.connect((msg) => router.publish(msg), {
      model: async () => model(),
      system: () => 'sys',
      history: () => router.loaded()?.messages ?? [],
      tools: () => [],
    });
    const v = view(router);
    const budgets = () =>
      v.got.filter((x): x is Extract<HostMessage, { type: 'budget' }> => x.type === 'budget').map((x) => x.budget!);
    try {
      await v.send({ type: 'ready' });
      await waitFor('the first measurement', () => budgets().length >= 1);
      assert.equal(budgets()[0]!.window, 2000);
      assert.equal(budgets()[0]!.message, 0);
      assert.equal(budgets()[0]!.history, 0);

      await v.send({ type: 'draft', text: 'a draft message with several words in it' });
      await waitFor('the draft measured', () => budgets().some((b) => b.message > 0));

      await v.send({ type: 'send', text: 'the question' });
      await runner.idle();
      await waitFor('the history measured after the turn', () => budgets().some((b) => b.history > 0));

      const before = budgets().length;
      await v.send({ type: 'newChat' });
      await waitFor(
        'a measurement of the new chat',
        () => budgets().length > before && budgets().at(-1)!.history === 0,
      );
      for (const b of v.got.filter((x) => x.type === 'budget'))
        assert.deepEqual(parseHostMessage(b), b, 'the webview accepts every measurement');
    } finally {
      meter.dispose();
      router.dispose();
    }
  });

  test('a draft is accepted up to the size limit and dropped past it; a malformed measurement is dropped by the webview', () => {
    assert.deepEqual(
      parseWebviewMessage({ type: 'draft', text: '', requestId: 1 }),
      { type: 'draft', text: '', requestId: 1 },
      'a cleared input is a draft',
    );
    assert.equal(parseWebviewMessage({ type: 'draft', text: 'x'.repeat(1_000_001), requestId: 2 }), undefined);
    assert.equal(parseWebviewMessage({ type: 'draft', text: 7, requestId: 3 }), undefined);
    assert.deepEqual(
      parseHostMessage({ type: 'budget', budget: undefined }),
      { type: 'budget', budget: undefined },
      'no model: the meter hides',
    );
    assert.equal(parseHostMessage({ type: 'budget', budget: { window: 'big' } }), undefined);
    const good = {
      window: 100,
      windowSource: 's',
      reserve: 10,
      counter: 'c',
      exact: true,
      system: 1,
      tools: [{ server: 'a', tokens: 2, count: 1 }],
      history: 0,
      historyFull: 0,
      message: 3,
      total: 6,
    };
    assert.deepEqual(parseHostMessage({ type: 'budget', budget: good }), { type: 'budget', budget: good });
    assert.equal(
      parseHostMessage({ type: 'budget', budget: { ...good, tools: [{ server: '<b>', tokens: -1, count: 1 }] } }),
      undefined,
    );
  });

  test('a turn that waits for starting servers says so while it waits, then what came of it, in the same line', async () => {
    const notices = (items: readonly TranscriptItem[]) =>
      items.flatMap((i) => (i.kind === 'notice' ? [`${i.level}: ${i.text}`] : []));
    let release: (without?: string) => void = () => undefined;
    const {
      mock: m,
      runner,
      router,
    } = await setup([{ text: 'one' }, { text: 'two' }], new ToolRegistry(), undefined, {
      whenServersReady: (_signal, onWaiting) =>
        new Promise((resolve) => {
          onWaiting(['slow', 'other']);
          release = resolve;
        }),
    });
    const v = view(router);
    await v.send({ type: 'ready' });
    await v.send({ type: 'send', text: 'first' });
    const c = await router.current();
    await waitFor('the waiting line', () => notices(c.items).length === 1);
    assert.deepEqual(notices(c.items), ['info: Waiting for slow, other to start before sending…']);
    assert.equal(m.requests.length, 0, 'nothing is sent while it waits');
    release();
    await runner.idle();
    assert.deepEqual(
      notices(c.items),
      ['info: Waited 1 s for slow, other to start.'],
      'the same line, now saying it waited',
    );
    assert.ok(
      v.got.some((x) => x.type === 'update' && x.item.kind === 'notice' && x.item.text.startsWith('Waited')),
      'the view got the change as an update',
    );

    await v.send({ type: 'send', text: 'second' });
    await waitFor('the second waiting line', () => notices(c.items).length === 2);
    release('Sent without the tools of other: still starting after 15 s.');
    await runner.idle();
    assert.deepEqual(notices(c.items).at(-1), 'warning: Sent without the tools of other: still starting after 15 s.');
    assert.equal(m.requests.length, 2);
  });
});
