import type * as vscode from 'vscode';
import type { ConfigProblem } from '../core/mcp/config/serverConfig';
import type { EntryRef } from './settingsLocation';

/** The entry a configuration problem is about, and its field. */
export function problemRef(problem: ConfigProblem): EntryRef {
  return { server: problem.server, ...(problem.field ? { field: problem.field } : {}) };
}

/** A tree row's click: open the file that defines the server, at the entry (or the field at fault). */
export function openEntryCommand(ref: EntryRef): vscode.Command {
  return { command: 'minagent.openServerEntry', title: 'Open Settings', arguments: [ref] };
}
