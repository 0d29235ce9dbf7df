// Resource links and embedded resources in a tool result: the card lists them (as data, never
// markup), the view opens one by its position in the card, and the model gets them faithfully.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { FileConversationStore } from '../../src/core/chat/conversation/fileConversationStore';
import { ChatRouter } from '../../src/core/chat/router';
import { TurnRunner } from '../../src/core/chat/turns';
import { ServerHub } from '../../src/core/mcp/hub/serverHub';
import { OpenAICompatibleModel } from '../../src/core/models/openai';
import type { CardResource, ToolCard } from '../../src/shared/protocol';
import { isTranscriptItem, parseWebviewMessage } from '../../src/shared/validate';
import { fixture, offerOf } from '../helpers';
import { chatView, quietActions } from '../chatHarness';
import { startMockModel } from '../mockModel';

const PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const dirs: string[] = [];
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true, maxRetries: 5 })));

describe('resources in tool results', { timeout: 60_000 }, () => {
  const hub = new ServerHub();
  after(() => hub.closeAll());

  async function turn(tool: string, args: Record<string, unknown>) {
    hub.reconcile([fixture('library', 'library.mjs', [], { env: { LIBRARY_HOSTILE: '1' } })]);
    await hub.whenIdle();
    const mock = await startMockModel([{ toolCalls: [{ name: tool, arguments: args }] }, { text: 'done' }]);
    const opened: CardResource[] = [];
    const actions = quietActions({ openResource: async (r) => void opened.push(r) });
    const runner = new TurnRunner({
      registry: hub.registry,
      createModel: async () =>
        new OpenAICompatibleModel({ baseUrl: `http://127.0.0.1:${mock.port}/v1`, model: 'mock' }),
      agentOptions: () => ({ system: 'sys', maxSteps: 3 }),
      offer: offerOf(hub.registry),
      // As the extension's host does: the registry's title and the checked icon (the hostile case hands a bad one).
      look: (name) => ({
        ...(hub.registry.get(name)?.title ? { title: hub.registry.get(name)!.title! } : {}),
        icon: name === 'cite' ? PNG : 'javascript:alert(1)',
      }),
      preapproval: () => 'test',
      ask: async () => true,
    });
    const dir = mkdtempSync(join(tmpdir(), 'minagent-cardres-'));
    dirs.push(dir);
    const router = new ChatRouter(new FileConversationStore(dir), runner, actions);
    const { got, send } = chatView(router);
    await send({ type: 'ready' });
    await send({ type: 'send', text: 'go' });
    await runner.idle();
    const item = (await router.current()).items.find((i) => i.kind === 'tool')!;
    assert.ok(isTranscriptItem(item), "the card passes the webview's check");
    return { card: (item as { card: ToolCard }).card, mock, opened, send, got };
  }

  test('a link and an embedded resource show in the card and open by position; the model got both in text', async () => {
    const { card, mock, opened, send, got } = await turn('cite', { id: 'readme' });
    assert.deepEqual([card.title, card.icon], ['Cite a note', PNG], "the tool's title and icon");
    assert.deepEqual(card.resources, [
      { kind: 'link', server: 'library', uri: 'library://notes/readme', label: 'note readme', mimeType: 'text/plain' },
      {
        kind: 'embedded',
        server: 'library',
        uri: 'library://notes/readme',
        label: 'library://notes/readme',
        mimeType: 'text/plain',
        size: 23,
        text: 'Welcome to the library.',
      },
    ]);
    await send({ type: 'openResource', callId: card.callId, index: 1 });
    await send({ type: 'openResource', callId: card.callId, index: 0 });
    assert.deepEqual(
      opened.map((r) => [r.kind, r.uri]),
      [
        ['embedded', 'library://notes/readme'],
        ['link', 'library://notes/readme'],
      ],
    );
    await send({ type: 'openResource', callId: card.callId, index: 5 });
    assert.match((got.at(-1) as { error?: string }).error ?? '', /no longer in the conversation/);
    for (const bad of [-1, 1.5, '0', 1e9])
      assert.equal(
        parseWebviewMessage({ type: 'openResource', callId: card.callId, index: bad, requestId: 1 }),
        undefined,
        `index ${String(bad)} is refused`,
      );
    const toolMessage = mock.requests[1]!.body.messages.find((m) => m.role === 'tool')!;
    assert.match(
      String(toolMessage.content),
      /\[resource link from server "library": note readme <library:\/\/notes\/readme> \(text\/plain\) - note readme of library\]/,
    );
    assert.match(
      String(toolMessage.content),
      /\[embedded resource <library:\/\/notes\/readme> \(text\/plain\) from server "library"\]\nWelcome to the library\.\n\[end of resource/,
    );
  });

  test('attack: javascript: and command: links and an HTML embedded resource are carried as text, and opening one asks the host for that card entry only', async () => {
    const { card, opened, send } = await turn('hostile_links', {});
    assert.equal(card.icon, undefined, 'an icon that is not a checked data: image is dropped');
    assert.deepEqual(
      card.resources!.map((r) => [r.kind, r.uri, r.label]),
      [
        ['link', 'javascript:document.title="pwned-link"', '<img src=x onerror="document.title=\'pwned-name\'">'],
        ['link', 'command:workbench.action.closeWindow', 'Harmless notes'],
        ['embedded', 'library://notes/evil', 'library://notes/evil'],
      ],
    );
    // The view names a card and a position, never a URI: it cannot make the host open anything else.
    assert.equal(
      parseWebviewMessage({
        type: 'openResource',
        callId: card.callId,
        index: 1,
        uri: 'command:x',
        server: 'other',
        requestId: 3,
      })?.type,
      'openResource',
    );
    await send({ type: 'openResource', callId: card.callId, index: 1, uri: 'file:///etc/passwd', server: 'other' });
    assert.deepEqual(
      opened.map((r) => [r.server, r.uri]),
      [['library', 'command:workbench.action.closeWindow']],
    );
  });
});
