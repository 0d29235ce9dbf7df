import type { CallToolResult } from '@modelcontextprotocol/client';
import { asToolResult } from './result';
import { schemaBounds } from './toolList';
import type { JsonSchema, Tool, ToolAnnotations } from '../../toolRegistry/toolRegistry';
import { failed } from '../../toolRegistry/toolResult';

/**
 * Tools a live app view offers (MCP Apps: an app that declares `tools` answers `tools/list` and `tools/call` from its
 * host). They are its server's words: each is checked and bounded here (a view that lists a hundred tools or a
 * megabyte of description cannot fill the model's context), named under its server, and offered to the model only
 * while the view lives. A call goes through the same approvals as any tool of that server.
 */

/** Tools one view may offer; the rest are said, not offered. */
export const MAX_TOOLS_PER_VIEW = 20;
/** A description's most characters (the rest is cut, saying so). */
export const MAX_DESCRIPTION_CHARS = 1_000;
/** An input schema's most characters as JSON; a larger one leaves its tool out. */
export const MAX_SCHEMA_CHARS = 16_000;
const NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** The view that offers the tools, as the host holds it. */
export interface AppToolView {
  /** The app's server (the tools are named under it, and approved as its tools). */
  server: string;
  /** The identity of the server's entry (approvals are bound to it). */
  serverIdentity?: string;
  /** The tool whose app the view is, for the approval card and errors. */
  appOf: string;
  /** The app's `ui://` resource (part of each tool's identity, so "always" is per app). */
  resourceUri: string;
  /** Calls the view's tool; rejects when the view is gone or does not answer in time. */
  call(name: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<CallToolResult>;
  /** Where a result is cut (the user's `maxOutputChars`). */
  maxChars(): number;
}

/** One checked tool of a view, before the hub names it. */
export interface AppToolDef {
  name: string;
  description: string;
  parameters: JsonSchema;
  title?: string;
  annotations?: ToolAnnotations;
}

/** A view's answer to `tools/list`, checked: the tools kept, and why any were not. */
export function checkAppTools(
  list: unknown,
  view: Pick<AppToolView, 'appOf' | 'server'>,
): {
  tools: AppToolDef[];
  problems: string[];
} {
  const who = `the app of tool "${view.appOf}" (server "${view.server}")`;
  const raw = (list as { tools?: unknown } | undefined)?.tools;
  if (!Array.isArray(raw)) return { tools: [], problems: [`${who} answered tools/list without a list of tools`] };
  const tools: AppToolDef[] = [];
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const [i, item] of raw.entries()) {
    const t = (typeof item === 'object' && item !== null ? item : {}) as Record<string, unknown>;
    const name = typeof t.name === 'string' ? t.name : '';
    const label = NAME.test(name) ? `"${name}"` : `#${i + 1}`;
    const skip = (why: string) => problems.push(`${who} offered tool ${label} ${why}; it was left out`);
    if (!NAME.test(name)) skip('without a name of letters, digits, "_" and "-" (at most 64)');
    else if (seen.has(name)) skip('twice');
    else if (tools.length >= MAX_TOOLS_PER_VIEW) skip(`past the first ${MAX_TOOLS_PER_VIEW}`);
    else {
      const schema = t.inputSchema;
      const bad =
        typeof schema !== 'object' || schema === null || Array.isArray(schema)
          ? 'without an inputSchema object'
          : (schemaBounds(schema) ?? (JSON.stringify(schema).length > MAX_SCHEMA_CHARS ? 'too large' : undefined));
      if (bad) skip(`with an inputSchema ${bad.replace(/^without an inputSchema /, 'that is not an ')}`);
      else {
        seen.add(name);
        tools.push({
          name,
          description: bounded(typeof t.description === 'string' ? t.description : ''),
          parameters: schema as JsonSchema,
          ...(typeof t.title === 'string' ? { title: t.title.slice(0, 200) } : {}),
          ...(isAnnotations(t.annotations) ? { annotations: t.annotations } : {}),
        });
      }
    }
  }
  return { tools, problems };
}

/**
 * The registry tool for a view's tool, named `name` on the view's `shelf` (`app`, `app2`): its calls go to the view,
 * its result is read as any tool result, and a call after the view closed fails saying so.
 */
export function appTool(def: AppToolDef, name: string, shelf: string, view: AppToolView, live: () => boolean): Tool {
  const from = `the app of tool "${view.appOf}"`;
  return {
    name,
    description: def.description,
    parameters: def.parameters,
    server: view.server,
    // Its identity for approvals and the call that runs: the view's place (`app`, `app2`), the app and the tool;
    // never a tool of the server itself, nor another live view's.
    remoteName: `${shelf}:${view.resourceUri}#${def.name}`,
    ...(view.serverIdentity !== undefined ? { serverIdentity: view.serverIdentity } : {}),
    ...(def.title !== undefined ? { title: def.title } : {}),
    ...(def.annotations ? { annotations: def.annotations } : {}),
    describeCall: () =>
      `"${def.name}" is a tool of ${from} of server "${view.server}", offered while that app is open in the chat`,
    call: async (args, options) => {
      if (!live()) return failed(`${from} that offered tool "${def.name}" was closed; nothing was run`);
      try {
        return asToolResult(await view.call(def.name, args, options?.signal), view.maxChars(), view.server);
      } catch (err) {
        if (options?.signal?.aborted) return failed('cancelled', 'cancelled');
        return failed(`${from} did not answer tool "${def.name}": ${err instanceof Error ? err.message : String(err)}`);
      }
    },
  };
}

function bounded(text: string): string {
  return text.length > MAX_DESCRIPTION_CHARS
    ? `${text.slice(0, MAX_DESCRIPTION_CHARS)}… [description cut at ${MAX_DESCRIPTION_CHARS} characters]`
    : text;
}

function isAnnotations(value: unknown): value is ToolAnnotations {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  return Object.entries(value).every(([k, v]) => (k === 'title' ? typeof v === 'string' : typeof v === 'boolean'));
}
