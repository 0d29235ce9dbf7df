/** What a server row shows of a server taken out of its sandbox (no `vscode` here: sandboxLook makes it the row). */
export interface UnsandboxedRow {
  /** The row's description, ending in "unsandboxed". */
  description: string;
  /** The running server's check mark becomes an unlock in the warning colour. */
  unlockIcon: boolean;
  /** Tooltip paragraphs: what it means, and how to undo it. */
  tooltip: string[];
}

/**
 * A workspace server the user chose Run Without Sandbox for stands apart from the others, as a
 * sandboxed one does with its lock: a running server's check mark becomes a warning-coloured unlock (one
 * with an icon of its own keeps it, and any row whose state has its own icon keeps that: an error stays
 * an error); every such row says `unsandboxed` after its description, and its tooltip says what the
 * server may do and how to put it back.
 */
export function unsandboxedRow(row: { description: string | undefined; checkMark: boolean }): UnsandboxedRow {
  return {
    description: row.description ? `${row.description} · unsandboxed` : 'unsandboxed',
    unlockIcon: row.checkMark,
    tooltip: [
      'Not sandboxed: you chose Run Without Sandbox for this server in this workspace.',
      "It reads your files (~/.ssh included), writes anywhere and reaches any host, as you can. Run in Sandbox, on its row's menu, puts it back.",
    ],
  };
}
