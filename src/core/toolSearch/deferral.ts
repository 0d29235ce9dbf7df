import type { ChatMessage } from '../agentTypes/messages';
import { CHARS_PER_TOKEN, PER_TOOL } from '../budget/tokens';
import type { ToolSchema } from '../toolRegistry/toolRegistry';

/** The tool a request carries in place of the deferred ones. */
export const SEARCH_TOOL = 'search_tools';
/** Most tools a model API takes in one request (VS Code's and OpenAI's bound). */
export const MAX_REQUEST_TOOLS = 128;

export interface DeferralSettings {
  /** The share of the model's window the tools may take before they are deferred (0 defers always). */
  share: number;
  /** Most tools a conversation keeps loaded by search or use; the least recently used leave first. */
  maxLoaded: number;
}

export const DEFAULT_DEFERRAL: DeferralSettings = { share: 0.1, maxLoaded: 32 };

/** What one request carries: every tool, or the pinned, the loaded and the search tool. */
export interface ToolPlan {
  deferred: boolean;
  /** The schemas the request carries, under wire names. */
  tools: ToolSchema[];
  /** Wire names loaded by the conversation (searched or used), least recent first, within the cap. */
  loaded: string[];
  /** Wire names of the pinned tools the request carries. */
  pinned: string[];
  /** Enabled tools the request does not carry (reachable through search). */
  deferredCount: number;
}

/**
 * What a set of tool schemas costs by the documented estimate: the bound for deciding, without a tokenizer round trip.
 */
export function estimateToolTokens(tools: readonly ToolSchema[]): number {
  let chars = 0;
  for (const t of tools)
    chars += JSON.stringify({ name: t.name, description: t.description, parameters: t.parameters }).length;
  return Math.ceil(chars / CHARS_PER_TOKEN) + tools.length * PER_TOOL;
}

/** Whether `tools` go deferred: more than a request takes, or more than their share of the window. */
export function shouldDefer(tools: readonly ToolSchema[], windowTokens: number, settings: DeferralSettings): boolean {
  if (!tools.length) return false;
  return (
    settings.share <= 0 || tools.length > MAX_REQUEST_TOOLS || estimateToolTokens(tools) > settings.share * windowTokens
  );
}

/** What search_tools' result says it loaded, as stored in the conversation. */
export interface SearchResult {
  loaded: Array<{ name: string; server?: string; description: string }>;
  unloaded?: string[];
  note: string;
}

/**
 * The wire names a conversation has loaded (search_tools' results) or used (its tool calls), least
 * recent first. Read from the messages themselves, so a reloaded window or a stored chat loads the
 * same tools again without state of its own.
 */
export function touchedTools(history: readonly ChatMessage[]): string[] {
  const order = new Map<string, number>();
  let clock = 0;
  const touch = (name: string) => {
    order.delete(name);
    order.set(name, clock++);
  };
  for (const m of history) {
    // A provider's own search (Anthropic's) loads what it found, before the calls of the same answer.
    if (m.role === 'assistant')
      for (const s of m.searches ?? []) for (const name of [...s.found].reverse()) touch(name);
    if (m.role === 'assistant') for (const c of m.toolCalls ?? []) if (c.name !== SEARCH_TOOL) touch(c.name);
    // The best match last: it is the most recent, the last to leave.
    if (m.role === 'tool' && m.name === SEARCH_TOOL && !m.isError)
      for (const name of loadedBy(m.content).reverse()) touch(name);
  }
  return [...order.keys()];
}

/** The names a search_tools result loaded; none for any other text. */
function loadedBy(content: string): string[] {
  try {
    const r = JSON.parse(content) as Partial<SearchResult>;
    return Array.isArray(r.loaded) ? r.loaded.flatMap((t) => (t && typeof t.name === 'string' ? [t.name] : [])) : [];
  } catch {
    return [];
  }
}

/** The most recent `max` of `touched` that still exist (wire names), least recent first. */
export function withinCap(
  touched: readonly string[],
  exists: (name: string) => boolean,
  max: number,
  skip: ReadonlySet<string> = new Set(),
): string[] {
  const live = touched.filter((n) => exists(n) && !skip.has(n));
  return live.slice(Math.max(0, live.length - max));
}

/**
 * Plans one request's tools. Not deferred: all of them. Deferred: search_tools, the pinned tools,
 * and the tools the conversation loaded or used (at most `maxLoaded`, least recently used out first);
 * every other enabled tool stays reachable through search.
 */
export function planTools(
  all: readonly ToolSchema[],
  pinned: ReadonlySet<string>,
  history: readonly ChatMessage[],
  windowTokens: number,
  settings: DeferralSettings,
  servers: readonly string[],
  /** The provider searches itself: the deferred tools go along marked `deferLoading`, without search_tools. */
  native = false,
): ToolPlan {
  if (!shouldDefer(all, windowTokens, settings))
    return { deferred: false, tools: [...all], loaded: [], pinned: [], deferredCount: 0 };
  // A server's own tool called search_tools would clash with the search: deferred, the name is ours.
  all = all.filter((t) => t.name !== SEARCH_TOOL);
  const byName = new Map(all.map((t) => [t.name, t]));
  const pins = all.filter((t) => pinned.has(t.name)).slice(0, MAX_REQUEST_TOOLS - 1);
  const pinSet = new Set(pins.map((t) => t.name));
  const room = Math.max(0, Math.min(settings.maxLoaded, MAX_REQUEST_TOOLS - 1 - pins.length));
  const loaded = withinCap(touchedTools(history), (n) => byName.has(n), room, pinSet);
  const sent = [...pins, ...loaded.map((n) => byName.get(n)!)];
  const deferredCount = all.length - pins.length - loaded.length;
  if (native) {
    const carried = new Set(sent.map((t) => t.name));
    const rest = all.filter((t) => !carried.has(t.name)).map((t) => ({ ...t, deferLoading: true }));
    return { deferred: true, tools: [...sent, ...rest], loaded, pinned: pins.map((t) => t.name), deferredCount };
  }
  return {
    deferred: true,
    tools: [searchToolSchema(servers), ...sent],
    loaded,
    pinned: pins.map((t) => t.name),
    deferredCount,
  };
}

/** The search tool's schema: a query, and optionally one server (named among those there are). */
export function searchToolSchema(servers: readonly string[]): ToolSchema {
  const shown = servers.slice(0, 60);
  return {
    name: SEARCH_TOOL,
    description:
      'Finds tools by what they do and loads the best matches, so they can be called in the following steps of this conversation. ' +
      'More tools are available than are listed: search before saying a tool is missing. Describe the task in a few words (e.g. "create a github issue"); a tool\'s exact name finds it first.',
    parameters: {
      type: 'object',
      properties: {
        query: { type: 'string', description: 'What the tool should do, in a few words, or its name.' },
        ...(shown.length
          ? {
              server: {
                type: 'string',
                description: `Only this server's tools. Servers: ${shown.join(', ')}${servers.length > shown.length ? ', …' : ''}.`,
              },
            }
          : {}),
      },
      required: ['query'],
    },
  };
}
