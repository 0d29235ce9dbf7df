import * as vscode from 'vscode';
import { RegistryClient } from '../../core/serverRegistry/client';
import { allowedBy, due, refreshCatalog, type CatalogState } from '../../core/serverRegistry/catalog';
import type { RegistryServer } from '../../core/serverRegistry/serverJson';
import { errorMessage } from '../../core/toolRegistry/toolRegistry';

/** The official MCP Registry: `minagent.registries`' default. */
export const OFFICIAL_REGISTRY = 'https://registry.modelcontextprotocol.io/';
const STATE_KEY = 'minagent.registry.catalogs';

/** One server as the gallery offers it: the document, and the registry it came from. */
export interface Listed extends RegistryServer {
  registry: string;
}

/**
 * The registries the user chose (`minagent.registries`, user settings only), each read within bounds
 * and kept in the extension's global state with its `updated_since`; read again when the gallery
 * opens and at most once a day otherwise. An organisation's `minagent.registryAllowlist` hides every
 * other server.
 */
export class Catalogs {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;

  constructor(private readonly memento: vscode.Memento) {}

  /** The registries of the user's settings (a workspace cannot name one). */
  registries(): string[] {
    const value = vscode.workspace.getConfiguration('minagent').inspect<unknown>('registries')?.globalValue;
    const list = Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [OFFICIAL_REGISTRY];
    return list.length ? list : [OFFICIAL_REGISTRY];
  }

  /** Every server of every registry that the allowlist lets through, as last read. */
  servers(): Listed[] {
    const patterns = this.allowlist();
    return this.registries().flatMap((url) =>
      (this.state(url)?.servers ?? [])
        .filter((s) => allowedBy(patterns, s.server.name))
        .map((s) => ({ ...s, registry: url })),
    );
  }

  /**
   * The latest listed version of `name` in `registry`, as last read (looked up alone: the tree asks for
   * each registry row it draws, and a registry lists thousands).
   */
  latest(registry: string, name: string): Listed | undefined {
    if (!this.registries().includes(registry) || !allowedBy(this.allowlist(), name)) return undefined;
    const found = this.state(registry)?.servers.find((s) => s.server.name === name);
    return found && { ...found, registry };
  }

  private allowlist(): string[] | undefined {
    const allow = vscode.workspace.getConfiguration('minagent').inspect<unknown>('registryAllowlist')?.globalValue;
    return Array.isArray(allow) ? allow.filter((v): v is string => typeof v === 'string') : undefined;
  }

  /** Reads each registry again (all of them when `force`, else those due); problems come back as lines. */
  async refresh(force: boolean): Promise<string[]> {
    const problems: string[] = [];
    for (const url of this.registries()) {
      const before = this.state(url);
      if (!force && !due(before)) continue;
      try {
        const client = new RegistryClient(url);
        const { state, skipped } = await refreshCatalog(before, url, (o) => client.list(o));
        await this.save(url, state);
        problems.push(...skipped.map((s) => `${url}: skipped ${s}`));
      } catch (err) {
        problems.push(errorMessage(err));
      }
    }
    this.changed.fire();
    return problems;
  }

  private state(url: string): CatalogState | undefined {
    return this.memento.get<Record<string, CatalogState>>(STATE_KEY)?.[url];
  }

  private async save(url: string, state: CatalogState): Promise<void> {
    await this.memento.update(STATE_KEY, {
      ...this.memento.get<Record<string, CatalogState>>(STATE_KEY),
      [url]: { ...state, url },
    });
  }

  dispose(): void {
    this.changed.dispose();
  }
}
