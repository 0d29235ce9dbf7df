import type { Client, Tool as RemoteTool } from '@modelcontextprotocol/client';
import { z } from 'zod';
import { checkIcons, type IconContext } from '../features/icons';
import type { ListProblem } from '../features/paging';
import { pageTtl, shorterTtl } from '../features/freshness';
import { appOfTool } from '../../apps/appMeta';

export interface ToolProblem {
  server: string;
  tool: string;
  message: string;
}

/** A server's tools as listed, what was wrong with them, and the list's TTL (freshness.ts) when it gave one. */
export interface ToolList {
  tools: RemoteTool[];
  problems: ToolProblem[];
  ttlMs?: number;
}

const pageSchema = z.looseObject({ tools: z.array(z.unknown()), nextCursor: z.string().optional() });
const MAX_PAGES = 200;

/**
 * Lists every page of a server's tools, tolerantly: one malformed tool is reported and the others
 * are kept (the SDK's strict parse would reject the whole list, so a single bad tool would hide
 * every tool of the server). A tool without a valid `inputSchema` gets an empty object schema.
 */
export async function listAllTools(client: Client, server: string, timeoutMs: number): Promise<ToolList> {
  const tools: RemoteTool[] = [];
  const problems: ToolProblem[] = [];
  const seenCursors = new Set<string>();
  let cursor: string | undefined;
  let ttlMs: number | undefined;
  const done = () => ({ tools, problems, ...(ttlMs !== undefined ? { ttlMs } : {}) });
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = await client.request(
      { method: 'tools/list', params: cursor !== undefined ? { cursor } : {} },
      pageSchema,
      { timeout: timeoutMs },
    );
    ttlMs = shorterTtl(ttlMs, pageTtl(result));
    result.tools.forEach((raw, i) => {
      const tool = adaptTool(raw, server, problems, `#${tools.length + i + 1}`);
      if (tool) tools.push(tool);
    });
    cursor = result.nextCursor;
    if (cursor === undefined) return done();
    if (seenCursors.has(cursor)) {
      problems.push({
        server,
        tool: '',
        message: `server "${server}" repeated the page cursor "${cursor}"; listing stopped at ${tools.length} tools`,
      });
      return done();
    }
    seenCursors.add(cursor);
  }
  problems.push({
    server,
    tool: '',
    message: `server "${server}" listed more than ${MAX_PAGES} pages of tools; listing stopped at ${tools.length} tools`,
  });
  return done();
}

/**
 * Every tool of a server (see listAllTools) with its icons checked: an icon of a type or origin not allowed is dropped
 * and reported.
 */
export async function listCheckedTools(
  client: Client,
  server: string,
  icons: IconContext,
  timeoutMs: number,
): Promise<ToolList> {
  const list = await listAllTools(client, server, timeoutMs);
  const { tools, problems } = list;
  const iconProblems: ListProblem[] = [];
  for (const t of tools) if ('icons' in t) t.icons = checkIcons(t.icons, icons, `tool "${t.name}"`, iconProblems);
  problems.push(...iconProblems.map((p) => ({ server: p.server, tool: p.item, message: p.message })));
  return list;
}

function adaptTool(raw: unknown, server: string, problems: ToolProblem[], position: string): RemoteTool | undefined {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    problems.push({
      server,
      tool: position,
      message: `server "${server}" listed tool ${position} that is not an object; it was skipped`,
    });
    return undefined;
  }
  const t = raw as Record<string, unknown>;
  if (typeof t.name !== 'string' || t.name.length === 0) {
    problems.push({
      server,
      tool: position,
      message: `server "${server}" listed tool ${position} without a name; it was skipped`,
    });
    return undefined;
  }
  const schema = t.inputSchema;
  const oversized = schemaBounds(schema);
  if (oversized) {
    problems.push({
      server,
      tool: t.name,
      message: `tool "${t.name}" of server "${server}" has an inputSchema ${oversized}; the tool was skipped`,
    });
    return undefined;
  }
  let inputSchema = schema as RemoteTool['inputSchema'];
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    problems.push({
      server,
      tool: t.name,
      message: `tool "${t.name}" of server "${server}" has ${schema === undefined ? 'no' : 'an invalid'} inputSchema; it takes no arguments`,
    });
    inputSchema = { type: 'object', properties: {} };
  } else if ((schema as { type?: unknown }).type !== 'object') {
    problems.push({
      server,
      tool: t.name,
      message: `tool "${t.name}" of server "${server}" has an inputSchema whose type is not "object"; it is sent as given`,
    });
  }
  const { problem } = appOfTool(t._meta);
  if (problem) problems.push({ server, tool: t.name, message: `tool "${t.name}" of server "${server}" ${problem}` });
  return {
    ...(t as object),
    name: t.name,
    description: typeof t.description === 'string' ? t.description : undefined,
    inputSchema,
  } as RemoteTool;
}

/** Deepest nesting and most values a tool's schema may have: real schemas stay far below both. */
export const SCHEMA_LIMITS = { depth: 64, nodes: 20_000 } as const;

/**
 * Says what is wrong when a schema is nested too deep or has too many values, else undefined.
 * Walks without recursion: a schema nested thousands deep must not overflow the stack here
 * (JSON.stringify would, when the schema is sent to a model).
 */
export function schemaBounds(schema: unknown): string | undefined {
  const stack: Array<[unknown, number]> = [[schema, 1]];
  let nodes = 0;
  while (stack.length) {
    const [value, depth] = stack.pop()!;
    if (typeof value !== 'object' || value === null) continue;
    if (depth > SCHEMA_LIMITS.depth) return `nested deeper than ${SCHEMA_LIMITS.depth} levels`;
    for (const child of Array.isArray(value) ? value : Object.values(value)) {
      if (++nodes > SCHEMA_LIMITS.nodes) return `with more than ${SCHEMA_LIMITS.nodes} values`;
      stack.push([child, depth + 1]);
    }
  }
  return undefined;
}
