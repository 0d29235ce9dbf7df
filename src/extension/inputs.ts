import * as vscode from 'vscode';
import type { InputDefinition } from './mcpFiles';

/**
 * Values for `${input:ID}` in `.vscode/mcp.json`: asked once, then kept in SecretStorage (never in
 * settings or logs). A dismissed prompt leaves the input unresolved, which the config reports.
 */
export class InputStore {
  private asking = new Map<string, Promise<string | undefined>>();

  constructor(private readonly secrets: vscode.SecretStorage) {}

  async resolve(ids: readonly string[], definitions: readonly InputDefinition[]): Promise<Map<string, string>> {
    const values = new Map<string, string>();
    for (const id of ids) {
      const value = await this.get(id, definitions.find((d) => d.id === id));
      if (value !== undefined) values.set(id, value);
    }
    return values;
  }

  private async get(id: string, def: InputDefinition | undefined): Promise<string | undefined> {
    const key = `minagent.input.${id}`;
    const stored = await this.secrets.get(key);
    if (stored !== undefined) return stored;
    let pending = this.asking.get(id);
    if (!pending) {
      pending = (async () => {
        const value = await vscode.window.showInputBox({
          title: `MinAgent: value for \${input:${id}}`,
          prompt: def?.description ?? `A value used by an MCP server in this workspace (${id})`,
          password: def?.password ?? true,
          value: def?.default ?? '',
          ignoreFocusOut: true,
        });
        if (value !== undefined) await this.secrets.store(key, value);
        return value;
      })().finally(() => this.asking.delete(id));
      this.asking.set(id, pending);
    }
    return pending;
  }

  async forget(ids: readonly string[]): Promise<void> {
    for (const id of ids) await this.secrets.delete(`minagent.input.${id}`);
  }
}
