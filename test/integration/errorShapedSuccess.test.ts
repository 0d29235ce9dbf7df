// A server whose tool answers with the text `{"error":"x"}` succeeded: how a call ended comes from the
// call (src/core/toolRegistry/toolResult.ts), never from what its text looks like. Through the chat (its card and
// the exported chat), the trace and the CLI, against the research fixture's echo; and a real failure
// (a tool the server fails with isError) still reads as one.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { conversationMarkdown } from '../../src/core/chat/markdown';
import { ChatRouter } from '../../src/core/chat/router';
import { FileConversationStore } from '../../src/core/chat/conversation/fileConversationStore';
import { TurnRunner } from '../../src/core/chat/turns';
import { ServerHub } from '../../src/core/mcp/hub/serverHub';
import { OpenAICompatibleModel } from '../../src/core/models/openai';
import type { ToolCard } from '../../src/shared/protocol';
import { chatView, quietActions } from '../chatHarness';
import { fixture, offerOf, ROOT, SERVERS } from '../helpers';
import { startMockModel } from '../mockModel';

const ERROR_SHAPED = '{"error":"x"}';
const dirs: string[] = [];
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true, maxRetries: 5 })));
const tempDir = (prefix: string) => {
  const d = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(d);
  return d;
};

describe('a tool whose real output is {"error":"x"} succeeded', { timeout: 60_000 }, () => {
  const hub = new ServerHub();
  after(() => hub.closeAll());

  test('in the chat its card is done, the exported chat says done, and the model got the text as it was', async () => {
    hub.reconcile([fixture('research', 'research.mjs')]);
    await hub.whenIdle();
    hub.trace('research').setEnabled(true);
    const mock = await startMockModel([
      { toolCalls: [{ name: 'echo', arguments: { text: ERROR_SHAPED } }] },
      { toolCalls: [{ name: 'word_count', arguments: {} }] },
      { text: 'done' },
    ]);
    const runner = new TurnRunner({
      registry: hub.registry,
      createModel: async () =>
        new OpenAICompatibleModel({ baseUrl: `http://127.0.0.1:${mock.port}/v1`, model: 'mock' }),
      agentOptions: () => ({ system: 'sys', maxSteps: 4 }),
      offer: offerOf(hub.registry),
      preapproval: () => 'test',
      ask: async () => true,
    });
    const router = new ChatRouter(new FileConversationStore(tempDir('minagent-errshape-')), runner, quietActions());
    const { send } = chatView(router);
    await send({ type: 'ready' });
    await send({ type: 'send', text: 'go' });
    await runner.idle();
    const conversation = await router.current();
    const cards = conversation.items.filter((i) => i.kind === 'tool').map((i) => (i as { card: ToolCard }).card);
    assert.deepEqual(
      cards.map((c) => [c.name, c.status]),
      [
        ['echo', 'done'],
        ['word_count', 'error'],
      ],
      'the echo answered; word_count without its argument failed (the server said isError)',
    );
    assert.equal(cards[0]!.result, ERROR_SHAPED);
    const exported = conversationMarkdown(conversation);
    assert.match(exported, /### Tool `echo` \(server research\): done/);
    assert.match(exported, /### Tool `word_count` \(server research\): error/);
    // The model read the echo's text as it was, not marked as an error.
    const toolMessage = mock.requests[1]!.body.messages.find((m: { role: string }) => m.role === 'tool') as {
      content: string;
    };
    assert.equal(toolMessage.content, ERROR_SHAPED);
    // The trace: a response, not an error.
    const entries = hub.trace('research').entries();
    const request = entries.find((e) => e.direction === 'out' && e.method === 'tools/call' && e.text.includes('echo'))!;
    const response = entries.find((e) => e.direction === 'in' && e.id === request.id)!;
    assert.equal(response.kind, 'response');
    assert.match(response.text, /"isError":false|^(?!.*"isError":true)/s);
    await mock.close();
  });

  test('minagent call prints it and exits 0; a failed call exits 1', () => {
    const folder = tempDir('minagent-errshape-cli-');
    mkdirSync(join(folder, '.vscode'));
    writeFileSync(
      join(folder, '.vscode', 'settings.json'),
      JSON.stringify({ 'minagent.servers': { research: { command: 'node', args: [`${SERVERS}/research.mjs`] } } }),
    );
    const cli = (...args: string[]) =>
      spawnSync(process.execPath, [join(ROOT, 'dist', 'cli.js'), '--trust', ...args], {
        cwd: folder,
        encoding: 'utf8',
        timeout: 30_000,
      });
    const ok = cli('call', 'echo', JSON.stringify({ text: ERROR_SHAPED }));
    assert.equal(ok.stdout, `${ERROR_SHAPED}\n`);
    assert.equal(ok.status, 0, ok.stderr);
    const failedCall = cli('call', 'word_count', '{}');
    assert.equal(failedCall.status, 1, failedCall.stdout);
    assert.match(failedCall.stdout, /^\{"error":/);
  });
});
