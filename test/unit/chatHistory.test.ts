// The chat's history: conversations kept in files are listed, reopened, renamed and deleted, through
// the store and through the router the views talk to.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import type { Conversation } from '../../src/core/chat/conversation/conversation';
import { FileConversationStore } from '../../src/core/chat/conversation/fileConversationStore';
import { ChatRouter } from '../../src/core/chat/router';
import { quietActions } from '../chatHarness';
import { TurnRunner } from '../../src/core/chat/turns';
import { ToolRegistry } from '../../src/core/toolRegistry/toolRegistry';
import type { HostMessage } from '../../src/shared/protocol';
import { offerOf } from '../helpers';

const dirs: string[] = [];
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true, maxRetries: 5 })));
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'minagent-history-'));
  dirs.push(d);
  return d;
}

function say(c: Conversation, text: string): void {
  c.append({ kind: 'user', id: c.newId('u'), text });
  c.append({ kind: 'assistant', id: c.newId('a'), text: `answer to ${text}` });
  c.messages = [...c.messages, { role: 'user', content: text }, { role: 'assistant', content: `answer to ${text}` }];
}

const texts = (c: Conversation) => c.items.map((i) => (i.kind === 'user' || i.kind === 'assistant' ? i.text : i.kind));

describe('the conversation history (store)', () => {
  test('New keeps the old conversation: both are listed, most recent first, titled by their first message', async () => {
    const store = new FileConversationStore(tempDir());
    const first = await store.current();
    say(first, 'first question\nwith a second line');
    await store.save(first);
    const second = store.create();
    assert.deepEqual(
      (await store.list()).map((e) => e.id),
      [first.id],
      'a new chat is listed once it has something in it',
    );
    say(second, 'second question');
    await store.save(second);
    const list = await store.list();
    assert.deepEqual(
      list.map((e) => e.id),
      [second.id, first.id],
    );
    assert.deepEqual(
      list.map((e) => e.title),
      ['second question', 'first question with a second line'],
    );
  });

  test('a kept conversation reopens with its transcript and history, and stays current after a restart', async () => {
    const dir = tempDir();
    const store = new FileConversationStore(dir);
    const first = await store.current();
    say(first, 'about cats');
    await store.save(first);
    const second = store.create();
    say(second, 'about dogs');
    await store.save(second);

    const reopened = await store.open(first.id);
    assert.equal(reopened, first, 'the copy in memory, not a second one writing the same file');
    assert.deepEqual(texts(reopened), ['about cats', 'answer to about cats']);
    const afterRestart = await new FileConversationStore(dir).current();
    assert.equal(afterRestart.id, first.id);
    assert.deepEqual(afterRestart.messages, first.messages);

    // From a fresh store (another session), a listed conversation is read from its file.
    const other = new FileConversationStore(dir);
    const dogs = await other.open(second.id);
    assert.deepEqual(texts(dogs), ['about dogs', 'answer to about dogs']);
    await assert.rejects(other.open('c-no-such-conversation'), /there is no conversation c-no-such-conversation/);
  });

  test('a renamed conversation keeps its name through later messages and a restart; an empty name restores the automatic title', async () => {
    const dir = tempDir();
    const store = new FileConversationStore(dir);
    const c = await store.current();
    say(c, 'original question');
    await store.save(c);
    await store.rename(c.id, '  Cat   research  ');
    say(c, 'follow-up');
    await store.save(c);
    assert.equal((await new FileConversationStore(dir).list())[0]!.title, 'Cat research');
    await store.rename(c.id, '');
    assert.equal((await store.list())[0]!.title, 'original question');
    await assert.rejects(store.rename('c-gone', 'x'), /there is no conversation c-gone/);
  });

  test('a deleted conversation is gone: not listed, its file removed, and a save still queued for it writes nothing', async () => {
    const dir = tempDir();
    const store = new FileConversationStore(dir);
    const c = await store.current();
    say(c, 'to be deleted');
    await store.save(c);
    const keep = store.create();
    say(keep, 'to be kept');
    await store.save(keep);
    assert.ok(existsSync(join(dir, `${c.id}.jsonl`)));
    say(c, 'late words');
    const late = store.save(c);
    await store.remove(c.id);
    await late;
    assert.deepEqual(
      (await store.list()).map((e) => e.id),
      [keep.id],
    );
    assert.equal(existsSync(join(dir, `${c.id}.jsonl`)), false);
    assert.deepEqual(
      (await new FileConversationStore(dir).list()).map((e) => e.id),
      [keep.id],
    );
  });

  test('every conversation is kept by default (it deleted all past 100 without a word); with a limit, reaching it is said before the oldest is removed', async () => {
    const all = new FileConversationStore(tempDir());
    for (let i = 0; i < 105; i++) {
      const c = i === 0 ? await all.current() : all.create();
      say(c, `chat ${i}`);
      await all.save(c);
    }
    assert.equal((await all.list()).length, 105, 'none removed');

    const told: string[] = [];
    const dir = tempDir();
    const limited = new FileConversationStore(dir, {
      maxConversations: () => 3,
      onFull: (limit, next) => told.push(`${limit} ${next.title}`),
    });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const c = i === 0 ? await limited.current() : limited.create();
      say(c, `chat ${i}`);
      await limited.save(c);
      ids.push(c.id);
    }
    assert.deepEqual(told, ['3 chat 0'], 'told once the limit is reached, naming the chat the next one removes');
    assert.equal((await limited.list()).length, 3, 'nothing removed yet');
    // Another message in a kept chat removes nothing and says nothing more.
    const again = await limited.open(ids[1]!);
    say(again, 'more');
    await limited.save(again);
    assert.equal(told.length, 1);
    const fourth = limited.create();
    say(fourth, 'chat 3');
    await limited.save(fourth);
    assert.deepEqual((await limited.list()).map((e) => e.title).sort(), ['chat 1', 'chat 2', 'chat 3']);
    assert.equal(existsSync(join(dir, `${ids[0]}.jsonl`)), false, "the oldest chat's file is gone");
  });

  test('an index with a forged entry (a path for an id, a title that is not text) lists only the sound entries', async () => {
    const dir = tempDir();
    const store = new FileConversationStore(dir);
    const c = await store.current();
    say(c, 'sound');
    await store.save(c);
    const index = JSON.parse(readFileSync(join(dir, 'index.json'), 'utf8'));
    index.conversations.push(
      { id: '../../etc/passwd', title: 'x', createdAt: 1, updatedAt: 1 },
      { id: 'c-ok', title: { toString: 1 }, createdAt: 1, updatedAt: 1 },
      { id: 'c-long', title: 'y'.repeat(5000), createdAt: 1, updatedAt: 1 },
    );
    writeFileSync(join(dir, 'index.json'), JSON.stringify(index));
    const list = await new FileConversationStore(dir).list();
    assert.deepEqual(
      list.map((e) => e.id),
      [c.id, 'c-long'],
    );
    assert.equal(list[1]!.title.length, 80);
  });
});

describe('the conversation history (router)', () => {
  function router(dir: string, overrides: Parameters<typeof quietActions>[0] = {}) {
    const store = new FileConversationStore(dir);
    const actions = quietActions(overrides);
    const runner = new TurnRunner({
      registry: new ToolRegistry(),
      createModel: async () => {
        throw new Error('no model in this test');
      },
      agentOptions: () => ({ system: '', maxSteps: 1 }),
      offer: offerOf(new ToolRegistry()),
      preapproval: () => undefined,
      ask: async () => false,
    });
    const chat = new ChatRouter(store, runner, actions);
    const got: HostMessage[] = [];
    chat.attach((m) => got.push(m));
    return { store, chat, got };
  }

  test('reopening from the history shows that conversation in every view; deleting the shown one opens the next most recent, then a new chat', async () => {
    const { store, chat, got } = router(tempDir());
    const a = await chat.current();
    say(a, 'chat A');
    await store.save(a);
    chat.newChat();
    const b = await chat.current();
    say(b, 'chat B');
    await store.save(b);
    chat.newChat();
    const c = await chat.current();
    say(c, 'chat C');
    await store.save(c);

    const listed = await chat.conversations();
    assert.deepEqual(
      listed.map((e) => [e.title, e.current]),
      [
        ['chat C', true],
        ['chat B', false],
        ['chat A', false],
      ],
    );

    got.length = 0;
    await chat.openConversation(a.id);
    const state = got.find((m): m is Extract<HostMessage, { type: 'state' }> => m.type === 'state');
    assert.deepEqual(
      state?.state.items.map((i) => (i.kind === 'user' ? i.text : i.kind)),
      ['chat A', 'assistant'],
    );
    assert.equal((await chat.current()).id, a.id);

    await chat.deleteConversation(a.id);
    assert.equal((await chat.current()).id, c.id, 'the most recent other conversation is shown');
    await chat.deleteConversation(b.id);
    assert.equal((await chat.current()).id, c.id, 'deleting one not shown leaves the view as it is');
    await chat.deleteConversation(c.id);
    const fresh = await chat.current();
    assert.ok(![a.id, b.id, c.id].includes(fresh.id));
    assert.equal(fresh.size, 0, 'with nothing left, a new empty chat');
    assert.deepEqual(await chat.conversations(), []);
    chat.dispose();
  });

  test('Export is titled with the name the user gave the chat, else the start of its first message', async () => {
    const opened: string[] = [];
    const { store, chat } = router(tempDir(), { openText: async (_text, _language, title) => void opened.push(title) });
    const c = await chat.current();
    say(c, 'What is MCP?');
    await store.save(c);
    await chat.handle({ type: 'export', requestId: 1 }, () => undefined);
    await chat.renameConversation(c.id, '  Demo   tour ');
    await chat.handle({ type: 'export', requestId: 2 }, () => undefined);
    await chat.renameConversation(c.id, '');
    await chat.handle({ type: 'export', requestId: 3 }, () => undefined);
    assert.deepEqual(opened, [
      'MinAgent chat · What is MCP?.md',
      'MinAgent chat · Demo tour.md',
      'MinAgent chat · What is MCP?.md',
    ]);
    chat.dispose();
  });
});
