// A tool call with an MCP App shows while the model still writes its arguments (ui/notifications/tool-input-partial):
// through the OpenAI-compatible provider over real HTTP (the mock model writes a few characters at a time), a real hub
// and the kit server. Its card comes at the first piece, its arguments grow, the call takes the same card over; its app
// may show early only under a rule of the user's; a card whose call never comes ends cancelled.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import type { ApprovalRequest } from '../../src/core/agentTypes/events';
import { partialArguments } from '../../src/core/apps/partialArguments';
import { FileConversationStore } from '../../src/core/chat/conversation/fileConversationStore';
import { ChatRouter } from '../../src/core/chat/router';
import { TurnRunner } from '../../src/core/chat/turns';
import { ServerHub } from '../../src/core/mcp/hub/serverHub';
import { OpenAICompatibleModel } from '../../src/core/models/openai';
import type { HostMessage, ToolCard } from '../../src/shared/protocol';
import { isTranscriptItem } from '../../src/shared/validate';
import { fixture, offerOf } from '../helpers';
import { chatView, quietActions } from '../chatHarness';
import { startMockModel } from '../mockModel';

const dirs: string[] = [];
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true, maxRetries: 5 })));
const LABEL = 'written slowly, a few characters at a time';

describe('a call with an app, while the model writes it', { timeout: 60_000 }, () => {
  const hub = new ServerHub();
  after(() => hub.closeAll());

  /** One turn on a mock that writes `reply`; `rule` is the user's rules' answer (the early check is `early`). */
  async function turn(reply: Record<string, unknown>, rule: (req: ApprovalRequest) => string | undefined) {
    hub.reconcile([fixture('kit', 'appkit.mjs')]);
    await hub.whenIdle();
    const mock = await startMockModel([reply, { text: 'done' }]);
    const early: ApprovalRequest[] = [];
    const runner = new TurnRunner({
      registry: hub.registry,
      createModel: async () =>
        new OpenAICompatibleModel({ baseUrl: `http://127.0.0.1:${mock.port}/v1`, model: 'mock' }),
      agentOptions: () => ({ system: 'sys', maxSteps: 3 }),
      offer: offerOf(hub.registry),
      look: (name) => {
        const app = hub.registry.get(name)?.app;
        return app ? { app } : {};
      },
      preapproval: (req) => {
        if (req.callId === 'early') early.push(req);
        return rule(req);
      },
      ask: async () => true,
    });
    const dir = mkdtempSync(join(tmpdir(), 'minagent-early-'));
    dirs.push(dir);
    const router = new ChatRouter(new FileConversationStore(dir), runner, quietActions());
    const seen: ToolCard[] = [];
    const { send } = chatView(router, (m: HostMessage) => {
      if ((m.type === 'append' || m.type === 'update') && m.item.kind === 'tool') seen.push(m.item.card);
    });
    await send({ type: 'ready' });
    await send({ type: 'send', text: 'go' });
    await runner.idle();
    const cards = (await router.current()).items.filter((i) => i.kind === 'tool');
    assert.ok(cards.every(isTranscriptItem), "every card passes the webview's check");
    return { seen, cards: cards.map((i) => (i as { card: ToolCard }).card), early };
  }

  const slowly = (extra: Record<string, unknown> = {}) => ({
    toolCalls: [{ name: 'show_kit', arguments: { label: LABEL, wait_ms: 0 } }],
    chunk: 4,
    pace: 15,
    ...extra,
  });

  test('the card comes at the first piece and grows; the call takes it over; the app may show early under a rule', async () => {
    const { seen, cards, early } = await turn(slowly(), () => 'allowed for this chat');
    assert.equal(cards.length, 1, 'one card: the call took over the one made while it was written');
    const partial = seen.filter((c) => c.app?.partial);
    assert.ok(partial.length >= 3, `its arguments grew while written (${partial.length} updates)`);
    const labels = partial.map((c) => String(partialArguments(c.arguments).label ?? ''));
    assert.ok(
      labels.every((l) => LABEL.startsWith(l)),
      'each is the start of what the model wrote, never more',
    );
    assert.ok(
      labels.some((l) => l.length > 0 && l.length < LABEL.length),
      labels.join(' | '),
    );
    assert.equal(partial[0]!.app!.allowed, true, 'a rule of the user allows it: its app may show at once');
    assert.deepEqual(early[0]!.contextServers, ['(not known yet)'], 'the read-only rule cannot allow it this early');
    const final = cards[0]!;
    assert.equal(final.app?.partial, undefined);
    assert.equal(final.status, 'done');
    assert.deepEqual(JSON.parse(final.arguments), { label: LABEL, wait_ms: 0 });
  });

  test('without a rule its app waits for the approval, as any call', async () => {
    const { seen } = await turn(slowly(), (req) => (req.callId === 'early' ? undefined : 'asked'));
    const partial = seen.filter((c) => c.app?.partial);
    assert.ok(partial.length > 0);
    assert.ok(
      partial.every((c) => !c.app?.allowed),
      'not allowed while written',
    );
  });

  test('a call cut off while written never runs: its card ends cancelled', async () => {
    const { cards } = await turn(slowly({ cut: true }), () => 'allowed for this chat');
    assert.equal(cards.length, 1);
    assert.equal(cards[0]!.status, 'cancelled');
    assert.equal(cards[0]!.app?.partial, true, 'its arguments were never whole');
  });
});
