// Conversations in files: appended as they grow, compacted past a bound with a visible mark,
// today's workspace-state conversation migrated, many conversations listed.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, appendFileSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import type { Conversation } from '../../src/core/chat/conversation/conversation';
import { FileConversationStore } from '../../src/core/chat/conversation/fileConversationStore';
import { RESULTS_REMOVED } from '../../src/core/chat/conversation/compaction';
import type { LegacyConversation } from '../../src/core/chat/conversation/legacy';
import type { ToolCard } from '../../src/shared/protocol';

const dirs: string[] = [];
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true, maxRetries: 5 })));
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'minagent-store-'));
  dirs.push(d);
  return d;
}

/** One turn as the chat writes it: the question, a tool card with its full result, the answer. */
function addTurn(c: Conversation, n: number, resultChars = 100): void {
  const result = `${n}:`.padEnd(resultChars, 'r');
  const tool = c.newId('t');
  const card: ToolCard = {
    callId: tool,
    name: 'echo',
    wireName: 'echo',
    arguments: '{}',
    status: 'done',
    startedAt: 1,
    result: result.slice(0, 50),
    resultChars: result.length,
  };
  c.append({ kind: 'user', id: c.newId('u'), text: `question ${n}` });
  c.append({ kind: 'tool', id: tool, card });
  c.setFullResult(tool, result);
  c.append({ kind: 'assistant', id: c.newId('a'), text: `answer ${n}` });
  c.messages = [
    ...c.messages,
    { role: 'user', content: `question ${n}` },
    { role: 'assistant', content: '', toolCalls: [{ id: `k${n}`, name: 'echo', arguments: '{}' }] },
    { role: 'tool', toolCallId: `k${n}`, name: 'echo', content: result },
    { role: 'assistant', content: `answer ${n}` },
  ];
}

describe('the conversation store', () => {
  test('a conversation comes back after a restart; each save appends only what changed', async () => {
    const dir = tempDir();
    const store = new FileConversationStore(dir);
    const c = await store.current();
    addTurn(c, 1);
    await store.save(c);
    const first = readFileSync(join(dir, `${c.id}.jsonl`), 'utf8');
    addTurn(c, 2);
    const tool = c.items[1]!;
    c.update({
      ...tool,
      kind: 'tool',
      card: { ...(tool.kind === 'tool' ? tool.card : ({} as ToolCard)), status: 'error' },
    });
    await store.save(c);
    const second = readFileSync(join(dir, `${c.id}.jsonl`), 'utf8');
    assert.ok(second.startsWith(first), 'the second save appended to the file');
    assert.equal(
      second.slice(first.length).trim().split('\n').length,
      6,
      'three new items, one changed item, one result, one messages line',
    );

    const reopened = await new FileConversationStore(dir).current();
    assert.equal(reopened.id, c.id);
    assert.deepEqual(reopened.items, c.items);
    assert.deepEqual(reopened.messages, c.messages);
    assert.equal(reopened.fullResult(c.items[4]!.id), c.fullResult(c.items[4]!.id));
    assert.equal(reopened.items[1]!.kind === 'tool' && reopened.items[1]!.card.status, 'error', 'the later line wins');
  });

  test('New Chat makes a new current conversation and keeps the old one; a late save of the old one does not bring it back', async () => {
    const dir = tempDir();
    const store = new FileConversationStore(dir);
    const old = await store.current();
    addTurn(old, 1);
    await store.save(old);
    const fresh = store.create();
    addTurn(old, 2); // an abandoned turn finishing in the old conversation
    await store.save(old);
    const again = new FileConversationStore(dir);
    const current = await again.current();
    assert.equal(current.id, fresh.id);
    assert.deepEqual(current.items, []);
    assert.deepEqual(
      (await again.list()).map((e) => e.id),
      [old.id],
    );
    assert.equal((await again.load(old.id)).size, 6);
  });

  test('past its bound a file is compacted: the oldest full results go, the transcript says so, the newest stay', async () => {
    const dir = tempDir();
    const store = new FileConversationStore(dir, { maxFileBytes: 100_000 });
    const c = await store.current();
    for (let n = 0; n < 30; n++) {
      addTurn(c, n, 3_000);
      await store.save(c);
      assert.ok(
        statSync(join(dir, `${c.id}.jsonl`)).size <= 100_000 + 20_000,
        `turn ${n}: the file stays near its bound`,
      );
    }
    const notices = c.items.filter((i) => i.kind === 'notice' && i.text === RESULTS_REMOVED);
    assert.ok(notices.length >= 1, 'the transcript says older results were removed');
    const cards = c.items.filter((i) => i.kind === 'tool');
    assert.equal(new Map(c.allResults()).has(cards[0]!.id), false, 'the oldest full result is gone');
    assert.equal(
      c.fullResult(cards[0]!.id),
      cards[0]!.kind === 'tool' ? cards[0]!.card.result : '',
      'its card keeps what it showed',
    );
    assert.equal(new Map(c.allResults()).has(cards.at(-1)!.id), true, 'the newest is kept');
    const toolMessages = c.messages.filter((m) => m.role === 'tool');
    assert.match(
      toolMessages[0]!.content,
      /^\[older result removed: 3000 characters\]$/,
      "the oldest result in the model's history is a note",
    );
    assert.equal(toolMessages.at(-1)!.content.length, 3_000, 'the newest is whole');
    const reopened = await new FileConversationStore(dir).current();
    assert.deepEqual(reopened.items, c.items);
    assert.deepEqual(reopened.messages, c.messages);
    assert.equal(new Map(reopened.allResults()).has(cards[0]!.id), false);
  });

  test("today's conversation in workspace state moves into a file once", async () => {
    const dir = tempDir();
    let legacy: LegacyConversation | undefined = {
      items: [
        { kind: 'user', id: 'u-1', text: 'from before' },
        { kind: 'assistant', id: 'a-2', text: 'old answer', streaming: true },
      ],
      messages: [
        { role: 'user', content: 'from before' },
        { role: 'assistant', content: 'old answer' },
      ],
      fullResults: {},
    };
    const options = { legacy: { read: () => legacy, clear: async () => void (legacy = undefined) } };
    const c = await new FileConversationStore(dir, options).current();
    assert.deepEqual(
      c.items.map((i) => ('text' in i ? i.text : '')),
      ['from before', 'old answer'],
    );
    assert.equal(
      c.items[1]!.kind === 'assistant' && c.items[1]!.streaming,
      false,
      'a half-streamed answer is not streaming after a restart',
    );
    assert.equal(legacy, undefined, 'workspace state no longer holds it');
    const again = await new FileConversationStore(dir, options).current();
    assert.equal(again.id, c.id);
    assert.deepEqual(again.messages, c.messages);
  });

  test('a line cut by a crash is skipped; the rest of the conversation opens', async () => {
    const dir = tempDir();
    const store = new FileConversationStore(dir);
    const c = await store.current();
    addTurn(c, 1);
    await store.save(c);
    appendFileSync(join(dir, `${c.id}.jsonl`), '{"i":{"kind":"user","id":"u-9","te');
    const reopened = await new FileConversationStore(dir).current();
    assert.equal(reopened.size, 3);
    assert.ok(readdirSync(dir).includes('index.json'));
  });
});
