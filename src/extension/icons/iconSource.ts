import type * as vscode from 'vscode';
import type { SafeIcon } from '../../core/toolRegistry/toolTypes';

/** Where views get the icon files of servers, tools and resources (checked and kept by IconFiles). */
export interface IconSource {
  path(icons: readonly SafeIcon[] | undefined): vscode.Uri | undefined;
  onDidLoad(listener: () => void): { dispose(): void };
}
