import * as vscode from 'vscode';
import { failureText, type ServerInfo } from '../core/mcp/hub/serverHub';
import { summarizeError } from '../core/mcp/connection/errorLine';
import { markdownText } from '../shared/markdownText';
import type { Node } from './treeNode';
import { noSandboxHeadline, type NoSandbox } from '../core/mcp/sandbox/namespaces';

/**
 * A failed server's error row: the one line that explains it (the first error line of its stderr, or
 * the message), the failure and what happens next as the description, the full text in the tooltip.
 */
export function errorNode(info: ServerInfo): Extract<Node, { kind: 'message' }> {
  const state = info.state;
  if (state.kind !== 'error') throw new Error(`server "${info.name}" has no error`);
  if (state.noSandbox) return noSandboxNode(info, state.noSandbox);
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

/**
 * A server this machine cannot sandbox: not a crash of the server, and no failed start to read. The row says the
 * machine's reason once, for this server; its tooltip says what the user can do (the server's menu has Run Without
 * Sandbox for a workspace's server, and its entry's sandbox settings).
 */
function noSandboxNode(info: ServerInfo, why: NoSandbox): Extract<Node, { kind: 'message' }> {
  const server = info.name;
  const off =
    info.sandbox?.reason === 'workspace'
      ? 'Run Without Sandbox, on its menu, starts it without one'
      : 'its entry\'s "sandbox": false starts it without one (Open Sandbox Settings, on its menu)';
  const tooltip = new vscode.MarkdownString();
  tooltip.appendMarkdown(`**"${markdownText(server)}" was not started: this machine cannot sandbox it.**\n\n`);
  tooltip.appendMarkdown(`${markdownText(why.reason)}.\n\n`);
  tooltip.appendMarkdown(`**What you can do:** ${markdownText(why.remedy)}. ${markdownText(off)}.`);
  return {
    kind: 'message',
    id: `err:${server}`,
    label: `No sandbox here: ${noSandboxHeadline(why)}`,
    detail: 'not started',
    icon: 'warning',
    color: 'editorWarning.foreground',
    tooltip,
  };
}
