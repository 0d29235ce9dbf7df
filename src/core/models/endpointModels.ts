import { readTextCapped } from '../net/limits';

/** What an OpenAI-compatible endpoint lists (`GET /models`), for the set-up's pick. */
export type EndpointModels =
  /** `baseUrl`: the base URL the list answered at (`/v1` added when the user's URL lacked it). */
  { ok: true; baseUrl: string; ids: string[] } | { ok: false; reason: string };

export interface ListOptions {
  /** Sent only when the caller holds a key bound to this very origin. */
  apiKey?: string;
  signal?: AbortSignal;
  timeoutMs?: number;
  maxBytes?: number;
  maxIds?: number;
  fetch?: typeof fetch;
}

const TIMEOUT_MS = 5_000;
const MAX_BYTES = 1024 * 1024;
const MAX_IDS = 500;

/**
 * Where to ask, in order: requests go to `{baseUrl}/chat/completions`, so a base URL ending in a
 * version (`/v1`) lists at `{baseUrl}/models`; one without tries `{baseUrl}/v1/models` first (and
 * the base URL then gains `/v1`), then `{baseUrl}/models`.
 */
export function modelListUrls(baseUrl: string): Array<{ baseUrl: string; url: string }> {
  const base = baseUrl.replace(/\/+$/, '');
  const plain = { baseUrl: base, url: `${base}/models` };
  return /\/v\d+$/.test(base) ? [plain] : [{ baseUrl: `${base}/v1`, url: `${base}/v1/models` }, plain];
}

/** The model ids of an OpenAI-style list (`{"data": [{"id": ...}]}`), sorted, without repeats. */
export function parseModelIds(body: unknown, maxIds = MAX_IDS): string[] | undefined {
  const data = body && typeof body === 'object' ? (body as { data?: unknown }).data : undefined;
  if (!Array.isArray(data)) return undefined;
  const ids = new Set<string>();
  for (const m of data) {
    const id = m && typeof m === 'object' ? (m as { id?: unknown }).id : undefined;
    if (typeof id === 'string' && id.trim() && id.length <= 200) ids.add(id.trim());
    if (ids.size >= maxIds) break;
  }
  return [...ids].sort((a, b) => a.localeCompare(b));
}

/**
 * Asks the endpoint which models it serves, bounded in time and size, following no redirect (the
 * key, when given, goes to this origin only). Never throws: a failure says why, and the set-up falls
 * back to typing a name.
 */
export async function listEndpointModels(baseUrl: string, options: ListOptions = {}): Promise<EndpointModels> {
  const reasons: string[] = [];
  for (const candidate of modelListUrls(baseUrl)) {
    const got = await listAt(candidate.url, options);
    if (typeof got !== 'string') return { ok: true, baseUrl: candidate.baseUrl, ids: got };
    reasons.push(`${candidate.url}: ${got}`);
  }
  return { ok: false, reason: reasons.join('; ') };
}

async function listAt(
  url: string,
  { apiKey, signal, timeoutMs = TIMEOUT_MS, maxBytes = MAX_BYTES, maxIds = MAX_IDS, fetch: get = fetch }: ListOptions,
): Promise<string[] | string> {
  const timeout = AbortSignal.timeout(timeoutMs);
  try {
    const response = await get(url, {
      headers: { accept: 'application/json', ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}) },
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      redirect: 'error',
    });
    if (!response.ok) {
      void response.body?.cancel().catch(() => undefined);
      return `HTTP ${response.status}`;
    }
    const text = await readTextCapped(response, maxBytes + 1);
    if (Buffer.byteLength(text) > maxBytes) return `the list is larger than ${Math.round(maxBytes / 1024)} KB`;
    const ids = parseModelIds(JSON.parse(text) as unknown, maxIds);
    if (!ids) return 'not a list of models';
    return ids.length ? ids : 'no models listed';
  } catch (err) {
    if (timeout.aborted) return `no answer in ${timeoutMs / 1000} s`;
    return err instanceof SyntaxError ? 'not JSON' : (err as Error).message;
  }
}
