import { existsSync } from 'node:fs';
import * as vscode from 'vscode';
import type { FileEntry } from '../core/mcp/config/fileServers';
import type { ServerFile } from '../core/mcp/config/serverFiles';
import { visibleLine } from '../shared/visibleText';

/**
 * The workspace's MCP files that a sandboxed server may have written. A sandbox holds the files that exist read-only
 * (`.vscode`, which a sandboxed server's folder always has, `.mcp.json`, `.github`: protectedPaths.ts), but cannot
 * keep a server from making one that does not, short of leaving an empty file in the user's folder while it runs. So
 * `.mcp.json` or `.github/mcp.json`, absent when this window first read its configuration, that appears once a
 * sandboxed server of the workspace has run, starts nothing until the user says so (a server could otherwise start
 * another server, outside what the user looked at, with `${env:...}` values the sandbox keeps from it). Per window:
 * a new window reads what is there as the workspace's.
 */
export class AppearedFiles {
  private atStart: Set<string> | undefined;
  private allowed = new Set<string>();
  private sandboxRan = false;

  constructor(private readonly sandboxRunning: () => boolean) {}

  /** Before each read: what was there at the first one, and whether a sandboxed server has run since. */
  note(files: readonly ServerFile[]): void {
    this.atStart ??= new Set(files.filter((f) => existsSync(f.path)).map((f) => f.path));
    if (this.sandboxRunning()) this.sandboxRan = true;
  }

  heldBack(file: ServerFile): boolean {
    return (
      file.sandboxCanMake === true && this.sandboxRan && !this.atStart?.has(file.path) && !this.allowed.has(file.path)
    );
  }

  /** Asks whether the servers of a file that appeared start; true when the user said yes (for this window). */
  async ask(file: ServerFile, entries: readonly FileEntry[]): Promise<boolean> {
    const START = 'Start Servers';
    const choice = await vscode.window.showWarningMessage(
      `Start the servers of ${file.label}? It appeared while this workspace's sandboxed servers ran.`,
      {
        modal: true,
        detail: [
          `${file.path} was not there when this window opened; a sandboxed server may have written it. It lists:`,
          ...entries.map((e) => `• ${visibleLine(e.name)}: ${visibleLine(e.runs)}`),
          '',
          'Start them only if you or a tool you ran wrote this file.',
        ].join('\n'),
      },
      START,
    );
    if (choice !== START) return false;
    this.allowed.add(file.path);
    return true;
  }
}
