import type { ChatRequestOptions, ModelTurn } from '../agent/model';
import type { ChatMessage, ToolCall } from '../agentTypes/messages';
import { openAILimits, type ModelLimits } from '../budget/limits';
import type { ToolSchema } from '../toolRegistry/toolRegistry';
import { parseData, ProviderError, StreamingChatModel, streamSse } from './http';

export interface OpenAIOptions {
  /** e.g. `https://api.openai.com/v1` or `http://localhost:11434/v1` (Ollama). */
  baseUrl: string;
  model: string;
  apiKey?: string;
  /** Extra headers, e.g. for OpenRouter. */
  headers?: Record<string, string>;
  /**
   * Tool messages carry only text in this API, so images a tool returned follow the tool results as
   * a user message with `image_url` parts. Off by default: a model without vision rejects them.
   */
  sendImages?: boolean;
  /** Tokens per request, from the user's setting; else a published window, Ollama's own, or a default. */
  contextWindow?: number;
  /**
   * `false`: the window is never asked of the server (Ollama's `/api/show`, `/api/ps`): the base URL's
   * origin is not yet one the user allowed, and nothing may reach it before they do.
   */
  probeWindow?: boolean;
}

const PROVIDER = 'OpenAI-compatible';

interface ChunkToolCall {
  index?: number;
  id?: string;
  function?: { name?: string; arguments?: string };
}
interface Chunk {
  choices?: Array<{ delta?: { content?: string | null; tool_calls?: ChunkToolCall[] }; finish_reason?: string | null }>;
  error?: { message?: string };
}

/**
 * The Chat Completions API as OpenAI, Ollama, LM Studio, vLLM and OpenRouter serve it: streamed
 * SSE, tool-call deltas assembled by index, tool results sent back as `role: tool`.
 */
export class OpenAICompatibleModel extends StreamingChatModel {
  constructor(private readonly options: OpenAIOptions) {
    super(`openai:${options.model}`, PROVIDER);
  }

  limits(signal?: AbortSignal): Promise<ModelLimits> {
    return openAILimits(this.options, signal);
  }

  protected async once(
    messages: readonly ChatMessage[],
    tools: readonly ToolSchema[],
    options: ChatRequestOptions,
  ): Promise<ModelTurn> {
    const body: Record<string, unknown> = {
      model: this.options.model,
      stream: true,
      messages: toWireMessages(messages, this.options.sendImages === true),
    };
    if (options.maxOutputTokens !== undefined) body.max_tokens = options.maxOutputTokens;
    if (tools.length)
      body.tools = tools.map((t) => ({
        type: 'function',
        function: { name: t.name, description: t.description, parameters: t.parameters },
      }));
    let text = '';
    let finished = false;
    let cut = false;
    const calls = new Map<number, { id: string; name: string; args: string }>();
    await streamSse(
      {
        url: `${this.options.baseUrl.replace(/\/+$/, '')}/chat/completions`,
        headers: {
          ...(this.options.apiKey ? { authorization: `Bearer ${this.options.apiKey}` } : {}),
          ...this.options.headers,
        },
        body,
        provider: PROVIDER,
        ...(options.signal ? { signal: options.signal } : {}),
        ...(options.idleTimeoutMs ? { idleTimeoutMs: options.idleTimeoutMs } : {}),
      },
      (event) => {
        if (event.data === '[DONE]') {
          finished = true;
          return;
        }
        const chunk = parseData(event.data, PROVIDER) as Chunk;
        if (chunk.error) throw new ProviderError(`${PROVIDER}: ${chunk.error.message ?? 'error in stream'}`);
        for (const choice of chunk.choices ?? []) {
          const delta = choice.delta ?? {};
          if (delta.content) {
            text += delta.content;
            options.onText?.(delta.content);
          }
          for (const tc of delta.tool_calls ?? []) {
            const index = tc.index ?? calls.size;
            const call = calls.get(index) ?? { id: '', name: '', args: '' };
            if (tc.id) call.id = tc.id;
            if (tc.function?.name) call.name += tc.function.name;
            if (tc.function?.arguments) call.args += tc.function.arguments;
            calls.set(index, call);
            if (tc.function?.arguments && call.name) options.onToolInput?.(index, call.name, call.args);
          }
          if (choice.finish_reason) finished = true;
          if (choice.finish_reason === 'length') cut = true;
        }
      },
    );
    if (!finished) throw new ProviderError(`${PROVIDER}: malformed stream: it ended without a finish reason or [DONE]`);
    const toolCalls: ToolCall[] = [...calls.entries()]
      .sort(([a], [b]) => a - b)
      .map(([i, c]) => ({ id: c.id || `call_${i}`, name: c.name, arguments: c.args }));
    return { text, toolCalls, ...(cut ? { cut } : {}) };
  }
}

function toWireMessages(messages: readonly ChatMessage[], sendImages: boolean): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  let pending: Array<{ name: string; image: NonNullable<Extract<ChatMessage, { role: 'tool' }>['images']>[number] }> =
    [];
  const flush = () => {
    if (!pending.length) return;
    const names = [...new Set(pending.map((p) => p.name))].join(', ');
    out.push({
      role: 'user',
      content: [
        {
          type: 'text',
          text: `The image${pending.length === 1 ? '' : 's'} returned by ${names} (the tool results above describe ${pending.length === 1 ? 'it' : 'them'} as text):`,
        },
        ...pending.map((p) => ({
          type: 'image_url',
          image_url: { url: `data:${p.image.mimeType};base64,${p.image.data}` },
        })),
      ],
    });
    pending = [];
  };
  for (const m of messages) {
    // The user message may only come after every tool result of the step.
    if (m.role !== 'tool') flush();
    // A user message's images (from a server's prompt) go in its own content, where this API takes them.
    if (m.role === 'user' && m.images?.length && sendImages)
      out.push({
        role: 'user',
        content: [
          { type: 'text', text: m.content },
          ...m.images.map((i) => ({ type: 'image_url', image_url: { url: `data:${i.mimeType};base64,${i.data}` } })),
        ],
      });
    else out.push(toWire(m));
    if (m.role === 'tool' && sendImages) for (const image of m.images ?? []) pending.push({ name: m.name, image });
  }
  flush();
  return out;
}

function toWire(m: ChatMessage): Record<string, unknown> {
  switch (m.role) {
    case 'system':
    case 'user':
      return { role: m.role, content: m.content };
    case 'assistant':
      return {
        role: 'assistant',
        content: m.content || null,
        ...(m.toolCalls?.length
          ? {
              tool_calls: m.toolCalls.map((c) => ({
                id: c.id,
                type: 'function',
                function: {
                  name: c.name,
                  arguments: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments),
                },
              })),
            }
          : {}),
      };
    case 'tool':
      return { role: 'tool', tool_call_id: m.toolCallId, content: m.content };
  }
}
