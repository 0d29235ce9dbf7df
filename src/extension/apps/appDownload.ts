import type { ReadResourceResult } from '@modelcontextprotocol/client';
import * as vscode from 'vscode';
import { downloadFiles } from '../../core/apps/appDownloads';
import type { Logger } from '../../core/base/logger';

/**
 * An app's `ui/download-file`: each file is confirmed first (what app, what file, how large), then saved where the user
 * picks in their own save dialog. Nothing is written without both; the app hears only whether it was saved.
 */
export async function saveAppFiles(
  who: { tool: string; server: string },
  contents: readonly unknown[],
  read: (uri: string) => Promise<ReadResourceResult>,
  log: Logger,
): Promise<boolean> {
  const app = `The app of tool "${who.tool}" (server "${who.server}")`;
  const got = await downloadFiles(contents, read);
  if ('error' in got) {
    log.warn(`${app} asked to save files, refused: ${got.error}`);
    void vscode.window.showWarningMessage(`${app} asked to save a file, which was refused: ${got.error}`);
    return false;
  }
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  for (const file of got.files) {
    const size = file.bytes.length.toLocaleString('en');
    const choice = await vscode.window.showInformationMessage(
      `${app} wants to save a file: "${file.name}"`,
      {
        modal: true,
        detail: `${size} bytes${file.mimeType ? `, ${file.mimeType}` : ''}. You choose where it goes next; nothing is saved unless you do.`,
      },
      'Save As…',
    );
    if (choice !== 'Save As…') {
      log.info(`${app}: saving "${file.name}" declined`);
      return false;
    }
    const target = await vscode.window.showSaveDialog({
      title: `Save "${file.name}" from the app of tool "${who.tool}"`,
      ...(folder ? { defaultUri: vscode.Uri.joinPath(folder, file.name) } : {}),
    });
    if (!target) return false;
    try {
      await vscode.workspace.fs.writeFile(target, file.bytes);
    } catch (err) {
      void vscode.window.showErrorMessage(`Saving "${file.name}" failed: ${(err as Error).message}`);
      return false;
    }
    log.info(`${app}: saved "${file.name}" (${size} bytes) as ${target.toString(true)}`);
  }
  return true;
}
