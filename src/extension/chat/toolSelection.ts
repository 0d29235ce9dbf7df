import type { ChatMessage } from '../../core/agentTypes/messages';
import { Emitter } from '../../core/base/event';
import type { ServerHub } from '../../core/mcp/hub/serverHub';
import { forApp, forModel, type Tool, type ToolSchema } from '../../core/toolRegistry/toolRegistry';
import type { ToolSwitches } from '../../core/toolRegistry/toolSwitches';
import { DEFAULT_DEFERRAL, type DeferralSettings } from '../../core/toolSearch/deferral';
import type { ToolPins } from '../../core/toolSearch/pins';
import { ToolIndex } from '../../core/toolSearch/toolIndex';
import { ToolOffer } from '../../core/toolSearch/toolOffer';
import { setting } from '../trustedSettings';

/**
 * Which tools the model is offered: those switched on for this workspace (the Tools tree's
 * checkboxes), all of them while they fit their share of the window, else the pinned ones, the ones
 * the conversation loaded by search or used, and search_tools (core/toolSearch).
 */
export class ToolSelection {
  readonly index: ToolIndex;
  readonly offer: ToolOffer;
  /** What the open chat has loaded, as last measured (empty while tools are not deferred). */
  private loadedNow: ReadonlySet<string> = new Set();
  private readonly loadedEmitter = new Emitter<void>();
  /** Fires when the open chat's loaded tools changed (the Tools tree marks them). */
  readonly onDidChangeLoaded = this.loadedEmitter.event;

  constructor(
    private readonly hub: ServerHub,
    private readonly switches: ToolSwitches,
    readonly pins: ToolPins,
  ) {
    this.index = new ToolIndex(hub.registry, (server) => hub.catalog.serverInstructions(server));
    this.offer = new ToolOffer({
      registry: hub.registry,
      index: this.index,
      isOn: (t) => switches.isOn(t),
      pinned: () => pins.keys(),
      settings: () => this.settings(),
    });
  }

  private settings(): DeferralSettings {
    return {
      share: setting<number>('tools.deferAbove', DEFAULT_DEFERRAL.share),
      maxLoaded: setting<number>('tools.maxLoaded', DEFAULT_DEFERRAL.maxLoaded),
    };
  }

  /** The tools switched on, under registry names (the chat's example prompts). */
  offered(): Tool[] {
    return this.offer.enabled().map((t) => t.tool);
  }

  /**
   * Every tool the registry has, with its server, whether the next request carries it, and whether the tool itself is
   * switched on (for the budget meter).
   */
  budgetTools(
    history: readonly ChatMessage[],
    windowTokens: number,
    nativeSearch = false,
  ): Array<{ server: string; schema: ToolSchema; offered: boolean; toolOn: boolean; on: boolean }> {
    const registry = this.hub.registry;
    const plan = this.offer.plan(history, windowTokens, nativeSearch);
    // Sent deferred for the provider's own search, a tool is not in the model's context (nor billed there).
    const carried = new Set(plan.tools.filter((t) => !t.deferLoading).map((t) => t.name));
    this.noteLoaded(new Set(plan.loaded));
    const schemas = registry.schemas();
    const listed = new Set(schemas.map((s) => s.name));
    // MinAgent's own tools the request carries (search_tools) count as sent, under no server.
    const own = plan.tools
      .filter((t) => !listed.has(t.name) && !t.deferLoading)
      .map((schema) => ({ server: '', schema, offered: true, toolOn: true, on: true }));
    return [
      ...own,
      ...registry
        .list()
        .filter(forModel)
        .map((t, i) => ({
          server: t.server ?? '',
          schema: schemas[i]!,
          offered: carried.has(schemas[i]!.name),
          toolOn: this.switches.toolSwitchedOn(t),
          on: this.switches.isOn(t),
        })),
    ];
  }

  /** Why the model may not call a tool (switched off), for the refusal it reads; undefined otherwise. */
  whyUnavailable(name: string): string | undefined {
    const tool = this.hub.registry.get(name);
    if (tool && !forModel(tool))
      return forApp(tool)
        ? 'its server keeps it for its apps; only an app calls it'
        : 'its server keeps it from the model';
    return tool && this.switches.whyOff(tool);
  }

  /** The wire names the open chat has loaded, as last measured. */
  loaded(): ReadonlySet<string> {
    return this.loadedNow;
  }

  private noteLoaded(next: ReadonlySet<string>): void {
    if (next.size === this.loadedNow.size && [...next].every((n) => this.loadedNow.has(n))) return;
    this.loadedNow = next;
    this.loadedEmitter.fire();
  }

  dispose(): void {
    this.loadedEmitter.dispose();
    this.index.dispose();
  }
}
