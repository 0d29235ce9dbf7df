import * as vscode from 'vscode';
import { editServerEntry } from '../core/settingsEdit';
import { workspaceSettingsFile } from './settingsLocation';

/** How long a written entry is waited for in the configuration VS Code reads (it watches the file). */
const SETTLE_MS = 3_000;
const BOM = '\uFEFF';

/**
 * Sets (or, with `undefined`, removes) the `minagent.servers` entry `name` in the user's or the
 * workspace's settings. The workspace's file is edited in place, that entry alone (editServerEntry):
 * VS Code's configuration update writes the whole `minagent.servers` value anew, so adding then
 * removing a server reformatted every other entry and dropped the comments inside. User settings, whose
 * file only VS Code knows (profiles, remotes), and the cases VS Code handles itself (a file not there
 * yet, unsaved changes in it, JSONC it cannot read) go through its configuration update.
 */
export async function writeServerSetting(
  scope: 'user' | 'workspace',
  name: string,
  entry: Record<string, unknown> | undefined,
): Promise<void> {
  if (scope === 'workspace' && (await editWorkspaceFile(name, entry))) return;
  const config = vscode.workspace.getConfiguration('minagent');
  const inspected = config.inspect<Record<string, unknown>>('servers');
  const current = (scope === 'user' ? inspected?.globalValue : inspected?.workspaceValue) ?? {};
  await config.update(
    'servers',
    replacedInPlace(current, name, entry),
    scope === 'user' ? vscode.ConfigurationTarget.Global : vscode.ConfigurationTarget.Workspace,
  );
}

/** True when the workspace's settings file was edited; false to leave it to VS Code. */
async function editWorkspaceFile(name: string, entry: Record<string, unknown> | undefined): Promise<boolean> {
  // An untitled multi-root workspace keeps its settings where only VS Code writes.
  if (vscode.workspace.workspaceFile && vscode.workspace.workspaceFile.scheme !== 'file') return false;
  const file = workspaceSettingsFile(false);
  if (!file || vscode.workspace.textDocuments.some((d) => d.isDirty && d.uri.toString() === file.uri.toString()))
    return false;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(await vscode.workspace.fs.readFile(file.uri));
  } catch {
    return false;
  }
  const bom = text.startsWith(BOM) ? BOM : '';
  let edited: string;
  try {
    edited =
      bom +
      editServerEntry(text.slice(bom.length), name, entry, {
        path: file.uri.fsPath,
        under: file.workspaceFile ? ['settings'] : [],
      });
  } catch {
    return false;
  }
  // Nothing to change here (the entry is not in this file): VS Code's update, which knows where it is.
  if (edited === text) return false;
  const settled = configurationChange();
  await vscode.workspace.fs.writeFile(file.uri, new TextEncoder().encode(edited));
  await settled;
  return true;
}

/**
 * Resolves when VS Code has read `minagent.servers` again (or after SETTLE_MS), as its own update resolves once it has.
 */
function configurationChange(): Promise<void> {
  return new Promise((resolve) => {
    const done = () => (clearTimeout(timer), listener.dispose(), resolve());
    const timer = setTimeout(done, SETTLE_MS);
    const listener = vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('minagent.servers')) done();
    });
  });
}

/**
 * The servers with `name` set where it is (an update keeps the entry's place, so the tree's order stays), added last,
 * or removed.
 */
export function replacedInPlace(
  servers: Record<string, unknown>,
  name: string,
  entry: Record<string, unknown> | undefined,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(servers)) {
    if (key !== name) out[key] = value;
    else if (entry !== undefined) out[key] = entry;
  }
  if (entry !== undefined && !(name in servers)) out[name] = entry;
  return out;
}
