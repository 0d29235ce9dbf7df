import { readFileSync } from 'node:fs';
import { Agent, isErrorResult } from '../core/agent/agent';
import { FakeModel, parseScript, type ScriptedTurn } from '../core/agent/model';
import { describeProblem } from '../core/mcp/config';
import type { ParsedServers } from '../core/mcp/config';
import type { ServerHub } from '../core/mcp/hub';

export class UsageError extends Error {}

export interface Output {
  out(line: string): void;
}

/** `servers`: one line per server, configured ones first in settings order, then broken and disabled entries. */
export function serversCommand(hub: ServerHub, parsed: ParsedServers, io: Output): number {
  for (const s of hub.servers()) {
    const count = `${s.tools.length} tool${s.tools.length === 1 ? '' : 's'}`;
    const state = s.state;
    const line = state.kind === 'error' ? `${s.name}\terror\t${count}\t${state.message}` : `${s.name}\t${state.kind}\t${count}`;
    io.out(line);
  }
  const broken = new Map<string, string>();
  for (const p of parsed.problems) if (p.severity === 'error' && p.server && !broken.has(p.server)) broken.set(p.server, describeProblem(p));
  for (const [name, message] of broken) io.out(`${name}\terror\t0 tools\t${message}`);
  for (const name of parsed.disabled) io.out(`${name}\tstopped\t0 tools\tdisabled in settings`);
  return 0;
}

export function toolsCommand(hub: ServerHub, json: boolean, io: Output): number {
  const rows = hub.registry.list().map((t) => ({ name: t.name, wireName: hub.registry.wireName(t.name) ?? t.name, server: t.server ?? '', description: t.description }));
  if (json) {
    io.out(JSON.stringify(rows, null, 2));
    return 0;
  }
  for (const r of rows) io.out(`${r.name}\t${r.server}\t${r.description}`);
  return 0;
}

/** Checks `call` input before any server starts. */
export function parseCallInput(positionals: string[]): { name: string; args: Record<string, unknown> } {
  const [name, json] = positionals;
  if (!name) throw new UsageError('call needs a tool name: minagent call NAME [JSON]');
  let args: unknown = {};
  if (json !== undefined) {
    try {
      args = JSON.parse(json);
    } catch (err) {
      throw new UsageError(`arguments are not valid JSON: ${(err as Error).message}`);
    }
    if (typeof args !== 'object' || args === null || Array.isArray(args)) throw new UsageError('arguments must be a JSON object, e.g. {"text": "hi"}');
  }
  return { name, args: args as Record<string, unknown> };
}

export async function callCommand(hub: ServerHub, { name, args }: { name: string; args: Record<string, unknown> }, io: Output): Promise<number> {
  if (!hub.registry.resolve(name)) {
    const known = hub.registry.names();
    throw new UsageError(`unknown tool "${name}"; available tools: ${known.length ? known.join(', ') : '(none)'}`);
  }
  const result = await hub.registry.call(name, args);
  io.out(result);
  return isErrorResult(result) ? 1 : 0;
}

/** Checks `chat` input before any server starts. */
export function parseChatInput(positionals: string[], scriptPath: string | undefined): { prompt: string; script: ScriptedTurn[] } {
  const [prompt] = positionals;
  if (!prompt) throw new UsageError('chat needs a prompt: minagent chat "PROMPT" --script FILE');
  if (!scriptPath) throw new UsageError('chat needs --script FILE (a JSON array of scripted turns)');
  let script: unknown;
  try {
    script = JSON.parse(readFileSync(scriptPath, 'utf8'));
  } catch (err) {
    throw new UsageError(`cannot read script ${scriptPath}: ${(err as Error).message}`);
  }
  try {
    return { prompt, script: parseScript(script, scriptPath) };
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

export async function chatCommand(hub: ServerHub, { prompt, script }: { prompt: string; script: ScriptedTurn[] }, io: Output, signal: AbortSignal): Promise<number> {
  const model = new FakeModel(script);
  const agent = new Agent(model, hub.registry);
  const result = await agent.run(prompt, {
    signal,
    onEvent: (e) => {
      if (e.type === 'step') io.out(`[${e.step.index}] ${e.step.kind}: ${e.step.detail}`);
    },
  });
  return result.stopped ? 1 : 0;
}
