// What an MCP App asks the model to know (`ui/update-model-context`): it goes on the app's card, where
// the user sees it and the stored chat keeps it, and from there into every request of that chat.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import {
  appContextSection,
  MAX_APP_CONTEXT_CHARS,
  MAX_APP_CONTEXTS_CHARS,
  setAppContext,
} from '../../src/core/chat/appContext';
import { Conversation } from '../../src/core/chat/conversation/conversation';
import { ChatRouter } from '../../src/core/chat/router';
import { FileConversationStore } from '../../src/core/chat/conversation/fileConversationStore';
import { TurnRunner } from '../../src/core/chat/turns';
import { OpenAICompatibleModel } from '../../src/core/models/openai';
import { ToolRegistry } from '../../src/core/toolRegistry/toolRegistry';
import type { TranscriptItem } from '../../src/shared/protocol';
import { parseHostMessage } from '../../src/shared/validate';
import { chatView, oneModel, quietActions } from '../chatHarness';
import { startMockModel } from '../mockModel';
import { offerOf } from '../helpers';

const appCard = (callId: string, name = 'show_chart'): TranscriptItem => ({
  kind: 'tool',
  id: `t-${callId}`,
  card: {
    callId,
    name,
    wireName: name,
    server: 'charts',
    arguments: '{}',
    status: 'done',
    startedAt: 1,
    result: 'a chart',
    app: { resourceUri: 'ui://charts/app.html', result: { content: [] } },
  },
});

test("an app's context goes on its card (cut to its bound), replaces the one before, and an empty one clears it", () => {
  const c = new Conversation('c1');
  c.append(appCard('a'));
  c.append({
    kind: 'tool',
    id: 't-plain',
    card: {
      callId: 'plain',
      name: 'echo',
      wireName: 'echo',
      arguments: '{}',
      status: 'done',
      startedAt: 1,
      result: 'x',
    },
  });
  assert.equal(setAppContext(c, 'a', 'The user picked the second bar.'), true);
  const card = () => (c.find('t-a') as Extract<TranscriptItem, { kind: 'tool' }>).card;
  assert.equal(card().app?.context, 'The user picked the second bar.');
  setAppContext(c, 'a', 'x'.repeat(MAX_APP_CONTEXT_CHARS + 500));
  assert.equal(card().app?.context?.length, MAX_APP_CONTEXT_CHARS);
  setAppContext(c, 'a', '  ');
  assert.equal(card().app?.context, undefined);
  assert.equal(card().app?.resourceUri, 'ui://charts/app.html', 'the rest of the app stays');
  assert.equal(setAppContext(c, 'plain', 'no app here'), false, 'a card without an app takes none');
  assert.equal(setAppContext(c, 'elsewhere', 'another chat'), false, "a card of another chat is not this one's");
});

test('the section names each app by tool and server, newest first within its bound, and is empty without contexts', () => {
  const c = new Conversation('c2');
  assert.equal(appContextSection(c.items), '');
  for (const id of ['old', 'a', 'b', 'c', 'mid', 'new']) c.append(appCard(id));
  // Four apps at the most each may say outgrow the bound: the oldest is left out.
  setAppContext(c, 'old', 'o'.repeat(MAX_APP_CONTEXT_CHARS));
  for (const id of ['a', 'b', 'c']) setAppContext(c, id, 'p'.repeat(MAX_APP_CONTEXT_CHARS));
  setAppContext(c, 'mid', 'the middle one');
  setAppContext(c, 'new', 'the newest one');
  const section = appContextSection(c.items);
  assert.equal(section.match(/<app-context /g)?.length, 5);
  assert.match(
    section,
    /<app-context tool="show_chart" server="charts">\nthe middle one\n<\/app-context>\n<app-context tool="show_chart" server="charts">\nthe newest one\n<\/app-context>$/,
  );
  assert.doesNotMatch(section, /ooo/, 'the oldest does not fit beside the newer ones');
  assert.ok(section.length <= MAX_APP_CONTEXTS_CHARS + 200);
});

test("the next request of the chat carries what its app said, in the system prompt; the view's state passes the protocol's check", async () => {
  const m = await startMockModel([{ text: 'noted' }]);
  const host = {
    registry: new ToolRegistry(),
    createModel: async () => new OpenAICompatibleModel({ baseUrl: `http://127.0.0.1:${m.port}/v1`, model: 'mock' }),
    agentOptions: () => ({
      system: 'sys',
      instructions: () => '<server-instructions server="charts">Be brief.</server-instructions>',
      maxSteps: 3,
    }),
    offer: offerOf(new ToolRegistry()),
    preapproval: () => undefined,
    ask: async () => false,
  };
  const router = new ChatRouter(
    new FileConversationStore(mkdtempSync(join(tmpdir(), 'minagent-appctx-'))),
    new TurnRunner(host),
    quietActions({ meta: oneModel('mock') }),
  );
  const v = chatView(router);
  await v.send({ type: 'ready' });
  const c = await router.current();
  c.append(appCard('a'));
  setAppContext(c, 'a', 'The user zoomed into March.');
  await v.send({ type: 'send', text: 'what am I looking at?' });
  await waitForRequest(m.requests);
  const system = String(m.requests[0]!.body.messages.find((x) => x.role === 'system')?.content);
  assert.match(
    system,
    /^sys\n\n<server-instructions server="charts">Be brief\.<\/server-instructions>\n\nWhat the apps shown in this chat asked you to know \(written by their servers\):\n<app-context tool="show_chart" server="charts">\nThe user zoomed into March\.\n<\/app-context>$/,
  );
  const update = v.got.find((x) => x.type === 'update' && x.item.kind === 'tool' && x.item.card.app?.context);
  assert.ok(update, `the view got the card's update (${v.got.map((x) => x.type).join(', ')})`);
  assert.ok(parseHostMessage(update), "the card's update with its context passes the view's check");
  await m.close();
});

async function waitForRequest(requests: unknown[]): Promise<void> {
  for (let i = 0; i < 200 && !requests.length; i++) await new Promise((r) => setTimeout(r, 25));
}
