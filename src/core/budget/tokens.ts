import type { ChatMessage } from '../agentTypes/messages';
import type { ToolSchema } from '../toolRegistry/toolRegistry';

/**
 * Counts tokens of text the way one provider does. `exact` is false for an estimate, so the meter
 * can say "about".
 */
export interface TokenCounter {
  /** What counts, for the meter: "o200k_base tokenizer", "the model's own count", "estimate". */
  readonly label: string;
  readonly exact: boolean;
  count(text: string): number | Promise<number>;
}

/**
 * The documented estimate where no tokenizer fits the provider (Anthropic, Ollama, LM Studio, vLLM,
 * scripted): one token per 3 characters. Real BPE tokenizers give about 4 characters per token for
 * English prose and 2.5-3.5 for code and JSON (what tool schemas and results mostly are), so this
 * errs on the side of counting too much: a request it passes fits.
 */
export const CHARS_PER_TOKEN = 3;
export const estimateCounter: TokenCounter = {
  label: `estimate (1 token per ${CHARS_PER_TOKEN} characters)`,
  exact: false,
  count: (text) => Math.ceil(text.length / CHARS_PER_TOKEN),
};

/** What a message costs beyond its text (role markers and separators; OpenAI documents 3-4). */
export const PER_MESSAGE = 4;
/**
 * An image, whatever its size: Anthropic scales images to at most about 1.15 megapixels, about 1,600
 * tokens; OpenAI's high detail costs at most 1,105 for a 1024x1024 tile set. The larger bound.
 */
export const PER_IMAGE = 1_600;
/** What one tool definition costs beyond its JSON (the function wrapper). */
export const PER_TOOL = 8;

/** Caches counts by text, so re-counting a long conversation before every request costs lookups. */
export class CachedCounter implements TokenCounter {
  private readonly cache = new Map<string, number>();
  readonly label: string;
  readonly exact: boolean;

  constructor(
    private readonly inner: TokenCounter,
    private readonly maxEntries = 5_000,
  ) {
    this.label = inner.label;
    this.exact = inner.exact;
  }

  async count(text: string): Promise<number> {
    const hit = this.cache.get(text);
    if (hit !== undefined) return hit;
    const n = await this.inner.count(text);
    if (this.cache.size >= this.maxEntries) this.cache.delete(this.cache.keys().next().value as string);
    this.cache.set(text, n);
    return n;
  }
}

/** The tokens one message costs: its text, its tool calls, its images, and the per-message overhead. */
export async function messageTokens(m: ChatMessage, counter: TokenCounter, perImage = PER_IMAGE): Promise<number> {
  let n = PER_MESSAGE + (await counter.count(m.content));
  if (m.role === 'assistant') {
    for (const c of m.toolCalls ?? [])
      n +=
        PER_MESSAGE +
        (await counter.count(c.name)) +
        (await counter.count(typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments)));
  }
  if (m.role === 'tool' || m.role === 'user') n += (m.images?.length ?? 0) * perImage;
  return n;
}

/** The tokens one tool definition costs in a request. */
export async function toolTokens(t: ToolSchema, counter: TokenCounter): Promise<number> {
  return (
    PER_TOOL +
    (await counter.count(JSON.stringify({ name: t.name, description: t.description, parameters: t.parameters })))
  );
}

export async function sum<T>(items: readonly T[], cost: (item: T) => Promise<number>): Promise<number> {
  let n = 0;
  for (const item of items) n += await cost(item);
  return n;
}
