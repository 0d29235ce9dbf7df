// The context budget: requests fit the model's window; trimming order; tool calls stay with their results.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { after, describe, test } from 'node:test';
import { Agent } from '../../src/core/agent/agent';
import { ScriptedModel } from '../scriptedModel';
import type { ChatMessage } from '../../src/core/agentTypes/messages';
import { BudgetError, fitRequest, pairToolCalls, SHORTENED_CHARS } from '../../src/core/budget/fit';
import { counterFor, o200kCounter } from '../../src/core/budget/limits';
import { startO200kWorker } from '../../src/core/budget/tokenizerWorker';
import { estimateCounter, messageTokens } from '../../src/core/budget/tokens';
import { OpenAICompatibleModel } from '../../src/core/models/openai';
import { ToolRegistry } from '../../src/core/toolRegistry/toolRegistry';
import { ROOT } from '../helpers';

interface WireMessage {
  role: string;
  content: string | null;
  tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }>;
  tool_call_id?: string;
}
interface Mock {
  port: number;
  requests: Array<{ body: { messages: WireMessage[]; tools?: Array<{ function: { name: string } }> } }>;
  close(): Promise<void>;
}
const mocks: Mock[] = [];
after(() => Promise.all(mocks.map((m) => m.close())));
async function mock(options: Record<string, unknown>): Promise<Mock> {
  const { startMockModel } = (await import(join(ROOT, 'fixtures', 'models', 'mock-model.mjs'))) as {
    startMockModel: (o: object) => Promise<Mock>;
  };
  const m = await startMockModel(options);
  mocks.push(m);
  return m;
}

const page = (n: number, size: number) => `page ${n}: ${'lorem ipsum '.repeat(Math.ceil(size / 12))}`.slice(0, size);

/** Every tool call sent has its result right after it, and every result its call. */
function assertPaired(messages: WireMessage[]): void {
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    if (m.role === 'tool') {
      const call = messages
        .slice(0, i)
        .reverse()
        .find((x) => x.role === 'assistant');
      assert.ok(
        call?.tool_calls?.some((c) => c.id === m.tool_call_id),
        `result ${m.tool_call_id} has its call`,
      );
    }
    if (m.role === 'assistant' && m.tool_calls?.length) {
      const results = messages.slice(i + 1, i + 1 + m.tool_calls.length);
      assert.deepEqual(
        results.map((r) => r.tool_call_id),
        m.tool_calls.map((c) => c.id),
        'each call is followed by its result',
      );
    }
  }
}

describe('a conversation past a small window, through the mock model over HTTP', () => {
  test('older results are shortened, then the oldest turns left out with a note; tool calls stay paired; the current turn is sent whole', {
    timeout: 30_000,
  }, async () => {
    const call = (n: number, size: number) => ({ toolCalls: [{ name: 'fetch_page', arguments: { n, size } }] });
    const m = await mock({
      replies: [
        call(1, 3000),
        { text: 'read page 1' },
        call(2, 3000),
        { text: 'read page 2' },
        call(3, 3900),
        { text: 'read page 3' },
      ],
    });
    const registry = new ToolRegistry();
    registry.add({
      name: 'fetch_page',
      description: 'Reads a page',
      parameters: { type: 'object', properties: { n: { type: 'number' }, size: { type: 'number' } } },
      call: async (a) => page(Number(a.n), Number(a.size)),
    });
    // 2,000 tokens, a quarter kept for the answer: 1,500 for the request (the estimate: 3 characters a token).
    const model = new OpenAICompatibleModel({
      baseUrl: `http://127.0.0.1:${m.port}/v1`,
      model: 'mock-model',
      contextWindow: 2000,
    });
    const agent = new Agent(model, registry, { system: 'Be brief.' });
    const notices: string[][] = [];
    let history: ChatMessage[] = [];
    for (const q of ['Read page 1', 'Read page 2', 'Read page 3']) {
      const seen: string[] = [];
      const result = await agent.run(q, { history, onEvent: (e) => e.type === 'notice' && seen.push(e.message) });
      assert.equal(result.stopped, undefined, `turn "${q}" ended normally`);
      notices.push(seen);
      history = result.messages;
    }
    // The stored conversation keeps everything; only what is sent is trimmed.
    assert.equal(
      history
        .filter((x) => x.role === 'tool')
        .map((x) => x.content.length)
        .join(','),
      '3000,3000,3900',
    );

    const sent = m.requests.map((r) => r.body.messages);
    assert.equal(sent.length, 6);
    for (const messages of sent) assertPaired(messages);
    const tools = (msgs: WireMessage[]) => msgs.filter((x) => x.role === 'tool').map((x) => x.content ?? '');
    // Turn 1 fits as it is.
    assert.deepEqual(tools(sent[1]!), [page(1, 3000)]);
    assert.deepEqual(notices[0], []);
    // Turn 2, after its tool result: page 1's result (an older turn) is shortened; page 2's is whole.
    const t2 = tools(sent[3]!);
    assert.equal(t2[1], page(2, 3000));
    assert.equal(
      t2[0],
      `${page(1, 3000).slice(0, SHORTENED_CHARS)}\n…[shortened to fit the model's context window: ${3000 - SHORTENED_CHARS} of 3000 characters left out]`,
    );
    assert.deepEqual(notices[1], [
      "Trimmed to fit the model's context window (2,000 tokens, minagent.chat.contextWindow): 1 older tool result shortened.",
    ]);
    // Turn 3, after its tool result: both older turns are left out whole, named in a note in the system prompt.
    const last = sent[5]!;
    assert.deepEqual(
      last.map((x) => x.role),
      ['system', 'user', 'assistant', 'tool'],
    );
    assert.equal(
      last[0]!.content,
      "Be brief.\n\n[2 earlier turns were left out of this conversation to fit the model's context window. In them the user had asked:]\n1. Read page 1\n2. Read page 2",
    );
    assert.equal(last[1]!.content, 'Read page 3');
    assert.deepEqual(JSON.parse(last[2]!.tool_calls![0]!.function.arguments), { n: 3, size: 3900 });
    assert.equal(last[3]!.content, page(3, 3900), 'the current turn is sent whole');
    // Its first request already needed page 1 shortened; the one with page 3's result needed more (one note each).
    assert.deepEqual(notices[2], [
      "Trimmed to fit the model's context window (2,000 tokens, minagent.chat.contextWindow): 1 older tool result shortened.",
      "Trimmed to fit the model's context window (2,000 tokens, minagent.chat.contextWindow): 2 older tool results shortened, 2 oldest turns left out.",
    ]);
    // And what was sent fits: counted the way the budget counts.
    for (const messages of sent)
      assert.ok(JSON.stringify(messages).length / 3 < 2000, 'each request is within the window');
  });

  test('a message that cannot fit even alone is not sent: the run says why and hands back the history without it', {
    timeout: 15_000,
  }, async () => {
    const m = await mock({ replies: [{ text: 'never' }] });
    const model = new OpenAICompatibleModel({
      baseUrl: `http://127.0.0.1:${m.port}/v1`,
      model: 'mock-model',
      contextWindow: 400,
    });
    const history = [
      { role: 'user' as const, content: 'hi' },
      { role: 'assistant' as const, content: 'hello' },
    ];
    const result = await new Agent(model, new ToolRegistry()).run('x'.repeat(3000), { history });
    assert.equal(result.stopped, 'error');
    assert.match(
      result.notSent ?? '',
      /^this request needs about \d+ tokens, but the model's window allows 300 \(400 less 100 kept for the answer; minagent.chat.contextWindow\)/,
    );
    assert.deepEqual(result.messages, history, 'the history as it was, without the message');
    assert.equal(m.requests.length, 0, 'nothing reached the model');
  });

  test("an Ollama base URL: the window is the server's own (loaded context_length, else num_ctx, else its default), asked through the native API", {
    timeout: 15_000,
  }, async () => {
    const show = { parameters: 'temperature 0.7\nnum_ctx 2048', model_info: { 'llama.context_length': 131072 } };
    const plain = await mock({ replies: [], ollama: { show } });
    const limits = (port: number) =>
      new OpenAICompatibleModel({ baseUrl: `http://127.0.0.1:${port}/v1`, model: 'llama3.2' }).limits();
    assert.deepEqual((await limits(plain.port)).window, { tokens: 2048, source: "Ollama: the model's num_ctx" });
    const loaded = await mock({
      replies: [],
      ollama: { show, ps: { models: [{ name: 'llama3.2:latest', model: 'llama3.2:latest', context_length: 8192 }] } },
    });
    assert.deepEqual((await limits(loaded.port)).window, {
      tokens: 8192,
      source: "Ollama: the loaded model's context_length",
    });
    const bare = await mock({
      replies: [],
      ollama: { show: { parameters: '', model_info: { 'qwen2.context_length': 32768 } } },
    });
    assert.deepEqual((await limits(bare.port)).window, {
      tokens: 4096,
      source: "Ollama: the server's default num_ctx (4096)",
    });
    const small = await mock({ replies: [], ollama: { show: { model_info: { 'tiny.context_length': 1024 } } } });
    assert.equal((await limits(small.port)).window.tokens, 1024, 'capped by what the model was trained for');
    // Any other OpenAI-compatible server (no native API): the assumed default, saying how to set it.
    const other = await mock({ replies: [] });
    assert.deepEqual((await limits(other.port)).window, {
      tokens: 32768,
      source: 'assumed; set minagent.chat.contextWindow',
    });
    // A published model is not asked about, and is counted with its real tokenizer.
    const gpt = await new OpenAICompatibleModel({
      baseUrl: `http://127.0.0.1:${other.port}/v1`,
      model: 'gpt-4o-mini',
    }).limits();
    assert.deepEqual(gpt.window, { tokens: 128000, source: 'published window of gpt-4o' });
    assert.equal(gpt.counter, await o200kCounter());
    assert.equal(counterFor('gpt-4o-mini'), o200kCounter(), 'an OpenAI model is counted with o200k_base');
    assert.equal(await counterFor('llama3.2'), estimateCounter, 'any other model with the estimate');
  });

  test('the Ollama window trims a request the server would otherwise cut silently', { timeout: 15_000 }, async () => {
    const m = await mock({ replies: [{ text: 'ok' }], ollama: { show: { parameters: 'num_ctx 1024' } } });
    const model = new OpenAICompatibleModel({ baseUrl: `http://127.0.0.1:${m.port}/v1`, model: 'llama3.2' });
    const history: ChatMessage[] = [
      { role: 'user', content: 'old question' },
      { role: 'assistant', content: 'x'.repeat(3000) },
    ];
    const notices: string[] = [];
    await new Agent(model, new ToolRegistry()).run('new question', {
      history,
      onEvent: (e) => e.type === 'notice' && notices.push(e.message),
    });
    assert.deepEqual(
      m.requests[0]!.body.messages.map((x) => x.content),
      [
        "[1 earlier turn was left out of this conversation to fit the model's context window. In them the user had asked:]\n1. old question",
        'new question',
      ],
    );
    assert.match(notices[0]!, /\(1,024 tokens, Ollama: the model's num_ctx\): 1 oldest turn left out/);
  });
});

describe('fitRequest', () => {
  const window = { tokens: 1000, source: 'test' }; // 750 for the request
  const call = (id: string): ChatMessage => ({
    role: 'assistant',
    content: '',
    toolCalls: [{ id, name: 'shot', arguments: '{}' }],
  });
  const result = (id: string, content: string, images = 0): ChatMessage => ({
    role: 'tool',
    toolCallId: id,
    name: 'shot',
    content,
    ...(images ? { images: Array.from({ length: images }, () => ({ mimeType: 'image/png', data: 'AAAA' })) } : {}),
  });

  test('images of older turns are dropped after their results are shortened, before any turn is left out', async () => {
    const messages: ChatMessage[] = [
      { role: 'user', content: 'first' },
      call('a'),
      result('a', 'y'.repeat(900), 1),
      { role: 'assistant', content: 'done' },
      { role: 'user', content: 'second' },
    ];
    const fitted = await fitRequest(messages, [], window, estimateCounter);
    assert.deepEqual(fitted.trimmed, { shortened: 1, imagesDropped: 1, turnsDropped: 0 });
    const tool = fitted.messages[2] as Extract<ChatMessage, { role: 'tool' }>;
    assert.equal(tool.images, undefined);
    assert.match(tool.content, /\[1 image left out to fit the context window\]$/);
    assert.ok(fitted.tokens <= fitted.limit);
  });

  test('a request within the window is sent untouched', async () => {
    const messages: ChatMessage[] = [
      { role: 'system', content: 's' },
      { role: 'user', content: 'q' },
      call('a'),
      result('a', 'r', 1),
    ];
    const fitted = await fitRequest(messages, [], { tokens: 10_000, source: 'test' }, estimateCounter);
    assert.deepEqual(fitted.messages, messages);
    assert.equal(fitted.trimmed, undefined);
  });

  test('when the current turn alone is too big, its earlier steps are shortened before its latest', async () => {
    const messages: ChatMessage[] = [
      { role: 'user', content: 'go' },
      call('a'),
      result('a', 'p'.repeat(1200)),
      call('b'),
      result('b', 'q'.repeat(1200)),
    ];
    const fitted = await fitRequest(messages, [], window, estimateCounter);
    assert.equal(
      (fitted.messages[2] as { content: string }).content.length < 600,
      true,
      'the earlier step is shortened',
    );
    assert.equal((fitted.messages[4] as { content: string }).content, 'q'.repeat(1200), 'the latest step is whole');
  });

  test('the tool schemas alone over the window: a clear error naming the Tools tree', async () => {
    const tools = [{ name: 'big', description: 'd'.repeat(3000), parameters: {} }];
    await assert.rejects(
      fitRequest([{ role: 'user', content: 'q' }], tools, window, estimateCounter),
      (err: Error) =>
        err instanceof BudgetError &&
        /tool schemas alone .* switch servers or tools off in the Tools tree/.test(err.message),
    );
  });

  test('pairToolCalls: a call without a result gets an error result; a result without its call is left out', () => {
    const out = pairToolCalls([
      { role: 'user', content: 'q' },
      result('stray', 'lost'),
      call('a'),
      { role: 'user', content: 'next' },
    ]);
    assert.deepEqual(
      out.map((x) => x.role),
      ['user', 'assistant', 'tool', 'user'],
    );
    assert.equal((out[2] as { toolCallId: string }).toolCallId, 'a');
    assert.match((out[2] as { content: string }).content, /no result/);
  });

  test('the o200k_base tokenizer counts real tokens in its worker, bundled as the build bundles it', {
    timeout: 30_000,
  }, async () => {
    const outfile = join(mkdtempSync(join(tmpdir(), 'minagent-o200k-')), 'o200kWorker.js');
    await build({
      entryPoints: [join(ROOT, 'src/core/budget/o200kWorker.ts')],
      outfile,
      bundle: true,
      platform: 'node',
      format: 'cjs',
      logLevel: 'silent',
    });
    const counter = await startO200kWorker(outfile);
    assert.equal(counter.label, 'o200k_base tokenizer');
    assert.equal(counter.exact, true);
    assert.equal(await counter.count('hello world'), 2);
    assert.equal(await messageTokens({ role: 'user', content: 'hello world' }, counter), 6);
  });
});

test('the agent refuses a call to a tool it did not offer, with the reason, and never runs it', async () => {
  let ran = 0;
  const registry = new ToolRegistry();
  registry.add({ name: 'on', description: '', parameters: { type: 'object' }, call: async () => 'ok' });
  registry.add({
    name: 'off',
    description: '',
    parameters: { type: 'object' },
    call: async () => (ran++, 'should not run'),
  });
  const model = new ScriptedModel([{ toolCalls: [{ name: 'off' }, { name: 'on' }] }, { final: 'done' }]);
  const agent = new Agent(model, registry, {
    tools: () => registry.schemas().filter((t) => t.name === 'on'),
    whyUnavailable: (n) => `"${n}" is switched off in this workspace`,
  });
  const res = await agent.run('go');
  assert.equal(ran, 0);
  assert.deepEqual(JSON.parse(res.steps[0]!.tool!.result), {
    error: 'tool "off" is not available: "off" is switched off in this workspace',
  });
  assert.equal(res.steps[1]!.tool!.result, 'ok');
  assert.deepEqual(
    model.calls[0]!.tools.map((t) => t.name),
    ['on'],
  );
});
