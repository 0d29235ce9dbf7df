import type { ModelLimits } from '../budget/limits';
import { DEFAULT_WINDOW } from '../budget/window';
import { estimateCounter } from '../budget/tokens';
import type { ToolSchema } from '../toolRegistry/toolRegistry';
import type { ChatMessage, ProviderSearch, ToolCall } from '../agentTypes/messages';

/** What the model answered in one turn: text, tool calls, or both. */
export interface ModelTurn {
  text: string;
  toolCalls: ToolCall[];
  /**
   * The model stopped at its output limit (OpenAI `finish_reason: "length"`, Anthropic `stop_reason: "max_tokens"`).
   */
  cut?: boolean;
  /** Tool searches the provider ran itself within this answer (see ChatModel.nativeToolSearch). */
  searches?: ProviderSearch[];
}

export interface ChatRequestOptions {
  signal?: AbortSignal;
  /** Streamed text as it arrives. */
  onText?: (delta: string) => void;
  /**
   * A tool call's arguments as the model writes them: the provider's index of the call, its wire name, and the JSON
   * text so far (incomplete). Providers that stream tool calls say so; the call itself comes in the turn.
   */
  onToolInput?: (index: number, wireName: string, textSoFar: string) => void;
  /** Something the user should see that is not an answer, e.g. "rate limited, retrying in 3 s". */
  onNotice?: (message: string) => void;
  /** Ends the request when the model sends nothing for this long (0 or absent: never). */
  idleTimeoutMs?: number;
  /** The most the answer may be, in tokens (a server's sampling request); providers that can say so send it. */
  maxOutputTokens?: number;
}

/** A chat model that can call tools. Providers stream; the agent sees one turn at a time. */
export interface ChatModel {
  readonly id: string;
  chat(
    messages: readonly ChatMessage[],
    tools: readonly ToolSchema[],
    options?: ChatRequestOptions,
  ): Promise<ModelTurn>;
  /** The model's context window and token counter; without it a request is sent as it is. */
  limits?(signal?: AbortSignal): Promise<ModelLimits>;
  /**
   * The provider searches deferred tools itself (Anthropic's tool search): a request then carries
   * every tool, the deferred ones marked `deferLoading`, and no search_tools of ours.
   */
  readonly nativeToolSearch?: boolean;
}

/** One scripted turn: tool calls to make, or a final answer. */
export type ScriptedTurn =
  | { toolCalls: Array<{ name: string; arguments?: Record<string, unknown> | string; id?: string }> }
  | { final: string };

/**
 * The `scripted` provider (`minagent.chat.scriptFile`, the CLI's `--script`): replays scripted turns,
 * so a whole agent run through real MCP servers runs without a network or a key (`asked` lets a test
 * see each request).
 */
export class ScriptedModel implements ChatModel {
  readonly id = 'fake';
  private next = 0;

  constructor(
    private readonly script: readonly ScriptedTurn[],
    private readonly contextWindow?: number,
  ) {}

  /** Each request, before it is answered (nothing here). */
  protected asked(_messages: readonly ChatMessage[], _tools: readonly ToolSchema[]): void {}

  async limits(): Promise<ModelLimits> {
    return {
      window: {
        tokens: this.contextWindow ?? DEFAULT_WINDOW,
        source: this.contextWindow ? 'minagent.chat.contextWindow' : 'assumed',
      },
      counter: estimateCounter,
    };
  }

  async chat(
    messages: readonly ChatMessage[],
    tools: readonly ToolSchema[],
    options: ChatRequestOptions = {},
  ): Promise<ModelTurn> {
    this.asked(messages, tools);
    if (options.signal?.aborted) throw abortError();
    const turn = this.script[this.next++];
    if (!turn) throw new Error(`the script has no turn ${this.next} (it has ${this.script.length})`);
    if ('final' in turn) {
      options.onText?.(turn.final);
      return { text: turn.final, toolCalls: [] };
    }
    return {
      text: '',
      toolCalls: turn.toolCalls.map((c, i) => ({
        id: c.id ?? `call_${this.next}_${i}`,
        name: c.name,
        arguments: c.arguments ?? {},
      })),
    };
  }
}

/** Reads and checks a script (the ScriptedModel format): a JSON array of `{toolCalls}` or `{final}` turns. */
export function parseScript(value: unknown, where = 'script'): ScriptedTurn[] {
  if (!Array.isArray(value)) throw new Error(`${where}: must be a JSON array of turns`);
  return value.map((turn, i) => {
    if (turn && typeof turn === 'object' && typeof (turn as { final?: unknown }).final === 'string')
      return { final: (turn as { final: string }).final };
    const calls = (turn as { toolCalls?: unknown })?.toolCalls;
    if (
      Array.isArray(calls) &&
      calls.every((c) => c && typeof c === 'object' && typeof (c as { name?: unknown }).name === 'string')
    ) {
      return { toolCalls: calls as Array<{ name: string; arguments?: Record<string, unknown> }> };
    }
    throw new Error(
      `${where}: turn ${i} must be {"final": "..."} or {"toolCalls": [{"name": "...", "arguments": {...}}]}`,
    );
  });
}

export function abortError(): Error {
  const err = new Error('cancelled');
  err.name = 'AbortError';
  return err;
}
