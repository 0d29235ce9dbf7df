import * as vscode from 'vscode';
import { parseSettingsText } from '../core/base/jsonc';

/**
 * `minagent.*` settings as an untrusted workspace may see them: the user's own values only. Every
 * one is also listed in package.json's `restrictedConfigurations`, so VS Code hides workspace
 * values itself; reading `inspect().globalValue` keeps that true whatever VS Code does.
 */
export function setting<T>(key: string, fallback: T): T {
  const config = vscode.workspace.getConfiguration('minagent');
  if (vscode.workspace.isTrusted) return config.get<T>(key, fallback);
  const inspected = config.inspect<T>(key);
  return inspected?.globalValue ?? inspected?.defaultValue ?? fallback;
}

/** The `minagent.*` keys the workspace's settings files set (VS Code hides their values when untrusted). */
export async function workspaceMinagentKeys(): Promise<string[]> {
  const files: Array<{ uri: vscode.Uri; codeWorkspace: boolean }> = (vscode.workspace.workspaceFolders ?? []).map(
    (f) => ({ uri: vscode.Uri.joinPath(f.uri, '.vscode', 'settings.json'), codeWorkspace: false }),
  );
  const workspaceFile = vscode.workspace.workspaceFile;
  if (workspaceFile?.scheme === 'file') files.push({ uri: workspaceFile, codeWorkspace: true });
  const keys = new Set<string>();
  for (const { uri, codeWorkspace } of files) {
    const settings = await readJsonc(uri);
    // A .code-workspace file keeps its settings under "settings".
    const scope = codeWorkspace ? ((settings.settings as Record<string, unknown> | undefined) ?? {}) : settings;
    for (const [k, v] of Object.entries(scope)) {
      if (k.startsWith('minagent.')) keys.add(k);
      else if (k === 'minagent' && v && typeof v === 'object')
        for (const inner of Object.keys(v)) keys.add(`minagent.${inner}`);
    }
  }
  return [...keys].sort();
}

/** A workspace settings file as an object; a missing or broken file is empty (VS Code reports those). */
export async function readJsonc(uri: vscode.Uri): Promise<Record<string, unknown>> {
  try {
    return parseSettingsText(new TextDecoder().decode(await vscode.workspace.fs.readFile(uri)), uri.fsPath);
  } catch {
    return {};
  }
}

/** One line for the UI: which workspace settings an untrusted window ignores; undefined when none. */
export function ignoredNotice(keys: readonly string[]): string | undefined {
  if (!keys.length) return undefined;
  return `This workspace is not trusted, so its settings ${keys.join(', ')} are ignored: MinAgent uses your user settings. Trust the workspace to apply them.`;
}
