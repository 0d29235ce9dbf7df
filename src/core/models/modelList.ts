import { DEFAULT_BASE_URLS } from './factory';

/**
 * The user's list of models (`minagent.chat.models`): each entry a provider and where it runs. Keys
 * are never here; they stay in secret storage, bound to one origin. Pure functions: the extension
 * reads and writes the setting.
 */
export type ModelEntry =
  | { provider: 'openai' | 'anthropic'; baseUrl: string; model: string; label?: string }
  /** Replays a file of turns; without `scriptFile`, the one in `minagent.chat.scriptFile`. */
  | { provider: 'scripted'; scriptFile?: string; label?: string };

export const MODELS_SETTING = 'minagent.chat.models';
const PROVIDERS = ['openai', 'anthropic', 'scripted'] as const;

export interface ParsedModels {
  entries: ModelEntry[];
  /** One line per bad entry or field, e.g. `minagent.chat.models[2].baseUrl: ...`; the entry is skipped. */
  problems: string[];
}

/**
 * Validates the setting's value: a bad entry is reported by index and field and skipped, the others
 * kept. `scriptFile`: `minagent.chat.scriptFile`, which a scripted entry without its own file uses.
 */
export function parseModelList(raw: unknown, { scriptFile = '' }: { scriptFile?: string } = {}): ParsedModels {
  if (raw === undefined || raw === null) return { entries: [], problems: [] };
  if (!Array.isArray(raw))
    return { entries: [], problems: [`${MODELS_SETTING}: must be a list of models, not ${typeof raw}`] };
  const entries: ModelEntry[] = [];
  const problems: string[] = [];
  const seen = new Map<string, number>();
  raw.forEach((item, index) => {
    const at = `${MODELS_SETTING}[${index}]`;
    const parsed = parseEntry(item);
    if (typeof parsed !== 'string' && parsed.provider === 'scripted' && !parsed.scriptFile && !scriptFile) {
      problems.push(`${at}.scriptFile: a scripted model needs a file of turns (here or in minagent.chat.scriptFile)`);
      return;
    }
    if (typeof parsed === 'string') {
      problems.push(`${at}${parsed}`);
      return;
    }
    const id = entryId(parsed);
    const first = seen.get(id);
    if (first !== undefined) {
      problems.push(`${at}: the same model as ${MODELS_SETTING}[${first}]; listed once`);
      return;
    }
    seen.set(id, index);
    entries.push(parsed);
  });
  return { entries, problems };
}

/** An entry, or the problem as `.field: message` (or `: message` for the whole entry). */
function parseEntry(item: unknown): ModelEntry | string {
  if (!item || typeof item !== 'object' || Array.isArray(item))
    return ': must be an object such as {"provider": "openai", "baseUrl": "http://localhost:11434/v1", "model": "llama3.2"}';
  const e = item as Record<string, unknown>;
  if (!PROVIDERS.includes(e.provider as (typeof PROVIDERS)[number]))
    return `.provider: must be one of ${PROVIDERS.join(', ')}, not ${JSON.stringify(e.provider) ?? 'missing'}`;
  if (e.label !== undefined && (typeof e.label !== 'string' || !e.label.trim()))
    return '.label: must be a non-empty string when given';
  const label = typeof e.label === 'string' ? { label: e.label.trim() } : {};
  if (e.provider === 'scripted') {
    if (e.scriptFile !== undefined && (typeof e.scriptFile !== 'string' || !e.scriptFile))
      return '.scriptFile: must be a path';
    return {
      provider: 'scripted',
      ...(typeof e.scriptFile === 'string' ? { scriptFile: e.scriptFile } : {}),
      ...label,
    };
  }
  const provider = e.provider as 'openai' | 'anthropic';
  if (typeof e.model !== 'string' || !e.model.trim())
    return '.model: a model name is required, e.g. llama3.2, gpt-4o-mini, claude-sonnet-4-5';
  if (e.baseUrl !== undefined && typeof e.baseUrl !== 'string') return '.baseUrl: must be a URL';
  const baseUrl = normaliseBaseUrl(provider, typeof e.baseUrl === 'string' ? e.baseUrl : '');
  const wrong = baseUrlProblem(baseUrl);
  if (wrong) return `.baseUrl: ${wrong}`;
  return { provider, baseUrl, model: e.model.trim(), ...label };
}

/** Why a base URL cannot be used, or undefined. */
export function baseUrlProblem(baseUrl: string): string | undefined {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return `"${baseUrl}" is not a URL`;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return `must use https or http, not ${url.protocol.replace(/:$/, '')}`;
  if (url.username || url.password)
    return 'must not carry a user name or password; keep the key in MinAgent: Set API Key';
  return undefined;
}

/** Empty means the vendor's default; trailing slashes go (requests append `/chat/completions` or `/v1/messages`). */
export function normaliseBaseUrl(provider: 'openai' | 'anthropic', baseUrl: string): string {
  return (baseUrl.trim() || DEFAULT_BASE_URLS[provider]).replace(/\/+$/, '');
}

/** A stable id for the picker and the stored selection: two identical entries have the same id. */
export function entryId(e: ModelEntry): string {
  return e.provider === 'scripted' ? `scripted:${e.scriptFile ?? ''}` : `${e.provider}:${e.model}@${e.baseUrl}`;
}

/**
 * What the picker shows: the label, else the model and where it runs, readably (`llama3.2 · Ollama`, `m · localhost`).
 */
export function entryLabel(e: ModelEntry): string {
  if (e.label) return e.label;
  return e.provider === 'scripted' ? 'Scripted replies' : `${e.model} · ${endpointName(e.baseUrl)}`;
}

/**
 * The picker's labels for a list of entries: entryLabel, and for entries that would read the same
 * (two local servers of one model) their address after it, so the two can be told apart. A label the
 * user gave is theirs and stays as it is.
 */
export function entryLabels(entries: readonly ModelEntry[]): string[] {
  const labels = entries.map(entryLabel);
  const count = new Map<string, number>();
  for (const l of labels) count.set(l, (count.get(l) ?? 0) + 1);
  return entries.map((e, i) =>
    e.provider !== 'scripted' && !e.label && count.get(labels[i]!)! > 1
      ? `${labels[i]} (${hostOf(e.baseUrl)})`
      : labels[i]!,
  );
}

/** Vendors' API hosts, by the name users know them by. */
const VENDORS: Record<string, string> = {
  'api.openai.com': 'OpenAI',
  'api.anthropic.com': 'Anthropic',
  'openrouter.ai': 'OpenRouter',
  'api.groq.com': 'Groq',
  'api.mistral.ai': 'Mistral',
  'api.deepseek.com': 'DeepSeek',
  'generativelanguage.googleapis.com': 'Gemini',
};
/** The default ports of local model servers. */
const LOCAL_SERVERS: Record<string, string> = { '11434': 'Ollama', '1234': 'LM Studio' };

/**
 * Where a model runs, as a person reads it: the vendor, a local server by its default port, else
 * `localhost` or the host's name. The port (often a test's or a tool's ephemeral one) stays in the
 * picker's detail, which shows the whole URL.
 */
function endpointName(baseUrl: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return baseUrl;
  }
  const host = url.hostname.toLowerCase();
  const vendor = VENDORS[host];
  if (vendor) return vendor;
  if (host === 'localhost' || host.endsWith('.localhost') || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host))
    return LOCAL_SERVERS[url.port] ?? 'localhost';
  return host;
}

export function entryDetail(e: ModelEntry, fallbackScript = ''): string {
  if (e.provider === 'scripted') return `Scripted replies from ${e.scriptFile ?? fallbackScript}`;
  return `${e.provider === 'openai' ? 'OpenAI-compatible' : 'Anthropic'} at ${e.baseUrl}`;
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/**
 * The list with `entry` in it: appended unless an identical entry is already there (then the list is
 * returned as it was). Entries the parser rejects are kept as they are: the user may be mid-edit.
 */
export function withEntry(raw: unknown, entry: ModelEntry): { list: unknown[]; added: boolean } {
  const list = Array.isArray(raw) ? [...(raw as unknown[])] : [];
  const id = entryId(entry);
  if (
    list.some((item) => {
      const p = parseEntry(item);
      return typeof p !== 'string' && entryId(p) === id;
    })
  )
    return { list, added: false };
  return { list: [...list, entry], added: true };
}

/** The settings of versions before the list (`minagent.chat.provider`, `baseUrl`, `model`). */
export interface LegacyModelSettings {
  provider?: string | undefined;
  baseUrl?: string | undefined;
  model?: string | undefined;
}

/** The one model the old settings configured, as an entry; undefined when they configured none (or VS Code's). */
export function legacyEntry(s: LegacyModelSettings): ModelEntry | undefined {
  if (s.provider === 'scripted') return { provider: 'scripted' };
  if (s.provider !== 'openai' && s.provider !== 'anthropic') return undefined;
  const parsed = parseEntry({ provider: s.provider, baseUrl: s.baseUrl ?? '', model: s.model ?? '' });
  return typeof parsed === 'string' ? undefined : parsed;
}

/**
 * The list after the old settings moved into it: undefined when nothing is to be written (no old
 * model, or the same entry already listed), so running it twice changes nothing.
 */
export function migrateLegacy(raw: unknown, legacy: LegacyModelSettings): unknown[] | undefined {
  const entry = legacyEntry(legacy);
  if (!entry) return undefined;
  const { list, added } = withEntry(raw, entry);
  return added ? list : undefined;
}

/**
 * The id a selection stored by an older version means now: it stored the provider's name
 * (`openai`), which now names the first of `ids` (in order of preference) of that provider; a
 * workspace's model (`workspace:` ids) counts as its provider's.
 */
export function upgradeSelection(stored: string | undefined, ids: readonly string[]): string | undefined {
  if (stored === undefined || ids.includes(stored)) return stored;
  if (!(PROVIDERS as readonly string[]).includes(stored)) return stored;
  return ids.find((id) => id.replace(/^workspace:/, '').startsWith(`${stored}:`));
}
