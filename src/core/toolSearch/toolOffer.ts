import type { AgentToolOptions } from '../agentTypes/toolOptions';
import type { ChatMessage } from '../agentTypes/messages';
import { toolKey } from '../toolRegistry/toolSwitches';
import { forModel, type Tool, type ToolRegistry, type ToolSchema } from '../toolRegistry/toolRegistry';
import { failed, succeeded, type ToolResult } from '../toolRegistry/toolResult';
import {
  DEFAULT_DEFERRAL,
  planTools,
  SEARCH_TOOL,
  touchedTools,
  withinCap,
  type DeferralSettings,
  type SearchResult,
  type ToolPlan,
} from './deferral';
import { SEARCH_LOADS, type ToolIndex } from './toolIndex';

const MAX_QUERY = 500;

export interface ToolOfferDeps {
  registry: ToolRegistry;
  index: ToolIndex;
  /** Whether a tool is switched on for the model (all are, without switches). */
  isOn?: (tool: Tool) => boolean;
  /** The pinned tools' keys (see toolKey): always in the request. */
  pinned?: () => ReadonlySet<string>;
  settings?: () => DeferralSettings;
}

/**
 * What the model is offered, request by request: the enabled tools, all of them or deferred behind
 * search_tools (planTools), and search_tools itself, which runs here without asking (it only reads
 * the registry) and loads its matches into the conversation.
 */
export class ToolOffer {
  constructor(private readonly deps: ToolOfferDeps) {}

  private isOn(tool: Tool): boolean {
    return forModel(tool) && (this.deps.isOn?.(tool) ?? true);
  }

  /** The enabled tools with their schemas, under wire names, in registry order. */
  enabled(): Array<{ tool: Tool; schema: ToolSchema }> {
    const registry = this.deps.registry;
    const tools = registry.list().filter(forModel);
    const schemas = registry.schemas();
    return tools.map((tool, i) => ({ tool, schema: schemas[i]! })).filter((t) => this.isOn(t.tool));
  }

  settings(): DeferralSettings {
    return this.deps.settings?.() ?? DEFAULT_DEFERRAL;
  }

  /** The wire names of the pinned tools that are enabled. */
  private pinnedWire(enabled: ReadonlyArray<{ tool: Tool; schema: ToolSchema }>): Set<string> {
    const keys = this.deps.pinned?.() ?? new Set<string>();
    return new Set(enabled.filter((t) => keys.has(toolKey(t.tool))).map((t) => t.schema.name));
  }

  private servers(enabled: ReadonlyArray<{ tool: Tool }>): string[] {
    return [...new Set(enabled.flatMap((t) => (t.tool.server !== undefined ? [t.tool.server] : [])))];
  }

  /**
   * The tools of the next request of a conversation with this history, against a window of `windowTokens` (`native`:
   * the provider searches).
   */
  plan(history: readonly ChatMessage[], windowTokens: number, native = false): ToolPlan {
    const enabled = this.enabled();
    return planTools(
      enabled.map((t) => t.schema),
      this.pinnedWire(enabled),
      history,
      windowTokens,
      this.settings(),
      this.servers(enabled),
      native,
    );
  }

  /** Whether the model may call `wire` now: any enabled tool (a deferred one it remembers too), or the search. */
  isCallable(wire: string): boolean {
    if (wire === SEARCH_TOOL) return true;
    const name = this.deps.registry.resolve(wire);
    const tool = name === undefined ? undefined : this.deps.registry.get(name);
    return !!tool && this.isOn(tool);
  }

  /** search_tools: ranks the enabled tools for the query, loads the best matches, says which left to make room. */
  search(args: unknown, history: readonly ChatMessage[]): ToolResult {
    const a = (args && typeof args === 'object' ? args : {}) as Record<string, unknown>;
    if (typeof a.query !== 'string' || !a.query.trim())
      return failed('search_tools needs "query": a few words saying what the tool should do');
    const enabled = this.enabled();
    const servers = this.servers(enabled);
    if (a.server !== undefined && (typeof a.server !== 'string' || !servers.includes(a.server))) {
      return failed(
        `no enabled server is named ${JSON.stringify(String(a.server).slice(0, 100))}; servers: ${servers.slice(0, 60).join(', ')}`,
      );
    }
    const hits = this.deps.index.search(a.query.slice(0, MAX_QUERY), {
      limit: SEARCH_LOADS,
      filter: (t) => this.isOn(t),
      ...(typeof a.server === 'string' ? { server: a.server } : {}),
    });
    if (!hits.length)
      return succeeded(
        JSON.stringify({
          loaded: [],
          note: `No enabled tool matches ${JSON.stringify(a.query.slice(0, 100))}${a.server ? ` on server "${a.server}"` : ''}; try other words${a.server ? ' or no server' : ''}.`,
        } satisfies SearchResult),
      );
    // What leaves: the loaded tools (pinned ones aside) that the new matches push past the cap.
    const exists = new Set(enabled.map((t) => t.schema.name));
    const pinned = this.pinnedWire(enabled);
    const room = this.settings().maxLoaded;
    const touched = touchedTools(history);
    const before = withinCap(touched, (n) => exists.has(n), room, pinned);
    const found = hits.map((h) => h.wireName).reverse(); // the best match last, as touchedTools reads it back
    const after = new Set(
      withinCap([...touched.filter((n) => !found.includes(n)), ...found], (n) => exists.has(n), room, pinned),
    );
    const unloaded = before.filter((n) => !after.has(n));
    const result: SearchResult = {
      loaded: hits.map((h) => ({
        name: h.wireName,
        ...(h.server !== undefined ? { server: h.server } : {}),
        description: h.description,
      })),
      ...(unloaded.length ? { unloaded } : {}),
      note: `These tools can be called from the next step on.${unloaded.length ? ` To make room, ${unloaded.length === 1 ? 'one tool was' : `${unloaded.length} tools were`} unloaded (least recently used); search again to use ${unloaded.length === 1 ? 'it' : 'them'}.` : ''}`,
    };
    return succeeded(JSON.stringify(result));
  }
}

/** The agent's tool options for an offer: what each request carries, what may run, and the search itself. */
export function offerOptions(offer: ToolOffer): AgentToolOptions {
  return {
    tools: (history, windowTokens, native) => offer.plan(history, windowTokens, native).tools,
    isCallable: (wire) => offer.isCallable(wire),
    builtin: (wire) => (wire === SEARCH_TOOL ? (args, history) => offer.search(args, history) : undefined),
    unknownTool: (wire, history) =>
      touchedTools(history).includes(wire)
        ? `tool "${wire}" is gone: its server no longer lists it (its tool list changed or the server stopped) since it was loaded; search_tools finds what there is now`
        : undefined,
  };
}
