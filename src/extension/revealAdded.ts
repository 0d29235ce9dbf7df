import type * as vscode from 'vscode';
import type { ServerHub } from '../core/mcp/hub/serverHub';
import type { Node } from './treeNode';

/** How long a server the user added is waited for (its entry written, the settings read again). */
const WAIT_MS = 60_000;
/** After the hub has it: VS Code refreshes the tree a moment after it is told (it gathers changes first). */
const AFTER_REFRESH_MS = 400;

/**
 * Shows a server the user just added (Add Server, Add Server from Registry) in the Tools view, selected,
 * once the hub has it: below an expanded server's tools it would be out of sight, and the user would not
 * see it start, ask for a sign-in or fail. The keyboard stays where it is.
 */
export class AddedServerReveal implements vscode.Disposable {
  private pending: { name: string; until: number } | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly listener: { dispose(): void };

  constructor(
    private readonly hub: ServerHub,
    private readonly view: Pick<vscode.TreeView<Node>, 'reveal' | 'visible'>,
  ) {
    this.listener = hub.onDidChangeServers(() => this.check());
  }

  /** The entry of server `name` was written: it is shown once the hub has it. */
  expect(name: string): void {
    this.pending = { name, until: Date.now() + WAIT_MS };
    this.check();
  }

  private check(): void {
    const pending = this.pending;
    if (!pending || this.timer) return;
    if (Date.now() > pending.until) {
      this.pending = undefined;
      return;
    }
    if (!this.hub.server(pending.name)) return;
    this.pending = undefined;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      // A view the user closed stays closed; a server removed meanwhile is not revealed.
      if (!this.view.visible || !this.hub.server(pending.name)) return;
      Promise.resolve(
        this.view.reveal({ kind: 'server', name: pending.name }, { select: true, focus: false, expand: false }),
      ).catch(() => undefined);
    }, AFTER_REFRESH_MS);
  }

  dispose(): void {
    this.listener.dispose();
    if (this.timer) clearTimeout(this.timer);
  }
}
