import * as vscode from 'vscode';
import { approvalsDigest, fileEntry, type FileEntry, type WaitingFile } from '../core/mcp/config/fileServers';
import { readServerFile, toolServerFiles, type ServerFile } from '../core/mcp/config/serverFiles';
import { visibleLine } from '../shared/visibleText';

/** What the user confirmed, by file path: that its servers start, and which pre-approvals of it count. */
const KEY = 'minagent.userFiles.confirmed';

interface Confirmed {
  at: string;
  /** The digest of the file's pre-approvals the user let count (`approvalsDigest`); absent: none count. */
  approvals?: string;
}

/**
 * Another tool's MCP file in the user's profile (VS Code's `mcp.json`, Copilot's `mcp-config.json`): the user wrote
 * it for that tool, or a program did on the user's behalf. Its servers start in MinAgent once the user confirms the
 * file (one question per file, remembered in the user's global state), and what its entries pre-approve
 * (`autoApprove`, `trusted`) counts only when the user chose that too, for exactly those pre-approvals: a changed
 * list is ignored again until confirmed.
 */
export class UserFileConsent {
  private asking = new Map<string, Promise<boolean>>();

  constructor(private readonly state: vscode.Memento) {}

  confirmed(file: ServerFile): boolean {
    return this.all()[file.path] !== undefined;
  }

  /** Whether the pre-approvals with this digest were confirmed for the file. */
  vouched(file: ServerFile, digest: string): boolean {
    return this.all()[file.path]?.approvals === digest;
  }

  /**
   * Asks whether the file's servers start (and, when its entries pre-approve tools, whether that counts); true when
   * the user said yes. One question at a time per file.
   */
  ask(file: ServerFile, entries: readonly FileEntry[]): Promise<boolean> {
    let pending = this.asking.get(file.path);
    if (!pending) {
      pending = this.question(file, entries).finally(() => this.asking.delete(file.path));
      this.asking.set(file.path, pending);
    }
    return pending;
  }

  private async question(file: ServerFile, entries: readonly FileEntry[]): Promise<boolean> {
    const approving = entries.filter((e) => e.approvals);
    const START = 'Start Servers';
    const WITH = 'Start, and Let Their Approvals Count';
    const lines = entries.map((e) => `• ${visibleLine(e.name)}: ${visibleLine(e.runs)}`);
    const detail = [
      `${file.label} (${file.path}) lists ${entries.length === 1 ? 'this server' : 'these servers'}:`,
      ...lines,
      '',
      'They run as you do, with your files and network. MinAgent asks once for this file.',
      ...(approving.length
        ? [
            '',
            `Their entries also approve tools in advance (${approving.map((e) => `${visibleLine(e.name)}: ${visibleLine(e.approvals!)}`).join('; ')}). That counts only if you choose "${WITH}"; otherwise each call asks.`,
          ]
        : []),
    ].join('\n');
    const choice = await vscode.window.showWarningMessage(
      `Start the MCP servers of ${file.label}?`,
      { modal: true, detail },
      START,
      ...(approving.length ? [WITH] : []),
    );
    if (choice !== START && choice !== WITH) return false;
    await this.state.update(KEY, {
      ...this.all(),
      [file.path]: {
        at: new Date().toISOString(),
        ...(choice === WITH ? { approvals: approvalsDigest(entries) } : {}),
      },
    });
    return true;
  }

  private all(): Record<string, Confirmed> {
    const v = this.state.get<unknown>(KEY);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, Confirmed>) : {};
  }
}

/**
 * "MinAgent: Review Servers of Other Tools": asks about one file (from its row or notice) or a file picked among the
 * user's files of other tools that list servers, then reads the configuration again.
 */
export function registerReviewCommand(
  consent: UserFileConsent,
  userDir: string | undefined,
  reload: () => Promise<void>,
  appeared: { waiting(): WaitingFile[]; ask(w: WaitingFile): Promise<boolean> },
): vscode.Disposable {
  return vscode.commands.registerCommand('minagent.reviewUserFile', async (path?: unknown) => {
    // A workspace file that appeared while sandboxed servers ran: asked about as that.
    const held = appeared.waiting().find((w) => w.file.path === path);
    if (held) {
      if (await appeared.ask(held)) await reload();
      return;
    }
    const listed = [];
    for (const file of toolServerFiles(userDir)) {
      const found = await readServerFile(file).catch(() => undefined);
      const entries = Object.entries(found?.servers ?? {}).map(([name, e]) => fileEntry(name, e));
      if (entries.length) listed.push({ file, entries });
    }
    let chosen = typeof path === 'string' ? listed.find((l) => l.file.path === path) : undefined;
    if (!chosen && listed.length === 1 && path === undefined) chosen = listed[0];
    if (!chosen && path === undefined && listed.length > 1)
      chosen = (
        await vscode.window.showQuickPick(
          listed.map((l) => ({
            label: l.file.label,
            description: l.entries.map((e) => e.name).join(', '),
            detail: consent.confirmed(l.file) ? 'started in MinAgent' : 'not started in MinAgent',
            l,
          })),
          { title: 'MinAgent: which MCP file of another tool?' },
        )
      )?.l;
    if (!chosen) {
      if (!listed.length)
        void vscode.window.showInformationMessage(
          "MinAgent: no MCP file of another tool lists servers (VS Code's user mcp.json, ~/.copilot/mcp-config.json).",
        );
      return;
    }
    if (await consent.ask(chosen.file, chosen.entries)) await reload();
  });
}
