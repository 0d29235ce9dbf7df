import type * as vscode from 'vscode';
import type { ConfigProblem } from '../core/mcp/config/serverConfig';
import type { EntryRef } from './settingsLocation';

/** A row of the Tools tree (serverTree.ts builds them; errorNode.ts and the commands read them). */
export type Node =
  | { kind: 'trust'; names: string[] }
  | { kind: 'waiting'; label: string; path: string; names: string[]; appeared?: true }
  | { kind: 'server'; name: string }
  | { kind: 'broken'; name: string; problem: ConfigProblem }
  | { kind: 'disabled'; name: string }
  | { kind: 'tool'; server: string; name: string }
  /** A running server's Skills row, and one skill of it by its SKILL.md URI (skillRows.ts). */
  | { kind: 'skills'; server: string }
  | { kind: 'skill'; server: string; uri: string }
  | {
      kind: 'message';
      id: string;
      label: string;
      detail?: string;
      icon: string;
      color?: string;
      tooltip?: vscode.MarkdownString;
      open?: EntryRef;
    }
  | { kind: 'action'; server: string; label: string; command: string; icon: string };
