import { describeNetwork, type SandboxPolicy } from '../core/mcp/sandbox/policy';
import { readFileSync } from 'node:fs';
import { Agent } from '../core/agent/agent';
import type { ApprovalRequest } from '../core/agentTypes/events';
import { isFailure } from '../core/toolRegistry/toolResult';
import { APPROVE_MODES } from './approve';
import { parseScript, type ChatModel } from '../core/agent/model';
import { createModel, DEFAULT_BASE_URLS, KEY_ENV, type ProviderSpec } from '../core/models/factory';
import type { CliArgs } from './args';
import { describeProblem } from '../core/mcp/config/describe';
import type { ParsedServers } from '../core/mcp/config/serverConfig';
import { failureText, type ServerHub } from '../core/mcp/hub/serverHub';
import { isTaskProgress } from '../core/mcp/tasks/taskHandle';
import { table, terminalLine } from './terminalText';
import type { ToolVisibility } from '../core/toolRegistry/toolTypes';
import { forApp, forModel, type Tool } from '../core/toolRegistry/toolRegistry';
import { ToolIndex } from '../core/toolSearch/toolIndex';
import { offerOptions, ToolOffer } from '../core/toolSearch/toolOffer';
import { allFailed, couldHaveBeen, failedServers, failureLines, type FailedServer } from './failures';
import type { ProgressLine } from './progressLine';

/** Bad flags or arguments: exit 2. */
export class UsageError extends Error {}
/** A tool, resource or prompt that no running server has: exit 1. */
export class NotFound extends Error {}

export interface Output {
  out(line: string): void;
  /** A line on stderr (failed servers). */
  err(line: string): void;
  /** A tool's progress, on a terminal only (src/cli/progressLine.ts). */
  progress?: ProgressLine;
  /** Stdout is a terminal: a table's columns are padded to line up (else tab-separated, for scripts). */
  aligned?: boolean;
}

/** A table on stdout: lined up on a terminal, tab-separated elsewhere (terminalText's `table`). */
export function printTable(io: Output, rows: string[][]): void {
  for (const line of table(rows, io.aligned ?? false)) io.out(line);
}

/** `servers`: one line per server, configured ones first in settings order, then broken and disabled entries. */
export function serversCommand(hub: ServerHub, parsed: ParsedServers, io: Output): number {
  const rows: string[][] = [];
  for (const s of hub.servers()) {
    const count = `${s.tools.length} tool${s.tools.length === 1 ? '' : 's'}`;
    const state = s.state;
    // Where the entry is, when not the settings file (an MCP file), and where else the name is defined.
    const from = [
      ...(s.config.origin ? [`from ${s.config.origin}`] : []),
      ...(s.config.alsoIn?.length ? [`also in ${s.config.alsoIn.join(', ')}, not used`] : []),
    ].join('; ');
    rows.push(
      (state.kind === 'error'
        ? [s.name, 'error', count, failureText(s)]
        : state.kind === 'signIn'
          ? [s.name, 'sign in', count, state.message]
          : [s.name, state.kind, count, ...(s.sandbox ? [sandboxNote(s.sandbox)] : [])]
      ).concat(from ? [terminalLine(from)] : []),
    );
  }
  const broken = new Map<string, string>();
  for (const p of parsed.problems)
    if (p.severity === 'error' && p.server && !broken.has(p.server)) broken.set(p.server, describeProblem(p));
  for (const [name, message] of broken) rows.push([name, 'error', '0 tools', message]);
  for (const name of parsed.disabled) rows.push([name, 'stopped', '0 tools', 'disabled in settings']);
  printTable(io, rows);
  return allFailed(hub, failedServers(hub, parsed)) ? 1 : 0;
}

/** Names the failed servers on stderr; the exit code of a list command: 1 when every server failed. */
export function listStatus(hub: ServerHub, failed: readonly FailedServer[], io: Output): number {
  for (const line of failureLines(failed)) io.err(line);
  return allFailed(hub, failed) ? 1 : 0;
}

export function toolsCommand(hub: ServerHub, json: boolean, io: Output, failed: readonly FailedServer[]): number {
  const rows = hub.registry.list().map((t) => ({
    name: t.name,
    wireName: hub.registry.wireName(t.name) ?? t.name,
    server: t.server ?? '',
    description: t.description,
    parameters: t.parameters,
    ...(t.app ? { app: t.app } : {}),
    // Who may call it, in the spec's words, when its server said: ["app"] is never offered to a model.
    ...(t.visibility ? { visibility: visibilityList(t.visibility) } : {}),
    offeredToModel: forModel(t),
  }));
  if (json) io.out(JSON.stringify({ tools: rows, failed }, null, 2));
  else
    printTable(
      io,
      hub.registry.list().map((t) => [t.name, t.server ?? '', [t.description, appNote(t)].filter(Boolean).join(' ')]),
    );
  return listStatus(hub, failed, io);
}

/** `NAME [JSON]` positionals: the name (required, `usage` says how) and the parsed JSON, if any. */
export function parseNameAndJson(positionals: string[], usage: string): { name: string; json: unknown } {
  const [name, text] = positionals;
  if (!name) throw new UsageError(usage);
  if (text === undefined) return { name, json: {} };
  try {
    return { name, json: JSON.parse(text) as unknown };
  } catch (err) {
    throw new UsageError(`arguments are not valid JSON: ${(err as Error).message}`);
  }
}

/** Checks `call` input before any server starts. */
export function parseCallInput(positionals: string[]): { name: string; args: Record<string, unknown> } {
  const { name, json: args } = parseNameAndJson(positionals, 'call needs a tool name: minagent call NAME [JSON]');
  if (typeof args !== 'object' || args === null || Array.isArray(args))
    throw new UsageError('arguments must be a JSON object, e.g. {"text": "hi"}');
  return { name, args: args as Record<string, unknown> };
}

export async function callCommand(
  hub: ServerHub,
  { name, args }: { name: string; args: Record<string, unknown> },
  io: Output,
  failed: readonly FailedServer[] = [],
  signal?: AbortSignal,
): Promise<number> {
  if (!hub.registry.resolve(name)) {
    const known = hub.registry.names();
    throw new NotFound(
      `unknown tool "${name}"; available tools: ${known.length ? known.join(', ') : '(none)'}${couldHaveBeen(name, failed, 'tools')}`,
    );
  }
  // The progress line is erased by the result's own write (terminalText's onBeforeWrite).
  let last: string | undefined;
  const result = await hub.registry.result(name, args, {
    onProgress: (p) => {
      last = p.message;
      io.progress?.update(name, p);
    },
    ...(signal ? { signal } : {}),
  });
  io.out(result.text);
  // Stopped (Ctrl+C) while the call ran as a task: where it stood, and that its server was asked to cancel it.
  if (signal?.aborted && last && isTaskProgress(last))
    io.err(terminalLine(`stopped while ${last}; the server was asked to cancel the task (tasks/cancel)`));
  const tool = hub.registry.get(hub.registry.resolve(name)!);
  // The app is shown by an editor; here its place is named (on stderr: stdout stays the result alone).
  if (tool?.app) io.err(terminalLine(`the tool has an app, not shown here: ${appNote(tool)}`));
  return isFailure(result) ? 1 : 0;
}

/** Where a tool's app is and who may call it, in a line of the CLI's output; empty for a plain tool. */
function appNote(tool: Tool): string {
  const who = tool.leftOutByEntry
    ? 'not offered to the model: its entry\'s "tools" list leaves it out'
    : !forModel(tool)
      ? forApp(tool)
        ? 'called by apps only'
        : 'called by neither the model nor apps'
      : !forApp(tool)
        ? 'not called by apps'
        : '';
  const parts = [...(tool.app ? [`app: ${tool.app.resourceUri}`] : []), ...(who ? [who] : [])];
  return parts.length ? `[${parts.join(', ')}]` : '';
}

function visibilityList(v: ToolVisibility): string[] {
  return [...(v.model ? ['model'] : []), ...(v.app ? ['app'] : [])];
}

/** Checks `chat` input before any server starts: a prompt, and a script or a provider. */
export function parseChatInput(
  args: CliArgs,
  env: NodeJS.ProcessEnv = process.env,
): { prompt: string; model: ProviderSpec } {
  const [prompt] = args.positionals;
  if (!prompt)
    throw new UsageError(
      'chat needs a prompt: minagent chat "PROMPT" (--script FILE | --provider openai|anthropic --model NAME)',
    );
  if (args.script !== undefined) {
    let script: unknown;
    try {
      script = JSON.parse(readFileSync(args.script, 'utf8'));
    } catch (err) {
      throw new UsageError(`cannot read script ${args.script}: ${(err as Error).message}`);
    }
    try {
      return { prompt, model: { provider: 'scripted', script: parseScript(script, args.script) } };
    } catch (err) {
      throw new UsageError((err as Error).message);
    }
  }
  const provider = args.provider;
  if (provider === undefined)
    throw new UsageError('chat needs --script FILE (a JSON array of scripted turns) or --provider openai|anthropic');
  if (provider !== 'openai' && provider !== 'anthropic')
    throw new UsageError(`unknown provider "${provider}"; use openai or anthropic`);
  if (!args.model) throw new UsageError(`--provider ${provider} needs --model NAME`);
  const baseUrl = args.baseUrl ?? DEFAULT_BASE_URLS[provider];
  try {
    new URL(baseUrl);
  } catch {
    throw new UsageError(`--base-url "${baseUrl}" is not a valid URL`);
  }
  if (args.sendImages && provider !== 'openai')
    throw new UsageError('--send-images is for --provider openai (anthropic models always get the images)');
  const window = Number(args.contextWindow);
  if (args.contextWindow !== undefined && !(Number.isInteger(window) && window > 0))
    throw new UsageError(`--context-window "${args.contextWindow}" must be a whole number of tokens`);
  const apiKey = env[KEY_ENV[provider]];
  const common = {
    baseUrl,
    model: args.model,
    ...(apiKey ? { apiKey } : {}),
    ...(args.contextWindow !== undefined ? { contextWindow: window } : {}),
  };
  return {
    prompt,
    model: provider === 'openai' ? { provider, ...common, sendImages: args.sendImages } : { provider, ...common },
  };
}

/** Checks `--approve` before any server starts. */
export function parseApproveFlag(args: CliArgs): void {
  if (args.approve !== undefined && !['ask', ...APPROVE_MODES].includes(args.approve))
    throw new UsageError(`unknown --approve "${args.approve}"; use ask, all, readonly or none`);
  if (args.yes && args.approve !== undefined && args.approve !== 'all')
    throw new UsageError(`--yes and --approve ${args.approve} contradict each other`);
}

export async function chatCommand(
  hub: ServerHub,
  { prompt, model, instance }: { prompt: string; model: ProviderSpec; instance?: ChatModel },
  io: Output,
  signal: AbortSignal,
  log: (line: string) => void,
  approve: (req: ApprovalRequest, signal?: AbortSignal) => Promise<boolean>,
): Promise<number> {
  // Deferred past their share of the window, as in the editor: search_tools finds the rest.
  const index = new ToolIndex(hub.registry, (server) => hub.catalog.serverInstructions(server));
  const offer = new ToolOffer({ registry: hub.registry, index });
  const agent = new Agent(instance ?? createModel(model), hub.registry, {
    approve,
    instructions: () => hub.catalog.instructions(),
    ...offerOptions(offer),
  });
  // A tool's progress on the terminal's one line (io.progress), under the name the step will show.
  const toolNames = new Map<string, string>();
  const result = await agent.run(prompt, {
    signal,
    onEvent: (e) => {
      if (e.type === 'tool_start') toolNames.set(e.callId, e.name);
      if (e.type === 'tool_progress') io.progress?.update(toolNames.get(e.callId) ?? 'a tool', e);
      if (e.type === 'step') io.out(`[${e.step.index}] ${e.step.kind}: ${e.step.detail}`);
      if (e.type === 'notice') log(e.message);
    },
  });
  index.dispose();
  // Nothing reached the model: said like any step that ended the run.
  if (result.notSent !== undefined) io.out(`[${result.steps.length}] error: not sent: ${result.notSent}`);
  return result.stopped ? 1 : 0;
}

/** A sandboxed server's fourth field: what it may write and reach. */
function sandboxNote(p: SandboxPolicy): string {
  return `sandboxed: writes ${p.allowWrite.join(', ')}; network: ${describeNetwork(p)}`;
}
