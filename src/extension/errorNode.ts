import * as vscode from 'vscode';
import { failureText, type ServerInfo } from '../core/mcp/hub/serverHub';
import { summarizeError } from '../core/mcp/connection/errorLine';
import { markdownText } from '../shared/markdownText';
import type { Node } from './treeNode';

/**
 * A failed server's error row: the one line that explains it (the first error line of its stderr, or
 * the message), the failure and what happens next as the description, the full text in the tooltip.
 */
export function errorNode(info: ServerInfo): Extract<Node, { kind: 'message' }> {
  const state = info.state;
  if (state.kind !== 'error') throw new Error(`server "${info.name}" has no error`);
  const stderr = state.stderrTail || info.stderrTail;
  const summary = summarizeError(state.message, stderr);
  const detail = [summary.status, info.restartNote].filter(Boolean).join(' · ');
  const tooltip = new vscode.MarkdownString();
  tooltip.appendMarkdown(markdownText(failureText(info)));
  if (stderr) tooltip.appendMarkdown('\n\nstderr:').appendCodeblock(stderr, 'text');
  return {
    kind: 'message',
    id: `err:${info.name}`,
    label: summary.line,
    ...(detail ? { detail } : {}),
    icon: 'error',
    color: 'errorForeground',
    tooltip,
  };
}
