import type { Client } from '@modelcontextprotocol/client';
import { z } from 'zod';
import { checkIcons, type IconContext } from './icons';
import { checkItem, optionalString, type ListProblem } from './paging';
import type { Completion, CompletionRef, McpPrompt, McpPromptArgument, PromptResult } from './featureTypes';

export function parsePrompts(items: unknown[], icons: IconContext, problems: ListProblem[]): McpPrompt[] {
  const out: McpPrompt[] = [];
  const seen = new Set<string>();
  items.forEach((raw, i) => {
    const p = checkItem(raw, ['name'], 'prompt', icons.server, i, problems);
    if (!p) return;
    const name = p.name as string;
    if (seen.has(name)) {
      problems.push({
        server: icons.server,
        item: name,
        message: `server "${icons.server}" listed prompt "${name}" more than once; the later one was ignored`,
      });
      return;
    }
    seen.add(name);
    const title = optionalString(p, 'title');
    const description = optionalString(p, 'description');
    out.push({
      server: icons.server,
      remoteName: name,
      ...(title !== undefined ? { title } : {}),
      ...(description !== undefined ? { description } : {}),
      arguments: parseArguments(p.arguments, name, icons.server, problems),
      icons: checkIcons(p.icons, icons, `prompt "${name}"`, problems),
    });
  });
  return out;
}

function parseArguments(raw: unknown, prompt: string, server: string, problems: ListProblem[]): McpPromptArgument[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) {
    problems.push({
      server,
      item: prompt,
      message: `prompt "${prompt}" of server "${server}" has "arguments" that is not an array; it takes none`,
    });
    return [];
  }
  const args: McpPromptArgument[] = [];
  for (const a of raw) {
    if (typeof a !== 'object' || a === null || typeof (a as { name?: unknown }).name !== 'string') {
      problems.push({
        server,
        item: prompt,
        message: `prompt "${prompt}" of server "${server}" has an argument without a name; it was skipped`,
      });
      continue;
    }
    const arg = a as Record<string, unknown>;
    const description = optionalString(arg, 'description');
    args.push({
      name: arg.name as string,
      required: arg.required === true,
      ...(description !== undefined ? { description } : {}),
    });
  }
  return args;
}

const messageSchema = z.looseObject({
  role: z.enum(['user', 'assistant']),
  content: z.looseObject({ type: z.string() }),
});
const getSchema = z.looseObject({ description: z.string().optional(), messages: z.array(z.unknown()) });

/** `prompts/get`; messages the spec does not allow are dropped, the rest are kept as sent. */
export async function getPrompt(
  client: Client,
  server: string,
  name: string,
  args: Record<string, string>,
  timeoutMs: number,
): Promise<PromptResult> {
  const result = await client.request({ method: 'prompts/get', params: { name, arguments: args } }, getSchema, {
    timeout: timeoutMs,
  });
  const messages: PromptResult['messages'] = [];
  for (const m of result.messages) {
    const parsed = messageSchema.safeParse(m);
    if (parsed.success) messages.push(parsed.data as PromptResult['messages'][number]);
  }
  return { server, ...(result.description !== undefined ? { description: result.description } : {}), messages };
}

const MAX_COMPLETIONS = 100;
const completeSchema = z.looseObject({
  completion: z.looseObject({
    values: z.array(z.unknown()),
    total: z.number().optional(),
    hasMore: z.boolean().optional(),
  }),
});

/** `completion/complete` for a prompt argument or a template variable; at most 100 string values. */
export async function complete(
  client: Client,
  ref: CompletionRef,
  argument: { name: string; value: string },
  context: Record<string, string> | undefined,
  timeoutMs: number,
): Promise<Completion> {
  const result = await client.request(
    {
      method: 'completion/complete',
      params: { ref, argument, ...(context ? { context: { arguments: context } } : {}) },
    },
    completeSchema,
    { timeout: timeoutMs },
  );
  const c = result.completion;
  const values = c.values.filter((v): v is string => typeof v === 'string').slice(0, MAX_COMPLETIONS);
  return {
    values,
    ...(c.total !== undefined ? { total: c.total } : {}),
    ...(c.hasMore !== undefined ? { hasMore: c.hasMore } : {}),
  };
}

/** Prompt messages as plain text (for the CLI and for a model that takes only text). */
export function formatPromptMessages(result: PromptResult): string {
  return result.messages.map((m) => `${m.role}: ${describeContent(m.content)}`).join('\n\n');
}

export function describeContent(content: { type: string } & Record<string, unknown>): string {
  switch (content.type) {
    case 'text':
      return String(content.text ?? '');
    case 'image':
    case 'audio':
      return `[${content.type} ${String(content.mimeType ?? '')}]`;
    case 'resource': {
      const r = (content.resource ?? {}) as Record<string, unknown>;
      return typeof r.text === 'string'
        ? `[resource <${String(r.uri)}>]\n${r.text}`
        : `[resource <${String(r.uri)}>, binary]`;
    }
    case 'resource_link':
      return `[resource link: ${String(content.name ?? '')} <${String(content.uri)}>]`;
    default:
      return `[${content.type} content]`;
  }
}
