import { ollamaWindow } from './ollama';
import { startO200kWorker } from './tokenizerWorker';
import { CachedCounter, estimateCounter, type TokenCounter } from './tokens';
import { DEFAULT_WINDOW, knownWindow, type ContextWindow } from './window';

/** What a model can take in one request and how its tokens are counted. */
export interface ModelLimits {
  window: ContextWindow;
  counter: TokenCounter;
  /** What an image a tool returned costs in a request; 0 where images are not sent (default PER_IMAGE). */
  imageTokens?: number;
}

/** OpenAI's own models use o200k_base (cl100k_base models are counted with it too: within a few percent). */
const OPENAI_MODEL = /^(openai\/)?(gpt-|chatgpt-|o\d)/i;

let o200k: Promise<TokenCounter> | undefined;
/** The o200k_base tokenizer, started on first use in a worker thread; the estimate if it cannot start. */
export function o200kCounter(): Promise<TokenCounter> {
  o200k ??= startO200kWorker().then(
    (c): TokenCounter => new CachedCounter(c),
    (): TokenCounter => estimateCounter,
  );
  return o200k;
}

/** How a model's tokens are counted: OpenAI's own with o200k_base, any other with the estimate. */
export function counterFor(model: string): Promise<TokenCounter> {
  return OPENAI_MODEL.test(model) ? o200kCounter() : Promise.resolve(estimateCounter);
}

export const SETTING = 'minagent.chat.contextWindow';

/**
 * The window and counter for an OpenAI-compatible server: the setting, a published window, Ollama's own (unless
 * `probeWindow` is false), or the default.
 */
export async function openAILimits(
  o: { baseUrl: string; model: string; contextWindow?: number; sendImages?: boolean; probeWindow?: boolean },
  signal?: AbortSignal,
): Promise<ModelLimits> {
  const counter = await counterFor(o.model);
  const images = o.sendImages ? {} : { imageTokens: 0 };
  if (o.contextWindow) return { window: { tokens: o.contextWindow, source: SETTING }, counter, ...images };
  const known = knownWindow(o.model);
  if (known) return { window: known, counter, ...images };
  const ollama = o.probeWindow === false ? undefined : await ollamaWindow(o.baseUrl, o.model, signal);
  return { window: ollama ?? { tokens: DEFAULT_WINDOW, source: `assumed; set ${SETTING}` }, counter, ...images };
}

/**
 * Anthropic: the setting or Claude's published window; counted by the estimate (no local Claude tokenizer is
 * published).
 */
export function anthropicLimits(o: { model: string; contextWindow?: number }): ModelLimits {
  const window = o.contextWindow
    ? { tokens: o.contextWindow, source: SETTING }
    : (knownWindow(o.model) ?? { tokens: DEFAULT_WINDOW, source: `assumed; set ${SETTING}` });
  return { window, counter: estimateCounter };
}
