import { appTool, type AppToolDef, type AppToolView } from '../tools/appTools';
import type { Tool } from '../../toolRegistry/toolRegistry';

/** A view's place on the shelf: its tools change with its `tools/list`, and go with the view. */
export interface OfferedAppTools {
  update(defs: readonly AppToolDef[]): void;
  dispose(): void;
}

/**
 * The tools live app views offer, for the hub's registry: each named `SERVER.app.NAME` (a second live view of that
 * server: `SERVER.app2.NAME`), offered while its view lives, in the order the views came.
 */
export class AppToolShelf {
  private readonly views = new Map<number, { view: AppToolView; defs: readonly AppToolDef[]; slot: number }>();
  private next = 1;

  constructor(private readonly changed: () => void) {}

  offer(view: AppToolView, defs: readonly AppToolDef[]): OfferedAppTools {
    const id = this.next++;
    // Its number among its server's live views, kept for its life: a view that closes renames no other's tools.
    const taken = new Set([...this.views.values()].filter((v) => v.view.server === view.server).map((v) => v.slot));
    let slot = 1;
    while (taken.has(slot)) slot++;
    this.views.set(id, { view, defs, slot });
    if (defs.length) this.changed();
    return {
      update: (next) => {
        const held = this.views.get(id);
        if (!held) return;
        held.defs = next;
        this.changed();
      },
      dispose: () => {
        const held = this.views.get(id);
        if (!held) return;
        this.views.delete(id);
        if (held.defs.length) this.changed();
      },
    };
  }

  /** The registry tools of every live view, under names not in `taken`. */
  tools(taken: ReadonlySet<string>): Tool[] {
    const used = new Set(taken);
    const tools: Tool[] = [];
    for (const [id, { view, defs, slot }] of this.views) {
      const shelf = `app${slot > 1 ? slot : ''}`;
      for (const def of defs) {
        let name = `${view.server}.${shelf}.${def.name}`;
        for (let n = 2; used.has(name); n++) name = `${view.server}.${shelf}.${def.name}_${n}`;
        used.add(name);
        tools.push(appTool(def, name, shelf, view, () => this.views.has(id)));
      }
    }
    return tools;
  }
}
