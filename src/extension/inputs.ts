import { createHash } from 'node:crypto';
import * as vscode from 'vscode';
import { visibleLine } from '../shared/visibleText';
import { rebindNotice, type InputBinding } from '../core/mcp/config/inputBinding';
import type { InputDefinition } from '../core/mcp/config/serverFiles';
import type { SecretStore } from '../core/base/secretStore';

/** Which inputs have a stored value in this workspace (names and entries, never values), for "forget". */
const INDEX_KEY = 'minagent.inputs.stored';

interface StoredInput {
  server: string;
  id: string;
  /**
   * The key of the entry the value was given for (`inputBinding`); absent for a value stored before values were bound
   * to entries.
   */
  binding?: string;
  /** What that entry ran, as written, for the notice when it changes. */
  runs?: string;
}

/**
 * Values for `${input:ID}` in `.vscode/mcp.json`: asked once per workspace and server entry, then
 * kept in SecretStorage (never in settings or logs). A value is bound to the entry it was given for
 * (its origin and what it runs or reaches, see `inputBinding`): when a pulled change points the
 * entry at another command or URL, the value is asked for again with a notice saying why, and the
 * stored one is never handed to the new target; a version-only change of the same package keeps it.
 * A value given to one workspace's server is never handed to another workspace or another server.
 * A dismissed prompt leaves the input unresolved, which the config reports.
 */
export class InputStore {
  private asking = new Map<string, Promise<string | undefined>>();

  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly memento: vscode.Memento,
  ) {}

  /**
   * The extension's SecretStorage as the core's store: where `${input:}` values of settings entries (a registry's
   * secrets) are kept.
   */
  readonly store: SecretStore = {
    get: async (key) => this.secrets.get(key),
    store: async (key, value) => this.secrets.store(key, value),
    delete: async (key) => this.secrets.delete(key),
  };

  /** The values of `ids` for one server entry, asking for any not stored for that entry. */
  async resolve(
    server: string,
    binding: InputBinding,
    ids: readonly string[],
    definitions: readonly InputDefinition[],
  ): Promise<Map<string, string>> {
    const values = new Map<string, string>();
    for (const id of ids) {
      const value = await this.get(
        server,
        binding,
        id,
        definitions.find((d) => d.id === id),
      );
      if (value !== undefined) values.set(id, value);
    }
    return values;
  }

  /**
   * Lets the user pick stored inputs of this workspace to forget; they are asked for again when their server next
   * starts.
   */
  async forgetPicked(): Promise<void> {
    const stored = this.index();
    if (!stored.length) {
      void vscode.window.showInformationMessage('MinAgent: no ${input:} value is stored for this workspace.');
      return;
    }
    const picked = await vscode.window.showQuickPick(
      stored.map((s) => ({
        label: `\${input:${s.id}}`,
        description: `server ${s.server}${s.runs ? ` (${s.runs})` : ''}`,
        picked: true,
        input: s,
      })),
      { canPickMany: true, title: 'MinAgent: forget these ${input:} values (they will be asked for again)' },
    );
    if (!picked?.length) return;
    await this.forget(picked.map((p) => p.input));
    void vscode.window.showInformationMessage(
      `MinAgent: forgot ${picked.length} value(s); each is asked for again when its server next starts.`,
    );
  }

  async forget(inputs: readonly StoredInput[]): Promise<void> {
    for (const input of inputs) {
      await this.secrets.delete(this.key(input));
      await this.secrets.delete(legacyKey(input.id));
    }
    const gone = (s: StoredInput) =>
      inputs.some((i) => i.server === s.server && i.id === s.id && i.binding === s.binding);
    await this.memento.update(
      INDEX_KEY,
      this.index().filter((s) => !gone(s)),
    );
  }

  private async get(
    server: string,
    binding: InputBinding,
    id: string,
    def: InputDefinition | undefined,
  ): Promise<string | undefined> {
    const entry: StoredInput = { server, id, binding: binding.key, runs: binding.runs };
    const key = this.key(entry);
    const stored = await this.secrets.get(key);
    if (stored !== undefined) {
      // The same entry, perhaps at another version of its package: remember what it runs now.
      if (
        this.index().some(
          (s) => s.server === server && s.id === id && s.binding === binding.key && s.runs !== binding.runs,
        )
      ) {
        await this.memento.update(
          INDEX_KEY,
          this.index().map((s) => (s.server === server && s.id === id && s.binding === binding.key ? entry : s)),
        );
      }
      return stored;
    }
    let pending = this.asking.get(key);
    if (!pending) {
      pending = (async () => {
        // A value given for what this server ran before is not handed to what it runs now: say why it is asked again.
        const earlier = this.index().filter((s) => s.server === server && s.id === id);
        const notice = earlier.length
          ? rebindNotice(server, binding, earlier.find((s) => s.binding !== undefined)?.runs)
          : undefined;
        const about = def?.description ?? `A value used by the MCP server "${server}" in this workspace (${id})`;
        const value = await askInput(def, {
          title: `MinAgent: value for \${input:${id}} (server "${server}")`,
          prompt: notice ? `${notice} ${about}` : about,
        });
        if (value !== undefined) {
          await this.secrets.store(key, value);
          // The value for what the server ran before goes: one value per server and input.
          for (const old of earlier) if (old.binding !== binding.key) await this.secrets.delete(this.key(old));
          // Earlier versions kept one value per id for every workspace; it is not used any more.
          await this.secrets.delete(legacyKey(id));
          await this.memento.update(INDEX_KEY, [
            ...this.index().filter((s) => !(s.server === server && s.id === id)),
            entry,
          ]);
        }
        return value;
      })().finally(() => this.asking.delete(key));
      this.asking.set(key, pending);
    }
    return pending;
  }

  private index(): StoredInput[] {
    const v = this.memento.get<unknown>(INDEX_KEY, []);
    return Array.isArray(v)
      ? v.filter((s): s is StoredInput => typeof s?.server === 'string' && typeof s?.id === 'string')
      : [];
  }

  /**
   * Where a value is kept: one key per workspace, server, entry and input, hashed as a whole so no part can forge
   * another's key.
   */
  private key(input: StoredInput): string {
    // A value stored before values were bound to entries (never read now: it is only deleted).
    if (input.binding === undefined) return `minagent.input.${workspaceId()}.${input.server}.${input.id}`;
    const which = createHash('sha256')
      .update(JSON.stringify([input.server, input.binding, input.id]))
      .digest('hex')
      .slice(0, 32);
    return `minagent.input.${workspaceId()}.${which}`;
  }
}

/** The open workspace (its file, or its first folder), hashed: secret keys are scoped by it. */
function workspaceId(): string {
  const where =
    vscode.workspace.workspaceFile?.toString() ??
    vscode.workspace.workspaceFolders?.[0]?.uri.toString() ??
    '(no folder)';
  return createHash('sha256').update(where).digest('hex').slice(0, 16);
}

function legacyKey(id: string): string {
  return `minagent.input.${id}`;
}

/**
 * The origin a settings entry's `${input:}` values are bound to: the user's settings, or this
 * workspace's (a value given for one workspace's entry is never handed to another's).
 */
export function settingsInputOrigin(scope: 'user' | 'workspace'): string {
  return scope === 'user'
    ? 'user settings'
    : `workspace settings ${vscode.workspace.workspaceFile?.toString() ?? vscode.workspace.workspaceFolders?.[0]?.uri.toString() ?? ''}`;
}

/**
 * One input's value, as its definition says: `pickString` picks one of its options, `command` runs the VS Code
 * command it names (with its args) and takes the text it returns, anything else (`promptString`) is typed.
 */
async function askInput(
  def: InputDefinition | undefined,
  ask: { title: string; prompt: string },
): Promise<string | undefined> {
  if (def?.type === 'pickString' && Array.isArray(def.options) && def.options.length) {
    const items = def.options.flatMap((o) => {
      const value = typeof o === 'string' ? o : o && typeof o.value === 'string' ? o.value : undefined;
      if (value === undefined) return [];
      const label = typeof o === 'object' && typeof o.label === 'string' ? o.label : value;
      return [{ label, description: label !== value ? value : undefined, value, picked: value === def.default }];
    });
    const picked = await vscode.window.showQuickPick(items, {
      title: ask.title,
      placeHolder: ask.prompt,
      ignoreFocusOut: true,
    });
    return picked?.value;
  }
  if (def?.type === 'command' && typeof def.command === 'string') {
    // A file names the command and its arguments, and a command runs outside any sandbox with the editor's powers
    // (a terminal's sendSequence types what it is given): it runs only when the user says so, shown as written.
    const args = def.args === undefined ? '' : ` with ${visibleLine(JSON.stringify(def.args)).slice(0, 500)}`;
    const RUN = 'Run Command';
    const choice = await vscode.window.showWarningMessage(
      `Run the VS Code command "${visibleLine(def.command)}"?`,
      {
        modal: true,
        detail: `${ask.prompt}\n\nThe server's configuration gets this value by running the command ${visibleLine(def.command)}${args}. A command can do anything the editor can: run it only if you know it.`,
      },
      RUN,
    );
    if (choice !== RUN) return undefined;
    const result: unknown = await vscode.commands.executeCommand(def.command, def.args);
    return typeof result === 'string' ? result : undefined;
  }
  return vscode.window.showInputBox({
    title: ask.title,
    prompt: ask.prompt,
    password: def?.password ?? true,
    value: def?.default ?? '',
    ignoreFocusOut: true,
  });
}
