import type { ChatRequestOptions, ModelTurn } from '../agent/model';
import type { ChatMessage, ProviderSearch, ToolCall } from '../agentTypes/messages';
import { anthropicLimits, type ModelLimits } from '../budget/limits';
import type { ToolSchema } from '../toolRegistry/toolRegistry';
import { parseData, ProviderError, StreamingChatModel, streamSse } from './http';

export interface AnthropicOptions {
  /** e.g. `https://api.anthropic.com`. */
  baseUrl: string;
  model: string;
  apiKey?: string;
  maxTokens?: number;
  contextWindow?: number;
}

const PROVIDER = 'Anthropic';

/** Anthropic's own tool search over the tools sent with `defer_loading` (a beta of the Messages API). */
export const TOOL_SEARCH = { type: 'tool_search_tool_bm25_20251119', name: 'tool_search_tool_bm25' } as const;
export const TOOL_SEARCH_BETA = 'advanced-tool-use-2025-11-20';

interface StreamEvent {
  type: string;
  index?: number;
  content_block?: { type: string; id?: string; name?: string; text?: string; tool_use_id?: string; content?: unknown };
  delta?: { type: string; text?: string; partial_json?: string; stop_reason?: string };
  error?: { type?: string; message?: string };
}

/** The Messages API: streamed `tool_use` blocks with `input_json_delta`; `tool_result` blocks back. */
export class AnthropicModel extends StreamingChatModel {
  readonly nativeToolSearch = true;

  constructor(private readonly options: AnthropicOptions) {
    super(`anthropic:${options.model}`, PROVIDER);
  }

  async limits(): Promise<ModelLimits> {
    return anthropicLimits(this.options);
  }

  protected async once(
    messages: readonly ChatMessage[],
    tools: readonly ToolSchema[],
    options: ChatRequestOptions,
  ): Promise<ModelTurn> {
    const system = messages
      .filter((m) => m.role === 'system')
      .map((m) => m.content)
      .join('\n\n');
    const body: Record<string, unknown> = {
      model: this.options.model,
      max_tokens: Math.min(
        options.maxOutputTokens ?? Infinity,
        this.options.maxTokens ?? maxOutputTokens(this.options.model),
      ),
      stream: true,
      messages: toWire(messages),
      ...(system ? { system } : {}),
      ...(tools.length ? { tools: toolsOnWire(tools) } : {}),
    };
    const deferred = tools.some((t) => t.deferLoading);
    let text = '';
    let stopped = false;
    let cut = false;
    const blocks = new Map<number, { id: string; name: string; json: string }>();
    // The provider's own search: its call (input streamed like a tool's) and its result, by index.
    const server = new Map<number, { block: Record<string, unknown>; json?: string }>();
    await streamSse(
      {
        url: `${this.options.baseUrl.replace(/\/+$/, '')}/v1/messages`,
        headers: {
          'anthropic-version': '2023-06-01',
          ...(deferred ? { 'anthropic-beta': TOOL_SEARCH_BETA } : {}),
          ...(this.options.apiKey ? { 'x-api-key': this.options.apiKey } : {}),
        },
        body,
        provider: PROVIDER,
        ...(options.signal ? { signal: options.signal } : {}),
        ...(options.idleTimeoutMs ? { idleTimeoutMs: options.idleTimeoutMs } : {}),
      },
      (event) => {
        const e = parseData(event.data, PROVIDER) as StreamEvent;
        switch (e.type) {
          case 'content_block_start':
            if (e.content_block?.type === 'tool_use')
              blocks.set(e.index ?? blocks.size, {
                id: e.content_block.id ?? '',
                name: e.content_block.name ?? '',
                json: '',
              });
            else if (e.content_block?.type === 'server_tool_use')
              server.set(e.index ?? -1, {
                block: { type: 'server_tool_use', id: e.content_block.id ?? '', name: e.content_block.name ?? '' },
                json: '',
              });
            else if (e.content_block?.type === 'tool_search_tool_result')
              server.set(e.index ?? -1, {
                block: {
                  type: 'tool_search_tool_result',
                  tool_use_id: e.content_block.tool_use_id ?? '',
                  content: e.content_block.content,
                },
              });
            else if (e.content_block?.type === 'text' && e.content_block.text) {
              text += e.content_block.text;
              options.onText?.(e.content_block.text);
            }
            break;
          case 'content_block_delta':
            if (e.delta?.type === 'text_delta' && e.delta.text) {
              text += e.delta.text;
              options.onText?.(e.delta.text);
            } else if (e.delta?.type === 'input_json_delta' && server.get(e.index ?? -1)?.json !== undefined) {
              server.get(e.index ?? -1)!.json += e.delta.partial_json ?? '';
            } else if (e.delta?.type === 'input_json_delta') {
              const block = blocks.get(e.index ?? -1);
              if (!block)
                throw new ProviderError(`${PROVIDER}: malformed stream: input_json_delta for unknown block ${e.index}`);
              block.json += e.delta.partial_json ?? '';
              if (e.delta.partial_json && block.name) options.onToolInput?.(e.index ?? -1, block.name, block.json);
            }
            break;
          case 'message_delta':
            if (e.delta?.stop_reason === 'max_tokens') cut = true;
            break;
          case 'message_stop':
            stopped = true;
            break;
          case 'error':
            throw new ProviderError(
              `${PROVIDER}: ${e.error?.type ?? 'error'}: ${e.error?.message ?? 'error in stream'}`,
              e.error?.type === 'overloaded_error' ? 529 : undefined,
            );
          default:
            break; // message_start, content_block_stop, ping
        }
      },
    );
    if (!stopped) throw new ProviderError(`${PROVIDER}: malformed stream: it ended without message_stop`);
    const toolCalls: ToolCall[] = [...blocks.entries()]
      .sort(([a], [b]) => a - b)
      .map(([, b]) => ({ id: b.id, name: b.name, arguments: b.json }));
    const searches = providerSearches(
      [...server.entries()]
        .sort(([a], [b]) => a - b)
        .map(([, s]) => (s.json !== undefined ? { ...s.block, input: toInput(s.json) } : s.block)),
    );
    return { text, toolCalls, ...(cut ? { cut } : {}), ...(searches.length ? { searches } : {}) };
  }
}

/** Tools as the Messages API takes them; with any deferred, the provider's search tool goes along. */
function toolsOnWire(tools: readonly ToolSchema[]): unknown[] {
  const wire: unknown[] = tools.map((t) => ({
    name: t.name,
    description: t.description,
    input_schema: t.parameters,
    ...(t.deferLoading ? { defer_loading: true } : {}),
  }));
  return tools.some((t) => t.deferLoading) ? [TOOL_SEARCH, ...wire] : wire;
}

/** Each search call with its result: what was asked, the tools it referenced, and both blocks to send back. */
function providerSearches(blocks: Array<Record<string, unknown>>): ProviderSearch[] {
  return blocks.flatMap((use) => {
    if (use.type !== 'server_tool_use') return [];
    const result = blocks.find((b) => b.type === 'tool_search_tool_result' && b.tool_use_id === use.id);
    const content = result?.content as { tool_references?: Array<{ tool_name?: unknown }> } | undefined;
    const found = (content?.tool_references ?? []).flatMap((r) =>
      typeof r.tool_name === 'string' ? [r.tool_name] : [],
    );
    const input = use.input as { query?: unknown; pattern?: unknown } | undefined;
    return [{ query: String(input?.query ?? input?.pattern ?? ''), found, blocks: result ? [use, result] : [use] }];
  });
}

/**
 * The most output tokens a Claude model accepts (Anthropic's model table), so an answer is not cut
 * at a fixed small limit; unknown models get a limit every current model accepts. A setting
 * (`minagent.chat.maxOutputTokens`) overrides it.
 */
export function maxOutputTokens(model: string): number {
  const m = model.toLowerCase();
  if (/claude-3-haiku|claude-3-opus|claude-3-sonnet|claude-instant|claude-2/.test(m)) return 4_096;
  if (/claude-3-5/.test(m)) return 8_192;
  if (/opus-4(?:-0|-1|-2025|$)|opus-4-1/.test(m)) return 32_000;
  if (/claude-3-7|sonnet-4|haiku-4|opus-4/.test(m)) return 64_000;
  return 8_192;
}

/** Anthropic wants alternating turns; consecutive tool results go back as one user message. */
function toWire(messages: readonly ChatMessage[]): Array<Record<string, unknown>> {
  const out: Array<{ role: 'user' | 'assistant'; content: unknown[] }> = [];
  const push = (role: 'user' | 'assistant', block: unknown) => {
    const last = out[out.length - 1];
    if (last && last.role === role) last.content.push(block);
    else out.push({ role, content: [block] });
  };
  for (const m of messages) {
    switch (m.role) {
      case 'system':
        break;
      case 'user':
        push('user', { type: 'text', text: m.content });
        for (const i of m.images ?? [])
          push('user', { type: 'image', source: { type: 'base64', media_type: i.mimeType, data: i.data } });
        break;
      case 'assistant':
        if (m.content) push('assistant', { type: 'text', text: m.content });
        // The provider's own searches go back as they came, before the calls they made possible.
        for (const s of m.searches ?? []) for (const b of s.blocks) push('assistant', b);
        for (const c of m.toolCalls ?? [])
          push('assistant', { type: 'tool_use', id: c.id, name: c.name, input: toInput(c.arguments) });
        break;
      case 'tool':
        push('user', {
          type: 'tool_result',
          tool_use_id: m.toolCallId,
          // Images a tool returned reach the model as image blocks beside the text.
          content: m.images?.length
            ? [
                { type: 'text', text: m.content },
                ...m.images.map((i) => ({
                  type: 'image',
                  source: { type: 'base64', media_type: i.mimeType, data: i.data },
                })),
              ]
            : m.content,
          ...(m.isError ? { is_error: true } : {}),
        });
        break;
    }
  }
  return out;
}

function toInput(args: ToolCall['arguments']): unknown {
  if (typeof args !== 'string') return args;
  try {
    const v = JSON.parse(args || '{}') as unknown;
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? v : {};
  } catch {
    return {};
  }
}
