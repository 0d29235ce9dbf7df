/** How many tokens a model takes in one request, and where that figure came from. */
export interface ContextWindow {
  /** Tokens the request (input and answer together, unless `inputOnly`) may hold. */
  tokens: number;
  /** For the meter: "the model's limit", "minagent.chat.contextWindow", "Ollama num_ctx", ... */
  source: string;
  /** True when `tokens` counts only the input (vscode.lm's maxInputTokens): no room to keep for the answer. */
  inputOnly?: boolean;
}

/** The window assumed for a model nobody told us about: small enough for most local servers. */
export const DEFAULT_WINDOW = 32_768;

/**
 * Published context windows of well-known models, by name prefix (longest match wins). A model not
 * here gets the setting, the server's own figure (Ollama) or DEFAULT_WINDOW.
 */
const KNOWN: Array<[prefix: string, tokens: number]> = [
  ['gpt-5', 400_000],
  ['gpt-4.1', 1_047_576],
  ['gpt-4o', 128_000],
  ['chatgpt-4o', 128_000],
  ['gpt-4-turbo', 128_000],
  ['gpt-4-32k', 32_768],
  ['gpt-4', 8_192],
  ['gpt-3.5-turbo', 16_385],
  ['gpt-oss', 131_072],
  ['o1', 200_000],
  ['o3', 200_000],
  ['o4', 200_000],
  ['claude', 200_000],
];

export function knownWindow(model: string): ContextWindow | undefined {
  const name = model.toLowerCase().replace(/^.*\//, ''); // OpenRouter's "openai/gpt-4o"
  let best: [string, number] | undefined;
  for (const entry of KNOWN) if (name.startsWith(entry[0]) && (!best || entry[0].length > best[0].length)) best = entry;
  return best ? { tokens: best[1], source: `published window of ${best[0]}` } : undefined;
}

/** The tokens kept free for the answer: a quarter of the window, at most 8,192. */
export function answerReserve(window: ContextWindow): number {
  return window.inputOnly ? 0 : Math.min(8_192, Math.floor(window.tokens / 4));
}
