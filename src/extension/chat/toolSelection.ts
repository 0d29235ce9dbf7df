import * as vscode from 'vscode';
import type { ServerHub } from '../../core/mcp/hub';
import type { ToolSchema } from '../../core/tools';
import { setting } from '../trustedSettings';

const TOOLS_KEY = 'minagent.chat.tools';

/**
 * Which tools the model is sent: all of them, or the user's choice when there are more than the
 * provider accepts (`minagent.chat.maxTools`). The choice is kept per workspace.
 */
export class ToolSelection {
  constructor(
    private readonly hub: ServerHub,
    private readonly memento: vscode.Memento,
  ) {}

  private max(): number {
    return setting<number>('chat.maxTools', 128);
  }

  /** The schemas sent with the next request, under wire names. */
  forModel(): ToolSchema[] {
    const registry = this.hub.registry;
    const all = registry.schemas();
    const max = this.max();
    if (all.length <= max) return all;
    const chosen = this.memento.get<string[]>(TOOLS_KEY);
    const names = new Set((chosen ?? registry.names()).map((n) => registry.wireName(n)));
    return all.filter((t) => names.has(t.name)).slice(0, max);
  }

  /** What the banner says when some tools are left out, or undefined. */
  warning(): string | undefined {
    const total = this.hub.registry.size;
    const max = this.max();
    if (total <= max) return undefined;
    const sent = this.forModel().length;
    const left = total - sent;
    return `${total} tools are available but models accept at most ${max} ("minagent.chat.maxTools"): ${sent} ${sent === 1 ? 'is' : 'are'} sent, ${left} ${left === 1 ? 'is' : 'are'} left out. Choose which.`;
  }

  /** Lets the user pick the tools; resolves true when the choice changed. */
  async choose(): Promise<boolean> {
    const registry = this.hub.registry;
    const sent = new Set(this.forModel().map((t) => registry.resolve(t.name)));
    const items = registry.list().map((t) => ({ label: t.name, description: t.server, detail: t.description, picked: sent.has(t.name) }));
    const picked = await vscode.window.showQuickPick(items, { canPickMany: true, title: `MinAgent: tools sent to the model (at most ${this.max()})`, matchOnDescription: true });
    if (!picked) return false;
    await this.memento.update(TOOLS_KEY, picked.map((p) => p.label));
    return true;
  }
}
