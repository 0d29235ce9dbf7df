// Issue 53 item 7: a chat that switches to deferred tools (a server added, a smaller model) says so in
// the transcript where it happens, and again when every tool is sent once more; the first message of a
// chat, or one where nothing changed, adds nothing. Over a real stdio server and a real provider.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { ChatRouter } from '../../src/core/chat/router';
import { FileConversationStore } from '../../src/core/chat/conversation/fileConversationStore';
import { TurnRunner } from '../../src/core/chat/turns';
import { ServerHub } from '../../src/core/mcp/hub/serverHub';
import { OpenAICompatibleModel } from '../../src/core/models/openai';
import { SEARCH_TOOL } from '../../src/core/toolSearch/deferral';
import { ToolIndex } from '../../src/core/toolSearch/toolIndex';
import { ToolOffer } from '../../src/core/toolSearch/toolOffer';
import { isTranscriptItem } from '../../src/shared/validate';
import { chatView, oneModel, quietActions } from '../chatHarness';
import { fixture } from '../helpers';
import { startMockModel } from '../mockModel';

const dir = mkdtempSync(join(tmpdir(), 'minagent-deferral-notice-'));
const stores: FileConversationStore[] = [];
after(async () => {
  await Promise.all(stores.map((s) => s.settled()));
  rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
});

test('switching to deferred tools and back is marked in the transcript, once each way, and kept after a reload', async () => {
  const m = await startMockModel([
    { text: 'one' },
    { text: 'two' },
    { text: 'three' },
    { text: 'four' },
    { text: 'five' },
  ]);
  const hub = new ServerHub();
  hub.reconcile([fixture('research', 'research.mjs')]);
  await hub.whenIdle();
  // What the tools may take of the window: all of it (every tool sent), or nothing (deferred).
  let share = 1;
  const offer = new ToolOffer({
    registry: hub.registry,
    index: new ToolIndex(hub.registry),
    settings: () => ({ share, maxLoaded: 32 }),
  });
  const open = () => {
    const runner = new TurnRunner({
      registry: hub.registry,
      createModel: async () => new OpenAICompatibleModel({ baseUrl: `http://127.0.0.1:${m.port}/v1`, model: 'mock' }),
      agentOptions: () => ({ system: 'sys', maxSteps: 2 }),
      offer,
      preapproval: () => 'test',
      ask: async () => true,
    });
    const store = new FileConversationStore(dir);
    stores.push(store);
    return { runner, router: new ChatRouter(store, runner, quietActions({ meta: oneModel('mock') })) };
  };
  const notices = async (router: ChatRouter) =>
    (await router.current()).items.flatMap((i) => (i.kind === 'notice' ? [i.text] : []));
  const toolsOf = (i: number) =>
    ((m.requests[i]!.body.tools as Array<{ function: { name: string } }> | undefined) ?? []).map(
      (t) => t.function.name,
    );
  try {
    const first = open();
    const v = chatView(first.router);
    await v.send({ type: 'ready' });
    await v.send({ type: 'send', text: 'hello' });
    await first.runner.idle();
    assert.ok(toolsOf(0).length > 1 && !toolsOf(0).includes(SEARCH_TOOL), 'every tool is sent');
    assert.deepEqual(await notices(first.router), [], "a chat's first message says nothing");

    share = 0;
    await v.send({ type: 'send', text: 'after a server was added' });
    await first.runner.idle();
    assert.deepEqual(toolsOf(1), [SEARCH_TOOL]);
    const deferred = await notices(first.router);
    assert.equal(deferred.length, 1);
    assert.match(
      deferred[0]!,
      new RegExp(
        `^Tools are deferred from this message on: .* so ${toolsOf(0).length} are not sent and the model finds them with search_tools .*Pin a tool in the Tools view to send it always\\.$`,
      ),
    );
    const items = (await first.router.current()).items;
    assert.deepEqual(
      items.slice(-3).map((i) => i.kind),
      ['user', 'notice', 'assistant'],
      'the notice is where the switch happened, before the answer',
    );
    assert.ok(items.every(isTranscriptItem), "the webview's check takes every item");

    await v.send({ type: 'send', text: 'still deferred' });
    await first.runner.idle();
    assert.equal((await notices(first.router)).length, 1, 'no second notice while nothing changes');

    // A reload: the chat remembers how its last message was sent.
    const second = open();
    const v2 = chatView(second.router);
    await v2.send({ type: 'ready' });
    share = 1;
    await v2.send({ type: 'send', text: 'room again' });
    await second.runner.idle();
    assert.deepEqual((await notices(second.router)).slice(1), [
      `Every tool is sent again from this message on (${toolsOf(0).length}): they fit the model's window.`,
    ]);
  } finally {
    await hub.closeAll();
    await m.close();
  }
});
