import { createHash } from 'node:crypto';
import * as vscode from 'vscode';
import type { InputDefinition } from './mcpFiles';

/** Which inputs have a stored value in this workspace (names only, never values), for "forget". */
const INDEX_KEY = 'minagent.inputs.stored';

interface StoredInput {
  server: string;
  id: string;
}

/**
 * Values for `${input:ID}` in `.vscode/mcp.json`: asked once per workspace and server, then kept in
 * SecretStorage (never in settings or logs). A value given to one workspace's server is never
 * handed to another workspace or another server. A dismissed prompt leaves the input unresolved,
 * which the config reports.
 */
export class InputStore {
  private asking = new Map<string, Promise<string | undefined>>();

  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly memento: vscode.Memento,
  ) {}

  /** The values of `ids` for one server, asking for any not stored yet. */
  async resolve(server: string, ids: readonly string[], definitions: readonly InputDefinition[]): Promise<Map<string, string>> {
    const values = new Map<string, string>();
    for (const id of ids) {
      const value = await this.get(server, id, definitions.find((d) => d.id === id));
      if (value !== undefined) values.set(id, value);
    }
    return values;
  }

  /** Lets the user pick stored inputs of this workspace to forget; they are asked for again when their server next starts. */
  async forgetPicked(): Promise<void> {
    const stored = this.index();
    if (!stored.length) {
      void vscode.window.showInformationMessage('MinAgent: no ${input:} value is stored for this workspace.');
      return;
    }
    const picked = await vscode.window.showQuickPick(
      stored.map((s) => ({ label: `\${input:${s.id}}`, description: `server ${s.server}`, picked: true, input: s })),
      { canPickMany: true, title: 'MinAgent: forget these ${input:} values (they will be asked for again)' },
    );
    if (!picked?.length) return;
    await this.forget(picked.map((p) => p.input));
    void vscode.window.showInformationMessage(`MinAgent: forgot ${picked.length} value(s); each is asked for again when its server next starts.`);
  }

  async forget(inputs: readonly StoredInput[]): Promise<void> {
    for (const input of inputs) {
      await this.secrets.delete(this.key(input.server, input.id));
      await this.secrets.delete(legacyKey(input.id));
    }
    const gone = (s: StoredInput) => inputs.some((i) => i.server === s.server && i.id === s.id);
    await this.memento.update(INDEX_KEY, this.index().filter((s) => !gone(s)));
  }

  private async get(server: string, id: string, def: InputDefinition | undefined): Promise<string | undefined> {
    const key = this.key(server, id);
    const stored = await this.secrets.get(key);
    if (stored !== undefined) return stored;
    let pending = this.asking.get(key);
    if (!pending) {
      pending = (async () => {
        const value = await vscode.window.showInputBox({
          title: `MinAgent: value for \${input:${id}} (server "${server}")`,
          prompt: def?.description ?? `A value used by the MCP server "${server}" in this workspace (${id})`,
          password: def?.password ?? true,
          value: def?.default ?? '',
          ignoreFocusOut: true,
        });
        if (value !== undefined) {
          await this.secrets.store(key, value);
          // Earlier versions kept one value per id for every workspace; it is not used any more.
          await this.secrets.delete(legacyKey(id));
          if (!this.index().some((s) => s.server === server && s.id === id)) await this.memento.update(INDEX_KEY, [...this.index(), { server, id }]);
        }
        return value;
      })().finally(() => this.asking.delete(key));
      this.asking.set(key, pending);
    }
    return pending;
  }

  private index(): StoredInput[] {
    const v = this.memento.get<unknown>(INDEX_KEY, []);
    return Array.isArray(v) ? v.filter((s): s is StoredInput => typeof s?.server === 'string' && typeof s?.id === 'string') : [];
  }

  private key(server: string, id: string): string {
    return `minagent.input.${workspaceId()}.${server}.${id}`;
  }
}

/** The open workspace (its file, or its first folder), hashed: secret keys are scoped by it. */
function workspaceId(): string {
  const where = vscode.workspace.workspaceFile?.toString() ?? vscode.workspace.workspaceFolders?.[0]?.uri.toString() ?? '(no folder)';
  return createHash('sha256').update(where).digest('hex').slice(0, 16);
}

function legacyKey(id: string): string {
  return `minagent.input.${id}`;
}
