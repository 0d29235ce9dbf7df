import * as vscode from 'vscode';
import type { Logger } from '../core/base/logger';
import type { ServerConfig } from '../core/mcp/config/serverConfig';
import type { ServerHub } from '../core/mcp/hub/serverHub';

/** How long a burst of file changes (a build writing many files) is waited out before one restart. */
const SETTLE_MS = 300;

/**
 * VS Code's `dev.watch`: a server restarts when the files its entry names change (globs relative to the workspace
 * folder), once per burst of changes. Watchers follow the configuration: made for what each read asks, and the ones
 * no entry asks for any more disposed.
 */
export class DevWatch implements vscode.Disposable {
  private watchers = new Map<string, { key: string; parts: vscode.Disposable[] }>();
  private timers = new Map<string, NodeJS.Timeout>();

  constructor(
    private readonly hub: Pick<ServerHub, 'restart'>,
    private readonly log: Logger,
  ) {}

  update(servers: readonly ServerConfig[]): void {
    const folder = vscode.workspace.workspaceFolders?.[0];
    const wanted = new Map(
      folder ? servers.filter((s) => s.watch?.length).map((s) => [s.name, JSON.stringify(s.watch)] as const) : [],
    );
    for (const [name, w] of this.watchers)
      if (wanted.get(name) !== w.key) {
        for (const p of w.parts) p.dispose();
        this.watchers.delete(name);
      }
    for (const s of servers) {
      const key = wanted.get(s.name);
      if (!folder || key === undefined || this.watchers.has(s.name)) continue;
      const parts = s.watch!.flatMap((glob) => {
        const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, glob));
        const changed = (uri: vscode.Uri) => this.changed(s.name, uri);
        return [watcher, watcher.onDidChange(changed), watcher.onDidCreate(changed), watcher.onDidDelete(changed)];
      });
      this.watchers.set(s.name, { key, parts });
    }
  }

  private changed(name: string, uri: vscode.Uri): void {
    clearTimeout(this.timers.get(name));
    this.timers.set(
      name,
      setTimeout(() => {
        this.timers.delete(name);
        this.log.info(`${name}: ${vscode.workspace.asRelativePath(uri)} changed (dev.watch): restarting`);
        this.hub.restart(name);
      }, SETTLE_MS),
    );
  }

  dispose(): void {
    for (const t of this.timers.values()) clearTimeout(t);
    for (const w of this.watchers.values()) for (const p of w.parts) p.dispose();
    this.watchers.clear();
  }
}
