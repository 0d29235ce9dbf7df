import * as vscode from 'vscode';
import { isErrorResult } from '../core/agent/agent';
import type { ServerHub } from '../core/mcp/hub';
import { checkArguments, exampleArguments } from '../core/schema';
import { duringTryTool } from './serverAsks/tryToolScope';

/**
 * Calls a tool from the tree, as the MCP Inspector does: arguments as JSON, pre-filled from the
 * schema's required properties and checked against it before sending; the result opens in an editor.
 */
export async function tryTool(hub: ServerHub, name: string | undefined): Promise<void> {
  name ??= (await vscode.window.showQuickPick(hub.registry.names(), { title: 'MinAgent: Try Tool', placeHolder: 'Tool to call' })) ?? undefined;
  if (!name) return;
  const tool = hub.registry.get(name);
  if (!tool) {
    void vscode.window.showErrorMessage(`MinAgent: tool "${name}" is no longer available.`);
    return;
  }
  const json = await vscode.window.showInputBox({
    title: `Try ${tool.name}${tool.server ? ` (server ${tool.server})` : ''}`,
    prompt: 'Arguments as a JSON object',
    value: JSON.stringify(exampleArguments(tool.parameters)),
    ignoreFocusOut: true,
    validateInput: (text) => argumentProblem(tool.parameters, text),
  });
  if (json === undefined) return;
  const args = JSON.parse(json) as Record<string, unknown>;
  const started = Date.now();
  const result = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `Calling ${tool.name}`, cancellable: true },
    (progress, token) => {
      const controller = new AbortController();
      token.onCancellationRequested(() => controller.abort());
      // A server's form during this call is asked in quick inputs, here, not in the chat.
      return duringTryTool(tool.server, () =>
        hub.registry.call(tool.name, args, {
          signal: controller.signal,
          onProgress: (p) => progress.report({ message: p.message ?? (p.total ? `${p.progress}/${p.total}` : String(p.progress)) }),
        }),
      );
    },
  );
  const doc = await vscode.workspace.openTextDocument({ content: result, language: looksLikeJson(result) ? 'json' : 'markdown' });
  await vscode.window.showTextDocument(doc, { preview: false });
  const ms = Date.now() - started;
  if (isErrorResult(result)) void vscode.window.showWarningMessage(`MinAgent: ${tool.name} returned an error after ${ms} ms.`);
}

function argumentProblem(schema: Record<string, unknown>, text: string): string | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return `Not valid JSON: ${(err as Error).message}`;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'Arguments must be a JSON object';
  const problem = checkArguments(schema, value);
  return problem ? `Does not match the tool's schema: ${problem}` : undefined;
}

function looksLikeJson(text: string): boolean {
  const t = text.trim();
  if (!(t.startsWith('{') || t.startsWith('['))) return false;
  try {
    JSON.parse(t);
    return true;
  } catch {
    return false;
  }
}
