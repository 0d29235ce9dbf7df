import type { ContextWindow } from './window';

/** What Ollama's server uses when neither the model nor the server sets num_ctx (0.6 to 0.12). */
export const OLLAMA_DEFAULT_NUM_CTX = 4_096;
const TIMEOUT_MS = 3_000;

/**
 * The native API root for an OpenAI-compatible base URL (`http://host:11434/v1` -> `http://host:11434`).
 */
function nativeRoot(baseUrl: string): string {
  return baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '');
}

async function getJson(url: string, body: unknown | undefined, signal?: AbortSignal): Promise<unknown> {
  const timeout = AbortSignal.timeout(TIMEOUT_MS);
  const response = await fetch(url, {
    method: body === undefined ? 'GET' : 'POST',
    ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    // The probe goes to the origin the user allowed, and nowhere else: a redirect is a failure.
    redirect: 'error',
  });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  return (await response.json()) as unknown;
}

const positive = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : undefined;

/**
 * The context an Ollama server gives a model through its OpenAI-compatible API, which cannot set
 * num_ctx per request and cuts a longer prompt silently:
 * - a loaded model's `context_length` in `/api/ps` (what the server actually runs it with, including
 *   OLLAMA_CONTEXT_LENGTH);
 * - else `num_ctx` from the model's parameters (`/api/show`), capped by its trained `*.context_length`;
 * - else the server's default (4,096), capped the same way.
 * Returns undefined when the server does not speak Ollama's native API (any other OpenAI-compatible server).
 */
export function ollamaWindow(baseUrl: string, model: string, signal?: AbortSignal): Promise<ContextWindow | undefined> {
  // Asked once a minute at most: before every request and every meter update would be wasteful.
  const key = `${baseUrl}\n${model}`;
  const hit = cache.get(key);
  if (hit && Date.now() - hit.at < CACHE_MS) return hit.value;
  const value = query(baseUrl, model, signal);
  cache.set(key, { at: Date.now(), value });
  value.catch(() => cache.delete(key));
  return value;
}

const CACHE_MS = 60_000;
const cache = new Map<string, { at: number; value: Promise<ContextWindow | undefined> }>();

async function query(baseUrl: string, model: string, signal?: AbortSignal): Promise<ContextWindow | undefined> {
  const root = nativeRoot(baseUrl);
  let show: { parameters?: unknown; model_info?: Record<string, unknown> };
  try {
    show = (await getJson(`${root}/api/show`, { model }, signal)) as typeof show;
  } catch {
    return undefined;
  }
  if (!show || typeof show !== 'object' || (show.model_info === undefined && show.parameters === undefined))
    return undefined;
  const trained = Object.entries(show.model_info ?? {}).find(([k]) => k.endsWith('.context_length'))?.[1];
  const cap = (n: number) => Math.min(n, positive(trained) ?? n);
  try {
    const ps = (await getJson(`${root}/api/ps`, undefined, signal)) as {
      models?: Array<{ name?: unknown; model?: unknown; context_length?: unknown }>;
    };
    const loaded = ps.models?.find((m) => m.name === model || m.model === model || m.name === `${model}:latest`);
    const n = positive(loaded?.context_length);
    if (n) return { tokens: n, source: "Ollama: the loaded model's context_length" };
  } catch {
    // older servers have no context_length in /api/ps: fall through
  }
  const numCtx =
    typeof show.parameters === 'string'
      ? positive(Number(/(?:^|\n)\s*num_ctx\s+(\d+)/.exec(show.parameters)?.[1]))
      : undefined;
  if (numCtx) return { tokens: cap(numCtx), source: "Ollama: the model's num_ctx" };
  return {
    tokens: cap(OLLAMA_DEFAULT_NUM_CTX),
    source: `Ollama: the server's default num_ctx (${OLLAMA_DEFAULT_NUM_CTX})`,
  };
}
