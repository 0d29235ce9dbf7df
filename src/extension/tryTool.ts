import * as vscode from 'vscode';
import { isFailure } from '../core/toolRegistry/toolResult';
import type { ServerHub } from '../core/mcp/hub/serverHub';
import { checkArguments, exampleArguments } from '../core/toolRegistry/schema';
import type { Logger } from '../core/base/logger';
import { firstValueSelection, resultDocument } from '../core/tryToolText';
import type { ResultDocuments } from './resultDocuments';
import { duringTryTool } from './serverAsks/tryToolScope';
import { progressShare } from '../core/mcp/tools/progressShare';

/**
 * Calls a tool from the tree, as the MCP Inspector does: arguments as JSON, pre-filled from the
 * schema's required properties and checked against it before sending; the result opens in a read-only
 * document with the arguments and the duration.
 */
export async function tryTool(
  hub: ServerHub,
  name: string | undefined,
  results: ResultDocuments,
  log: Logger,
): Promise<void> {
  name ??= await pickTool(hub);
  if (!name) return;
  const tool = hub.registry.get(name);
  if (!tool) {
    void vscode.window.showErrorMessage(`MinAgent: tool "${name}" is no longer available.`);
    return;
  }
  const value = JSON.stringify(exampleArguments(tool.parameters));
  const json = await vscode.window.showInputBox({
    title: `Try ${tool.name}${tool.server ? ` (server ${tool.server})` : ''}`,
    prompt: 'Arguments as a JSON object',
    value,
    // The cursor inside the first value: typing fills it in instead of replacing the whole object.
    valueSelection: firstValueSelection(value),
    ignoreFocusOut: true,
    validateInput: (text) => argumentProblem(tool.parameters, text),
  });
  if (json === undefined) return;
  const args = JSON.parse(json) as Record<string, unknown>;
  log.info(`calling "${tool.name}"${tool.server ? ` of server "${tool.server}"` : ''}`);
  const started = Date.now();
  const result = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `Calling ${tool.name}`, cancellable: true },
    (progress, token) => {
      const controller = new AbortController();
      token.onCancellationRequested(() => controller.abort());
      const share = progressShare();
      // A server's form during this call is asked in quick inputs, here, not in the chat.
      return duringTryTool(tool.server, () =>
        hub.registry.result(tool.name, args, {
          signal: controller.signal,
          onProgress: (p) => {
            const increment = share(p);
            progress.report({
              message: p.message ?? (p.total ? `${p.progress}/${p.total}` : String(p.progress)),
              ...(increment !== undefined ? { increment } : {}),
            });
          },
        }),
      );
    },
  );
  const ms = Date.now() - started;
  const error = isFailure(result);
  if (error) log.warn(`"${tool.name}" returned an error after ${ms} ms`);
  else log.info(`"${tool.name}" answered after ${ms} ms`);
  await results.open(
    `${tool.name}${tool.server ? ` · ${tool.server}` : ''}`,
    resultDocument({
      tool: tool.name,
      ...(tool.server ? { server: tool.server } : {}),
      ...(tool.app ? { app: tool.app } : {}),
      args,
      durationMs: ms,
      result: result.text,
      error,
    }),
  );
  if (error) void vscode.window.showWarningMessage(`MinAgent: ${tool.name} returned an error after ${ms} ms.`);
}

/** The tools with their server and description, so `echo` and `analytics.echo` can be told apart. */
async function pickTool(hub: ServerHub): Promise<string | undefined> {
  const items = hub.registry.list().map((t) => ({
    label: t.name,
    description: t.server ? `server ${t.server}` : 'built in',
    detail: t.description.split('\n')[0],
  }));
  return (
    await vscode.window.showQuickPick(items, {
      title: 'MinAgent: Try Tool',
      placeHolder: 'Tool to call',
      matchOnDescription: true,
      matchOnDetail: true,
    })
  )?.label;
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
