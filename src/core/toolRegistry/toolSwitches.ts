import { Emitter } from '../base/event';
import type { Tool } from './toolRegistry';

/** What is switched off, as stored: server names and tool keys (see `toolKey`). */
export interface SwitchState {
  servers: string[];
  tools: string[];
}

export interface SwitchStore {
  get(): SwitchState | undefined;
  set(state: SwitchState): PromiseLike<void>;
}

/**
 * A tool's identity across restarts: its server and the server's own name for it, so a change of
 * registry name (a new clash, a prefix policy) does not switch another tool off.
 */
export function toolKey(tool: Pick<Tool, 'name' | 'server' | 'remoteName'>): string {
  return tool.server ? `${tool.server}/${tool.remoteName ?? tool.name}` : tool.name;
}

/**
 * Which servers and tools are switched off for a workspace. Off means not sent to the model and not
 * callable by it. The one place that decides it: the Tools tree's checkboxes write here.
 */
export class ToolSwitches {
  private readonly emitter = new Emitter<void>();
  readonly onDidChange = this.emitter.event;

  constructor(private readonly store: SwitchStore) {}

  private state(): SwitchState {
    const s = this.store.get();
    const strings = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
    return { servers: strings(s?.servers), tools: strings(s?.tools) };
  }

  serverOn(server: string): boolean {
    return !this.state().servers.includes(server);
  }

  /** Whether the tool itself is switched on (its server may still be off). */
  toolSwitchedOn(tool: Pick<Tool, 'name' | 'server' | 'remoteName'>): boolean {
    return !this.state().tools.includes(toolKey(tool));
  }

  isOn(tool: Pick<Tool, 'name' | 'server' | 'remoteName'>): boolean {
    return this.whyOff(tool) === undefined;
  }

  /** Why a tool is off, for the refusal the model reads; undefined when it is on. */
  whyOff(tool: Pick<Tool, 'name' | 'server' | 'remoteName'>): string | undefined {
    const s = this.state();
    if (tool.server && s.servers.includes(tool.server))
      return `its server "${tool.server}" is switched off in this workspace (MinAgent's Tools view)`;
    if (s.tools.includes(toolKey(tool))) return "it is switched off in this workspace (MinAgent's Tools view)";
    return undefined;
  }

  async setServer(server: string, on: boolean): Promise<void> {
    const s = this.state();
    await this.save({
      ...s,
      servers: on ? s.servers.filter((x) => x !== server) : [...new Set([...s.servers, server])],
    });
  }

  async setTool(tool: Pick<Tool, 'name' | 'server' | 'remoteName'>, on: boolean): Promise<void> {
    const s = this.state();
    const key = toolKey(tool);
    await this.save({ ...s, tools: on ? s.tools.filter((x) => x !== key) : [...new Set([...s.tools, key])] });
  }

  private async save(state: SwitchState): Promise<void> {
    await this.store.set(state);
    this.emitter.fire();
  }

  dispose(): void {
    this.emitter.dispose();
  }
}
