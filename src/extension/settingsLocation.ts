import * as vscode from 'vscode';
import { locateEntry, locateServers, type EntryLocation, type ServersKey } from '../core/entryLocation';
import { toolServerFiles, workspaceServerFiles } from '../core/mcp/config/serverFiles';

/** VS Code's user folder of this profile (its `mcp.json` is there), once activation knows it. */
let profileDir: string | undefined;

/** Where this profile's `mcp.json` is looked for when an entry is opened. */
export function useProfileDir(dir: string | undefined): void {
  profileDir = dir;
}

/** A server entry to open, and the field at fault if a problem names one. */
export interface EntryRef {
  server: string;
  field?: string;
}

/** An argument from a tree node, a notification or the palette, checked before use. */
export function entryRef(arg: unknown): EntryRef | undefined {
  const a = arg as { server?: unknown; name?: unknown; field?: unknown; kind?: unknown } | undefined;
  const server =
    typeof a?.server === 'string' ? a.server : a?.kind === 'server' && typeof a.name === 'string' ? a.name : undefined;
  if (!server) return undefined;
  return { server, ...(typeof a?.field === 'string' && a.field ? { field: a.field } : {}) };
}

type Target =
  | { scope: 'workspace'; uri: vscode.Uri; where: ServersKey }
  | { scope: 'user' }
  | { scope: 'file'; uri: vscode.Uri; where: ServersKey };

function servers(value: unknown): Record<string, unknown> {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** The workspace's settings file: the folder's `.vscode/settings.json`, or a `.code-workspace` file's "settings". */
export function workspaceSettingsFile(inFolder: boolean): { uri: vscode.Uri; workspaceFile: boolean } | undefined {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const file = vscode.workspace.workspaceFile;
  if (!inFolder && file?.scheme === 'file') return { uri: file, workspaceFile: true };
  return folder ? { uri: vscode.Uri.joinPath(folder, '.vscode', 'settings.json'), workspaceFile: false } : undefined;
}

function workspaceTarget(inFolder: boolean): Target | undefined {
  const file = workspaceSettingsFile(inFolder);
  return (
    file && {
      scope: 'workspace',
      uri: file.uri,
      where: file.workspaceFile ? { kind: 'settings', workspaceFile: true } : { kind: 'settings' },
    }
  );
}

/**
 * Which file defines server `name`: workspace settings win over user settings, as MinAgent reads them; then the MCP
 * files.
 */
async function targetOf(name: string): Promise<Target | undefined> {
  const inspected = vscode.workspace.getConfiguration('minagent').inspect<unknown>('servers');
  if (name in servers(inspected?.workspaceFolderValue)) return workspaceTarget(true);
  if (name in servers(inspected?.workspaceValue)) return workspaceTarget(false);
  if (name in servers(inspected?.globalValue)) return { scope: 'user' };
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const files = [
    ...(folder?.scheme === 'file' ? workspaceServerFiles(folder.fsPath) : []),
    ...toolServerFiles(profileDir),
  ];
  for (const file of files) {
    const uri = vscode.Uri.file(file.path);
    const text = await readText(uri);
    if (text === undefined) continue;
    for (const key of ['servers', 'mcpServers'] as const) {
      const where: ServersKey = { kind: 'mcp', key };
      if (locateEntry(text, where, name)) return { scope: 'file', uri, where };
    }
  }
  return undefined;
}

async function readText(uri: vscode.Uri): Promise<string | undefined> {
  try {
    return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  } catch {
    return undefined;
  }
}

/** Opens a target's file (VS Code's own command for user settings, which lives where only it knows). */
async function openTarget(target: Target): Promise<{ editor: vscode.TextEditor; where: ServersKey } | undefined> {
  if (target.scope === 'user') {
    await vscode.commands.executeCommand('workbench.action.openSettingsJson');
    const editor = vscode.window.activeTextEditor;
    return editor ? { editor, where: { kind: 'settings' } } : undefined;
  }
  if (target.scope === 'workspace' && (await readText(target.uri)) === undefined) {
    // VS Code creates the workspace settings file itself.
    await vscode.commands.executeCommand('workbench.action.openWorkspaceSettingsFile');
    const editor = vscode.window.activeTextEditor;
    return editor ? { editor, where: target.where } : undefined;
  }
  const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(target.uri), {
    preview: false,
  });
  return { editor, where: target.where };
}

function select(editor: vscode.TextEditor, loc: EntryLocation | undefined): void {
  if (!loc) return;
  const doc = editor.document;
  const range = new vscode.Range(doc.positionAt(loc.offset), doc.positionAt(loc.offset + loc.length));
  editor.selection = new vscode.Selection(range.start, range.end);
  editor.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
}

/** Opens the settings or MCP file that defines a server, with the entry (or its field at fault) selected. */
export async function openServerEntry(ref: EntryRef): Promise<void> {
  const target = await targetOf(ref.server);
  if (!target) {
    void vscode.window.showWarningMessage(`MinAgent: no settings file defines server "${ref.server}".`);
    return;
  }
  const opened = await openTarget(target);
  if (opened)
    select(opened.editor, locateEntry(opened.editor.document.getText(), opened.where, ref.server, ref.field ?? ''));
}

/**
 * Opens the settings file where the servers are: the workspace's when it lists any (or when neither
 * does and a folder is open), else the user's; at `minagent.servers` when it is there.
 */
export async function openServersSettings(): Promise<void> {
  const inspected = vscode.workspace.getConfiguration('minagent').inspect<unknown>('servers');
  const inWorkspace =
    Object.keys(servers(inspected?.workspaceFolderValue)).length +
      Object.keys(servers(inspected?.workspaceValue)).length >
    0;
  const inUser = Object.keys(servers(inspected?.globalValue)).length > 0;
  const target =
    inWorkspace || !inUser
      ? (workspaceTarget(Object.keys(servers(inspected?.workspaceFolderValue)).length > 0) ?? {
          scope: 'user' as const,
        })
      : { scope: 'user' as const };
  const opened = await openTarget(target);
  if (opened) select(opened.editor, locateServers(opened.editor.document.getText(), opened.where));
}
