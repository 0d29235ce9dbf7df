// Deferred tools in a conversation (issue 27), over real stdio servers and a real provider: the first
// request carries only search_tools; the model searches, the match is loaded and called; it stays in
// the requests of later turns and after a window reload (a new router over the same files); when its
// server takes it away (tools/list_changed), the model's next call to it is told so. And what a server
// author writes cannot take the places a search loads from the tool the user asked for (issue 51).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { ChatRouter } from '../../src/core/chat/router';
import { FileConversationStore } from '../../src/core/chat/conversation/fileConversationStore';
import type { TurnHost } from '../../src/core/chat/turn';
import { TurnRunner } from '../../src/core/chat/turns';
import { ServerHub } from '../../src/core/mcp/hub/serverHub';
import { OpenAICompatibleModel } from '../../src/core/models/openai';
import { SEARCH_TOOL } from '../../src/core/toolSearch/deferral';
import type { ServerConfig } from '../../src/core/mcp/config/serverConfig';
import { SEARCH_LOADS, SERVER_PLACES, ToolIndex } from '../../src/core/toolSearch/toolIndex';
import { ToolOffer } from '../../src/core/toolSearch/toolOffer';
import { chatView, oneModel, quietActions } from '../chatHarness';
import { fixture, reference, waitFor } from '../helpers';
import { startMockModel, startRuleModel } from '../mockModel';
import { AnthropicModel, TOOL_SEARCH, TOOL_SEARCH_BETA } from '../../src/core/models/anthropic';

const dir = mkdtempSync(join(tmpdir(), 'minagent-toolsearch-'));
after(() => rmSync(dir, { recursive: true, force: true, maxRetries: 5 }));

test('a searched tool is loaded, called, kept for later turns and after a reload; removed by its server, the model is told on its next call', async () => {
  const m = await startMockModel([
    { toolCalls: [{ name: SEARCH_TOOL, arguments: { query: 'weather for a city' } }] },
    { toolCalls: [{ name: 'weather_report', arguments: { city: 'Paris' } }] },
    { text: 'Sunny in Paris.' },
    { text: 'hello back' },
    { text: 'hello again' },
    { toolCalls: [{ name: 'weather_report', arguments: { city: 'Oslo' } }] },
    { text: 'It is gone.' },
  ]);
  const hub = new ServerHub();
  hub.reconcile([fixture('research', 'research.mjs'), fixture('dyn', 'faulty.mjs', ['list-changed'])]);
  await hub.whenIdle();
  const index = new ToolIndex(hub.registry);
  try {
    // Deferred whatever the size (a share of 0), as past 10% of the window or 128 tools.
    const offer = new ToolOffer({ registry: hub.registry, index, settings: () => ({ share: 0, maxLoaded: 32 }) });
    const host: TurnHost = {
      registry: hub.registry,
      createModel: async () => new OpenAICompatibleModel({ baseUrl: `http://127.0.0.1:${m.port}/v1`, model: 'mock' }),
      agentOptions: () => ({ system: 'sys', maxSteps: 5 }),
      offer,
      preapproval: () => 'allowed in this test',
      ask: async () => true,
    };
    const open = () => {
      const runner = new TurnRunner(host);
      return {
        runner,
        router: new ChatRouter(new FileConversationStore(dir), runner, quietActions({ meta: oneModel('mock') })),
      };
    };
    const toolsOf = (i: number) =>
      ((m.requests[i]!.body.tools as Array<{ function: { name: string } }> | undefined) ?? []).map(
        (t) => t.function.name,
      );

    const first = open();
    const v = chatView(first.router);
    await v.send({ type: 'ready' });
    await v.send({ type: 'send', text: 'What is the weather in Paris?' });
    await first.runner.idle();
    assert.deepEqual(toolsOf(0), [SEARCH_TOOL], 'the first request carries only the search');
    assert.ok(
      toolsOf(1).includes('weather_report'),
      `the search loaded it for the next step: ${toolsOf(1).join(', ')}`,
    );
    const c = (await first.router.current())!;
    const cards = c.items.flatMap((i) => (i.kind === 'tool' ? [i.card] : []));
    assert.deepEqual(
      cards.map((k) => [k.name, k.status]),
      [
        [SEARCH_TOOL, 'done'],
        ['weather_report', 'done'],
      ],
      'the user sees the search and the call',
    );
    assert.match(
      cards[0]!.result!,
      /"name":"weather_report","server":"dyn","description":"Reports the weather for a city\."/,
    );
    assert.equal(cards[1]!.result, 'sunny in Paris');

    await v.send({ type: 'send', text: 'hi' });
    await first.runner.idle();
    assert.ok(toolsOf(3).includes('weather_report'), 'a later turn still carries the loaded tool');

    // A window reload: a new router over the same files.
    const second = open();
    const v2 = chatView(second.router);
    await v2.send({ type: 'ready' });
    await v2.send({ type: 'send', text: 'hi again' });
    await second.runner.idle();
    assert.ok(
      toolsOf(4).includes('weather_report'),
      'after a reload the conversation loads it again, from its own messages',
    );

    // The server takes the tool away; the model, which remembers it, calls it.
    assert.equal(await hub.registry.call('remove_weather', {}), 'removed');
    await waitFor('weather_report gone from the registry', () => !hub.registry.get('weather_report'));
    await v2.send({ type: 'send', text: 'and in Oslo?' });
    await second.runner.idle();
    assert.equal(toolsOf(5).includes('weather_report'), false);
    const told = (m.requests[6]!.body.messages as Array<{ role: string; content: string }>)
      .filter((x) => x.role === 'tool')
      .at(-1)!.content;
    assert.match(
      told,
      /^\{"error":"tool \\"weather_report\\" is gone: its server no longer lists it .*search_tools finds what there is now"\}$/,
    );
  } finally {
    index.dispose();
    await hub.closeAll();
  }
});

test("with Anthropic, the provider's own tool search: every tool sent deferred beside its search tool; what it found is called, replayed in the history, and loaded", async () => {
  const m = await startRuleModel();
  const hub = new ServerHub();
  hub.reconcile([fixture('research', 'research.mjs'), fixture('dyn', 'faulty.mjs', ['list-changed'])]);
  await hub.whenIdle();
  const index = new ToolIndex(hub.registry);
  try {
    const host: TurnHost = {
      registry: hub.registry,
      createModel: async () =>
        new AnthropicModel({ baseUrl: `http://127.0.0.1:${m.port}`, model: 'claude-sonnet-4-5', apiKey: 'k' }),
      agentOptions: () => ({ system: 'sys', maxSteps: 5 }),
      offer: new ToolOffer({ registry: hub.registry, index, settings: () => ({ share: 0, maxLoaded: 32 }) }),
      preapproval: () => 'allowed in this test',
      ask: async () => true,
    };
    const runner = new TurnRunner(host);
    const router = new ChatRouter(
      new FileConversationStore(mkdtempSync(join(tmpdir(), 'minagent-native-'))),
      runner,
      quietActions({ meta: oneModel('mock') }),
    );
    const v = chatView(router);
    await v.send({ type: 'ready' });
    await v.send({ type: 'send', text: 'What is the weather in Paris?' });
    await runner.idle();
    type WireTool = { name: string; type?: string; defer_loading?: boolean };
    const first = m.requests[0]!;
    const tools = first.body.tools as WireTool[];
    assert.equal(first.headers['anthropic-beta'], TOOL_SEARCH_BETA);
    assert.deepEqual(tools[0], TOOL_SEARCH, "the provider's search tool first");
    assert.ok(
      tools.slice(1).every((t) => t.defer_loading === true),
      'every tool deferred: none in the context',
    );
    assert.equal(
      tools.some((t) => t.name === SEARCH_TOOL),
      false,
      'no client-side search_tools',
    );
    // The API refuses a deferred tool's call in the history unless the search result that found it is there too (the
    // mock checks).
    assert.equal(m.requests.length, 2, 'the call went back with the search blocks, and the model answered');
    const replayed = (m.requests[1]!.body.messages as Array<{ role: string; content: Array<{ type: string }> }>)
      .find((x) => x.role === 'assistant')!
      .content.map((b) => b.type);
    assert.deepEqual(replayed, ['server_tool_use', 'tool_search_tool_result', 'tool_use']);
    assert.equal(
      (m.requests[1]!.body.tools as WireTool[]).find((t) => t.name === 'weather_report')?.defer_loading,
      undefined,
      'what it found is loaded for the next request',
    );
    const c = (await router.current())!;
    const cards = c.items.flatMap((i) => (i.kind === 'tool' ? [i.card] : []));
    assert.deepEqual(
      cards.map((k) => [k.name, k.status]),
      [
        [SEARCH_TOOL, 'done'],
        ['weather_report', 'done'],
      ],
      "the user sees the provider's search as a card, and the call",
    );
    assert.match(cards[0]!.result!, /"name":"weather_report","server":"dyn"/);
    assert.match(
      c.items.at(-1)!.kind === 'assistant' ? (c.items.at(-1) as { text: string }).text : '',
      /sunny in Paris/,
    );
  } finally {
    index.dispose();
    await hub.closeAll();
  }
});

/**
 * search_tools as the model calls it over these servers, their instructions indexed as the extension and
 * the CLI index them: per query, the tools it loads as `server/name`, best first.
 */
async function loadedBy(
  servers: ServerConfig[],
  queries: string[],
  check: (hub: ServerHub) => void = () => {},
): Promise<string[][]> {
  const hub = new ServerHub();
  hub.reconcile(servers);
  await hub.whenIdle();
  const index = new ToolIndex(hub.registry, (server) => hub.catalog.serverInstructions(server));
  try {
    check(hub);
    const offer = new ToolOffer({ registry: hub.registry, index, settings: () => ({ share: 0, maxLoaded: 32 }) });
    return queries.map((query) => {
      const result = JSON.parse(offer.search({ query }, []).text) as {
        loaded: Array<{ name: string; server?: string }>;
      };
      return result.loaded.map(
        (t) => `${t.server ?? ''}/${hub.registry.get(hub.registry.resolve(t.name)!)?.remoteName ?? t.name}`,
      );
    });
  } finally {
    index.dispose();
    await hub.closeAll();
  }
}

const QUERY = 'create a new issue in the repository';

test("a server's tools named after a query's words (a, new, issue, repository, in) do not outrank the tool the query asks for", async () => {
  const [loaded] = await loadedBy(
    [fixture('github', 'lookalikes.mjs', ['github']), fixture('words', 'lookalikes.mjs', ['words'])],
    [QUERY],
  );
  assert.equal(loaded![0], 'github/create_issue', `loaded: ${loaded!.join(', ')}`);
});

test('one server takes at most its share of the places a search loads, unless the query names it', async () => {
  const servers = [
    fixture('github', 'lookalikes.mjs', ['github']),
    fixture('words', 'lookalikes.mjs', ['words']),
    fixture('echoes', 'lookalikes.mjs', ['echoes']),
  ];
  const [plain, named] = await loadedBy(servers, [QUERY, `${QUERY} on echoes`]);
  const count = (loaded: string[], server: string) => loaded.filter((n) => n.startsWith(`${server}/`)).length;
  assert.equal(plain!.length, SEARCH_LOADS);
  assert.ok(plain!.includes('github/create_issue'), `loaded: ${plain!.join(', ')}`);
  for (const server of ['words', 'echoes'])
    assert.ok(
      count(plain!, server) <= SERVER_PLACES,
      `${server} holds at most ${SERVER_PLACES} places: ${plain!.join(', ')}`,
    );
  assert.equal(count(named!, 'echoes'), SEARCH_LOADS, `named, the server may fill them: ${named!.join(', ')}`);
});

test("a server's long instructions do not lift its every tool above a linter's lint-files for a query about linting a file", async () => {
  const [loaded] = await loadedBy(
    [
      reference('everything', 'server-everything'),
      fixture('eslint', 'lookalikes.mjs', ['eslint']),
      fixture('echoes', 'lookalikes.mjs', ['echoes']),
    ],
    ['check this file for lint errors'],
    (hub) =>
      assert.ok(
        (hub.catalog.serverInstructions('everything') ?? '').length > 1000,
        'server-everything gives its instructions, and they are indexed',
      ),
  );
  assert.equal(loaded![0], 'eslint/lint-files', `loaded: ${loaded!.join(', ')}`);
});
