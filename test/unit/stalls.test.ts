// No silent stalls: a model that stops sending ends the request with a message, an abort is
// honoured whenever it came, an answer cut at the output limit says so. Real providers against the
// mock model server's wire formats.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Agent } from '../../src/core/agent/agent';
import type { ChatModel } from '../../src/core/agent/model';
import { AnthropicModel, maxOutputTokens } from '../../src/core/models/anthropic';
import { OpenAICompatibleModel } from '../../src/core/models/openai';
import { ToolRegistry } from '../../src/core/toolRegistry/toolRegistry';
import { startMockModel } from '../mockModel';

const providers: Array<[string, (port: number) => ChatModel]> = [
  ['OpenAI-compatible', (port) => new OpenAICompatibleModel({ baseUrl: `http://127.0.0.1:${port}/v1`, model: 'mock' })],
  ['Anthropic', (port) => new AnthropicModel({ baseUrl: `http://127.0.0.1:${port}`, model: 'claude-sonnet-4-5' })],
];

for (const [name, make] of providers) {
  describe(`${name}: stalls and cut answers`, { timeout: 15_000 }, () => {
    test('a stream that stops sending ends after the idle timeout, saying so', async () => {
      const m = await startMockModel([{ hang: true }]);
      const seen: string[] = [];
      // 3 s: on a loaded machine the first chunk ("thinking") took over 1 s to arrive.
      await assert.rejects(
        make(m.port).chat([{ role: 'user', content: 'hi' }], [], { idleTimeoutMs: 3_000, onText: (t) => seen.push(t) }),
        /the model sent nothing for 3 s, so the turn was ended \(setting "minagent.chat.idleTimeout"\)/,
      );
      assert.deepEqual(seen, ['thinking'], 'what arrived before the stall was shown');
    });

    test('a server that never answers (not even headers) ends after the idle timeout too', async () => {
      const m = await startMockModel([{ hang: 'headers' }]);
      await assert.rejects(
        make(m.port).chat([{ role: 'user', content: 'hi' }], [], { idleTimeoutMs: 1_000 }),
        /sent nothing for 1 s/,
      );
    });

    test('a slow stream that keeps sending is not ended', async () => {
      const m = await startMockModel([{ text: 'a'.repeat(60), chunk: 1 }]);
      const turn = await make(m.port).chat([{ role: 'user', content: 'hi' }], [], { idleTimeoutMs: 1_000 });
      assert.equal(turn.text, 'a'.repeat(60));
      assert.equal(turn.cut, undefined);
    });

    test('an abort that comes as the 429 wait begins (before its listener) is honoured', async () => {
      const m = await startMockModel([{ status: 429, retryAfter: 15 }, { text: 'never' }]);
      const abort = new AbortController();
      // onNotice runs just before the wait: the abort lands before the wait listens for it.
      await assert.rejects(
        make(m.port).chat([{ role: 'user', content: 'hi' }], [], {
          signal: abort.signal,
          onNotice: () => abort.abort(),
        }),
        { name: 'AbortError' },
      );
      assert.equal(m.requests.length, 1, 'no retry after the abort');
    });

    test('an answer cut at the output limit is marked cut, and a cut tool call never runs', async () => {
      const m = await startMockModel([
        { text: 'The first half of', cut: true },
        { text: 'partial', toolCalls: [{ name: 'danger', arguments: '{"a":' }], cut: true },
      ]);
      const turn = await make(m.port).chat([{ role: 'user', content: 'hi' }], []);
      assert.equal(turn.cut, true);
      assert.equal(turn.text, 'The first half of');
      const registry = new ToolRegistry();
      let ran = 0;
      registry.add({
        name: 'danger',
        description: '',
        parameters: { type: 'object' },
        call: async () => String(++ran),
      });
      const events: string[] = [];
      const result = await new Agent(make(m.port), registry).run('go', { onEvent: (e) => events.push(e.type) });
      assert.equal(result.cut, true);
      assert.equal(ran, 0);
      assert.ok(events.includes('cut'));
      assert.deepEqual(result.messages.at(-1), { role: 'assistant', content: 'partial' });
    });
  });
}

describe('Anthropic max_tokens', () => {
  test("comes from the model's limit, or the setting, never a fixed 4096 for a current model", async () => {
    const m = await startMockModel([{ text: 'a' }, { text: 'b' }, { text: 'c' }]);
    await new AnthropicModel({ baseUrl: `http://127.0.0.1:${m.port}`, model: 'claude-sonnet-4-5-20250929' }).chat(
      [{ role: 'user', content: 'hi' }],
      [],
    );
    await new AnthropicModel({ baseUrl: `http://127.0.0.1:${m.port}`, model: 'claude-opus-4-1-20250805' }).chat(
      [{ role: 'user', content: 'hi' }],
      [],
    );
    await new AnthropicModel({
      baseUrl: `http://127.0.0.1:${m.port}`,
      model: 'claude-sonnet-4-5',
      maxTokens: 1234,
    }).chat([{ role: 'user', content: 'hi' }], []);
    assert.deepEqual(
      m.requests.map((r) => r.body.max_tokens),
      [64_000, 32_000, 1234],
    );
    assert.equal(maxOutputTokens('claude-3-5-haiku-latest'), 8_192);
    assert.equal(maxOutputTokens('claude-3-haiku-20240307'), 4_096);
  });
});
