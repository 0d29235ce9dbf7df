import * as vscode from 'vscode';
import type { ServerHub } from '../../core/mcp/hub';
import { forModel, type Tool, type ToolSchema } from '../../core/tools';
import { offeredTools, type ToolSwitches } from '../../core/toolSwitches';
import { setting } from '../trustedSettings';

/**
 * Which tools the model is sent: those switched on for this workspace (the Tools tree's checkboxes,
 * or the chooser past `minagent.chat.maxTools`), at most maxTools of them. One mechanism: the
 * chooser writes the same switches the tree shows.
 */
export class ToolSelection {
  constructor(
    private readonly hub: ServerHub,
    private readonly switches: ToolSwitches,
  ) {}

  private max(): number {
    return setting<number>('chat.maxTools', 128);
  }

  /** The tools the next request offers, under registry names (the chat's example prompts). */
  offered(): Tool[] {
    return offeredTools(this.hub.registry, this.switches, this.max()).offered.map((t) => t.tool);
  }

  /** The schemas sent with the next request, under wire names. */
  forModel(): ToolSchema[] {
    return offeredTools(this.hub.registry, this.switches, this.max()).offered.map((t) => t.schema);
  }

  /** Every tool the registry has, with its server, whether the next request offers it, and whether the tool itself is switched on (for the budget meter). */
  budgetTools(): Array<{ server: string; schema: ToolSchema; offered: boolean; toolOn: boolean }> {
    const registry = this.hub.registry;
    const offered = new Set(this.forModel().map((t) => t.name));
    const schemas = registry.schemas();
    return registry.list().filter(forModel).map((t, i) => ({ server: t.server ?? '', schema: schemas[i]!, offered: offered.has(schemas[i]!.name), toolOn: this.switches.toolSwitchedOn(t) }));
  }

  /** Why the model may not call a tool (switched off), for the refusal it reads; undefined otherwise. */
  whyUnavailable(name: string): string | undefined {
    const tool = this.hub.registry.get(name);
    if (tool && !forModel(tool)) return `its server keeps it for its app (${tool.app!.resourceUri}); only the app calls it`;
    return tool && this.switches.whyOff(tool);
  }

  /** What the banner says when some switched-on tools are left out, or undefined. */
  warning(): string | undefined {
    const max = this.max();
    const { on, total } = offeredTools(this.hub.registry, this.switches, max);
    if (on <= max) return undefined;
    return `${on} tools are switched on but models accept at most ${max} ("minagent.chat.maxTools"): the first ${max} are sent, ${on - max} ${on - max === 1 ? 'is' : 'are'} left out${total > on ? ` (${total - on} more are switched off)` : ''}. Choose which, or switch servers off in the Tools view.`;
  }

  /** The chooser: what is picked is switched on, the rest off (the Tools tree shows the same). Resolves true when the choice changed. */
  async choose(): Promise<boolean> {
    const registry = this.hub.registry;
    const sent = new Set(this.forModel().map((t) => registry.resolve(t.name)));
    const tools = registry.list().filter((t) => forModel(t) && (!t.server || this.switches.serverOn(t.server)));
    const items = tools.map((t) => ({ label: t.name, description: t.server, detail: t.description, picked: sent.has(t.name) }));
    const picked = await vscode.window.showQuickPick(items, { canPickMany: true, title: `MinAgent: tools sent to the model (at most ${this.max()})`, matchOnDescription: true });
    if (!picked) return false;
    await this.switches.choose(tools, new Set(picked.map((p) => p.label)));
    return true;
  }
}
