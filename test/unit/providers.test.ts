// Model providers against a local server that speaks each real wire format (streamed SSE).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { Agent } from '../../src/core/agent/agent';
import type { ChatModel } from '../../src/core/agent/model';
import type { ChatMessage } from '../../src/core/agentTypes/messages';
import { AnthropicModel } from '../../src/core/models/anthropic';
import { OpenAICompatibleModel } from '../../src/core/models/openai';
import { ToolRegistry } from '../../src/core/toolRegistry/toolRegistry';
import { ROOT, waitFor } from '../helpers';

interface Mock {
  port: number;
  requests: Array<{ format: string; headers: Record<string, string>; body: Record<string, unknown> }>;
  close(): Promise<void>;
}
type Reply = Record<string, unknown>;
const mocks: Mock[] = [];
after(() => Promise.all(mocks.map((m) => m.close())));

async function mock(replies: Reply[]): Promise<Mock> {
  const { startMockModel } = (await import(join(ROOT, 'fixtures', 'models', 'mock-model.mjs'))) as {
    startMockModel: (o: { replies: Reply[] }) => Promise<Mock>;
  };
  const m = await startMockModel({ replies });
  mocks.push(m);
  return m;
}

const tools = [
  {
    name: 'analytics__echo',
    description: 'echo',
    parameters: { type: 'object', properties: { text: { type: 'string' } } },
  },
];
const history: ChatMessage[] = [
  { role: 'system', content: 'be brief' },
  { role: 'user', content: 'hi' },
  { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'analytics__echo', arguments: '{"text":"x"}' }] },
  { role: 'tool', toolCallId: 'c1', name: 'analytics__echo', content: '{"error":"boom"}', isError: true },
];

const providers: Array<[string, (port: number) => ChatModel]> = [
  [
    'OpenAI-compatible',
    (port) => new OpenAICompatibleModel({ baseUrl: `http://127.0.0.1:${port}/v1`, model: 'mock', apiKey: 'sk-test' }),
  ],
  [
    'Anthropic',
    (port) => new AnthropicModel({ baseUrl: `http://127.0.0.1:${port}`, model: 'mock', apiKey: 'sk-ant-test' }),
  ],
];

for (const [name, make] of providers) {
  describe(name, () => {
    test('streams text and assembles tool calls whose deltas are split across chunks', async () => {
      const m = await mock([
        {
          text: 'Let me check that.',
          chunk: 3,
          toolCalls: [
            { name: 'analytics__echo', arguments: { text: 'a "quoted" value' } },
            { name: 'analytics__echo', arguments: { text: 'two' } },
          ],
        },
      ]);
      const streamed: string[] = [];
      const turn = await make(m.port).chat(history, tools, { onText: (d) => streamed.push(d) });
      assert.equal(turn.text, 'Let me check that.');
      assert.ok(streamed.length > 3, 'text arrived in pieces');
      assert.deepEqual(
        turn.toolCalls.map((c) => [c.name, JSON.parse(c.arguments as string)]),
        [
          ['analytics__echo', { text: 'a "quoted" value' }],
          ['analytics__echo', { text: 'two' }],
        ],
      );
      assert.ok(
        turn.toolCalls.every((c) => c.id),
        'every call has an id',
      );
    });

    test('sends the conversation in the provider format: tools under wire names, tool results back', async () => {
      const m = await mock([{ text: 'ok' }]);
      await make(m.port).chat(history, tools);
      const { body, headers } = m.requests[0]!;
      if (name === 'Anthropic') {
        assert.equal(headers['x-api-key'], 'sk-ant-test');
        assert.equal(headers['anthropic-version'], '2023-06-01');
        assert.equal(body.system, 'be brief');
        assert.deepEqual((body.tools as Array<{ name: string; input_schema: unknown }>)[0], {
          name: 'analytics__echo',
          description: 'echo',
          input_schema: tools[0]!.parameters,
        });
        assert.deepEqual(body.messages, [
          { role: 'user', content: [{ type: 'text', text: 'hi' }] },
          {
            role: 'assistant',
            content: [{ type: 'tool_use', id: 'c1', name: 'analytics__echo', input: { text: 'x' } }],
          },
          {
            role: 'user',
            content: [{ type: 'tool_result', tool_use_id: 'c1', content: '{"error":"boom"}', is_error: true }],
          },
        ]);
      } else {
        assert.equal(headers.authorization, 'Bearer sk-test');
        assert.deepEqual((body.tools as unknown[])[0], { type: 'function', function: tools[0] });
        assert.deepEqual(body.messages, [
          { role: 'system', content: 'be brief' },
          { role: 'user', content: 'hi' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [
              { id: 'c1', type: 'function', function: { name: 'analytics__echo', arguments: '{"text":"x"}' } },
            ],
          },
          { role: 'tool', tool_call_id: 'c1', content: '{"error":"boom"}' },
        ]);
      }
      assert.equal(body.stream, true);
    });

    if (name === 'Anthropic') {
      test('images a tool returned go back as image blocks in the tool_result', async () => {
        const m = await mock([{ text: 'I see a chart' }]);
        const withImage: ChatMessage[] = [
          ...history.slice(0, 3),
          {
            role: 'tool',
            toolCallId: 'c1',
            name: 'analytics__echo',
            content: '[image image/png, 7 bytes]',
            images: [{ mimeType: 'image/png', data: 'UE5HREFUQQ==' }],
          },
        ];
        await make(m.port).chat(withImage, tools);
        const messages = m.requests[0]!.body.messages as Array<{ content: unknown[] }>;
        assert.deepEqual(messages.at(-1)!.content[0], {
          type: 'tool_result',
          tool_use_id: 'c1',
          content: [
            { type: 'text', text: '[image image/png, 7 bytes]' },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'UE5HREFUQQ==' } },
          ],
        });
      });
    }

    test("a user message's images (from a server's prompt) go in that message", async () => {
      const m = await mock([{ text: 'a cover' }, { text: 'a cover' }]);
      const prompt: ChatMessage[] = [
        { role: 'system', content: 'be brief' },
        { role: 'user', content: '[image image/png]', images: [{ mimeType: 'image/png', data: 'UE5HREFUQQ==' }] },
      ];
      if (name === 'Anthropic') {
        await make(m.port).chat(prompt, tools);
        assert.deepEqual(m.requests[0]!.body.messages, [
          {
            role: 'user',
            content: [
              { type: 'text', text: '[image image/png]' },
              { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'UE5HREFUQQ==' } },
            ],
          },
        ]);
        return;
      }
      await make(m.port).chat(prompt, tools);
      assert.deepEqual(
        (m.requests[0]!.body.messages as unknown[])[1],
        { role: 'user', content: '[image image/png]' },
        'a text-only model gets the text',
      );
      await new OpenAICompatibleModel({
        baseUrl: `http://127.0.0.1:${m.port}/v1`,
        model: 'mock',
        sendImages: true,
      }).chat(prompt, tools);
      assert.deepEqual((m.requests[1]!.body.messages as unknown[])[1], {
        role: 'user',
        content: [
          { type: 'text', text: '[image image/png]' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,UE5HREFUQQ==' } },
        ],
      });
    });

    if (name === 'OpenAI-compatible') {
      test('images a tool returned: text only by default; with sendImages, a user message of image_url parts after every tool result of the step', async () => {
        const m = await mock([{ text: 'no eyes' }, { text: 'I see a chart' }]);
        const step: ChatMessage[] = [
          ...history.slice(0, 2),
          {
            role: 'assistant',
            content: '',
            toolCalls: [
              { id: 'c1', name: 'chart', arguments: '{}' },
              { id: 'c2', name: 'analytics__echo', arguments: '{"text":"x"}' },
            ],
          },
          {
            role: 'tool',
            toolCallId: 'c1',
            name: 'chart',
            content: '[image image/png, 7 bytes]',
            images: [{ mimeType: 'image/png', data: 'UE5HREFUQQ==' }],
          },
          { role: 'tool', toolCallId: 'c2', name: 'analytics__echo', content: 'x' },
        ];
        await make(m.port).chat(step, tools);
        assert.doesNotMatch(
          JSON.stringify(m.requests[0]!.body.messages),
          /image_url/,
          'a text-only model is never sent an image',
        );
        await new OpenAICompatibleModel({
          baseUrl: `http://127.0.0.1:${m.port}/v1`,
          model: 'mock',
          sendImages: true,
        }).chat(step, tools);
        const sent = m.requests[1]!.body.messages as Array<{ role: string; content: unknown }>;
        assert.deepEqual(
          sent.map((x) => x.role),
          ['system', 'user', 'assistant', 'tool', 'tool', 'user'],
        );
        assert.deepEqual(sent.at(-1)!.content, [
          { type: 'text', text: 'The image returned by chart (the tool results above describe it as text):' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,UE5HREFUQQ==' } },
        ]);
      });
    }

    test('401, 500, a malformed and a truncated stream are clear errors', async () => {
      const m = await mock([
        { status: 401, body: { error: { message: 'invalid x-api-key' } } },
        { status: 500 },
        { text: 'partial', malformed: true },
        { text: 'cut', truncate: true },
      ]);
      const model = make(m.port);
      await assert.rejects(
        model.chat(history, tools),
        new RegExp(`^ProviderError: ${name}: HTTP 401, the API key was rejected: invalid x-api-key$`),
      );
      await assert.rejects(model.chat(history, tools), /HTTP 500, the server failed: mock error 500/);
      await assert.rejects(model.chat(history, tools), /malformed stream: a chunk is not JSON/);
      await assert.rejects(model.chat(history, tools), /malformed stream: it ended without/);
    });

    test('429 with a short retry-after is retried, and the wait is shown', async () => {
      const m = await mock([{ status: 429, retryAfter: 0.05 }, { text: 'after the wait' }]);
      const notices: string[] = [];
      const turn = await make(m.port).chat(history, tools, { onNotice: (n) => notices.push(n) });
      assert.equal(turn.text, 'after the wait');
      assert.match(notices[0]!, /Rate limited by .*; retrying in 1 s/);
      const long = await mock([{ status: 429, retryAfter: 120 }]);
      await assert.rejects(make(long.port).chat(history, tools), /HTTP 429, rate limited; retry after 120 s/);
    });

    test('Stop aborts a stream that is still open', async () => {
      const m = await mock([{ hang: true }]);
      const controller = new AbortController();
      const turn = make(m.port).chat(history, tools, { signal: controller.signal });
      await waitFor('the model server to receive the request', () => m.requests.length === 1);
      controller.abort();
      await assert.rejects(turn, { name: 'AbortError' });
    });

    test('an agent turn over the wire: unknown tools and bad JSON arguments reach the model as tool errors', async () => {
      const m = await mock([
        {
          toolCalls: [
            { name: 'no_such_tool', arguments: {} },
            { name: 'analytics__echo', arguments: '{"text": ' },
            { name: 'analytics__echo', arguments: { text: 'ok' } },
          ],
        },
        { text: 'done' },
      ]);
      const registry = new ToolRegistry();
      registry.add({
        name: 'analytics.echo',
        description: 'echo',
        parameters: tools[0]!.parameters,
        call: async (a) => `[analytics] ${String(a.text)}`,
      });
      const result = await new Agent(make(m.port), registry).run('go');
      assert.equal(result.final, 'done');
      const [unknown, badJson, ok] = result.steps;
      assert.match(unknown!.tool!.result, /unknown tool \\"no_such_tool\\"/);
      assert.match(badJson!.tool!.result, /not valid JSON/);
      assert.equal(ok!.tool!.result, '[analytics] ok');
      assert.equal(ok!.tool!.name, 'analytics.echo');
      assert.equal(m.requests.length, 2, 'the errors went back to the model in the second request');
    });
  });
}
