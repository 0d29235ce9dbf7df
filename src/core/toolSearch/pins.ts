import { Emitter } from '../base/event';
import { toolKey } from '../toolRegistry/toolSwitches';
import type { Tool } from '../toolRegistry/toolRegistry';

export interface PinStore {
  get(): unknown;
  set(keys: string[]): PromiseLike<void>;
}

/**
 * The tools a workspace pinned: while tools are deferred, every request carries them without a
 * search. Kept by tool key (server and the server's own name), so a new registry prefix keeps the pin.
 */
export class ToolPins {
  private readonly emitter = new Emitter<void>();
  readonly onDidChange = this.emitter.event;

  constructor(private readonly store: PinStore) {}

  keys(): ReadonlySet<string> {
    const v = this.store.get();
    return new Set(Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
  }

  isPinned(tool: Pick<Tool, 'name' | 'server' | 'remoteName'>): boolean {
    return this.keys().has(toolKey(tool));
  }

  async set(tool: Pick<Tool, 'name' | 'server' | 'remoteName'>, pinned: boolean): Promise<void> {
    const keys = new Set(this.keys());
    if (pinned) keys.add(toolKey(tool));
    else keys.delete(toolKey(tool));
    await this.store.set([...keys]);
    this.emitter.fire();
  }

  dispose(): void {
    this.emitter.dispose();
  }
}
