// The chat side of servers' asks: the protocol drops answers of the wrong shape, and ChatAsks routes
// an answer only to the card it belongs to, of the right kind.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseHostMessage, parseWebviewMessage } from '../../src/shared/validate';
import { ChatAsks } from '../../src/extension/serverAsks/chatAsks';
import type { HostMessage } from '../../src/shared/protocol';

describe('ask messages', () => {
  test('answers of the right shape pass; anything else is dropped', () => {
    assert.deepEqual(
      parseWebviewMessage({
        type: 'answerAsk',
        id: 'ask-1',
        answer: { action: 'accept', content: { name: 'Ada', n: 3, ok: true, tags: ['a'] } },
        requestId: 1,
      }),
      {
        type: 'answerAsk',
        id: 'ask-1',
        answer: { action: 'accept', content: { name: 'Ada', n: 3, ok: true, tags: ['a'] } },
        requestId: 1,
      },
    );
    assert.deepEqual(
      parseWebviewMessage({
        type: 'answerAsk',
        id: 'ask-1',
        answer: { action: 'allow', remember: true, extra: 1 },
        requestId: 2,
      }),
      { type: 'answerAsk', id: 'ask-1', answer: { action: 'allow', remember: true }, requestId: 2 },
    );
    for (const answer of [
      { action: 'accept', content: { x: { nested: 1 } } },
      { action: 'accept', content: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 1])) },
      { action: 'accept', content: { x: 'y'.repeat(100_001) } },
      { action: 'allow' },
      { action: 'run' },
      'accept',
    ]) {
      assert.equal(
        parseWebviewMessage({ type: 'answerAsk', id: 'ask-1', answer, requestId: 3 }),
        undefined,
        JSON.stringify(answer).slice(0, 60),
      );
    }
  });

  test('the webview takes a form ask only with well-formed fields', () => {
    const ask = {
      kind: 'form',
      id: 'ask-1',
      server: 's',
      message: 'm',
      fields: [{ name: 'a', label: 'A', kind: 'string', required: true }],
    };
    assert.ok(parseHostMessage({ type: 'ask', ask }));
    assert.equal(parseHostMessage({ type: 'ask', ask: { ...ask, fields: [{ name: 'a', kind: 'html' }] } }), undefined);
  });
});

describe('ChatAsks', () => {
  test('an answer reaches its card only, and only of its kind; the card then says what became of it', async () => {
    const posted: HostMessage[] = [];
    const asks = new ChatAsks((m) => posted.push(m));
    const form = asks.ask({ kind: 'form', server: 's', message: 'm', fields: [] }, new AbortController().signal);
    const sampling = asks.ask(
      { kind: 'sampling', server: 's', model: 'm', maxTokens: 10, limit: 20, messages: [] },
      new AbortController().signal,
    );
    asks.answer('ask-1', { action: 'allow', remember: true }); // wrong kind for a form: ignored
    asks.answer('ask-2', { action: 'accept', content: {} }); // wrong kind for sampling: ignored
    asks.answer('ask-9', { action: 'decline' }); // no such card
    asks.answer('ask-1', { action: 'decline' });
    asks.answer('ask-2', { action: 'deny' });
    assert.deepEqual(await form, { action: 'decline' });
    assert.deepEqual(await sampling, { action: 'deny' });
    assert.deepEqual(
      posted.filter((m) => m.type === 'askDone'),
      [
        { type: 'askDone', id: 'ask-1', outcome: 'declined' },
        { type: 'askDone', id: 'ask-2', outcome: 'denied' },
      ],
    );
  });

  test('a request the server cancels ends its card; a view that opens meanwhile gets the waiting cards', async () => {
    const posted: HostMessage[] = [];
    const asks = new ChatAsks((m) => posted.push(m));
    const stop = new AbortController();
    const first = asks.ask({ kind: 'form', server: 's', message: 'one', fields: [] }, stop.signal);
    void asks.ask({ kind: 'form', server: 's', message: 'two', fields: [] }, new AbortController().signal);
    stop.abort();
    assert.equal(await first, undefined);
    const replayed: HostMessage[] = [];
    asks.replay((m) => replayed.push(m));
    assert.deepEqual(
      replayed.map((m) => m.type === 'ask' && m.ask.id),
      ['ask-2'],
    );
    assert.deepEqual(posted.at(-1), { type: 'askDone', id: 'ask-1', outcome: 'cancelled by the server' });
    asks.dispose();
  });
});
