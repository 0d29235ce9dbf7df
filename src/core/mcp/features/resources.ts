import { UriTemplate, type Client } from '@modelcontextprotocol/client';
import { z } from 'zod';
import { checkIcons, type IconContext } from './icons';
import { checkItem, optionalString, type ListProblem } from './paging';
import type {
  FeatureError,
  McpResource,
  McpResourceTemplate,
  ReadResourceResult,
  ResourceContent,
} from './featureTypes';
import { base64Bytes, truncate } from '../../base/text';

/** Most characters of text kept from one read (a server may send tens of megabytes). */
export const MAX_READ_TEXT_CHARS = 1_000_000;
/** Most base64 characters of binary kept from one read (enough for an image preview). */
export const MAX_READ_BLOB_CHARS = 16 * 1024 * 1024;

export function parseResources(items: unknown[], icons: IconContext, problems: ListProblem[]): McpResource[] {
  const out: McpResource[] = [];
  const seen = new Set<string>();
  items.forEach((raw, i) => {
    const r = checkItem(raw, ['uri', 'name'], 'resource', icons.server, i, problems);
    if (!r) return;
    const uri = r.uri as string;
    if (seen.has(uri)) {
      problems.push({
        server: icons.server,
        item: uri,
        message: `server "${icons.server}" listed resource <${uri}> more than once; the later one was ignored`,
      });
      return;
    }
    seen.add(uri);
    out.push({
      server: icons.server,
      uri,
      name: r.name as string,
      ...described(r),
      ...(typeof r.size === 'number' && r.size >= 0 ? { size: r.size } : {}),
      icons: checkIcons(r.icons, icons, `resource <${uri}>`, problems),
    });
  });
  return out;
}

export function parseTemplates(items: unknown[], icons: IconContext, problems: ListProblem[]): McpResourceTemplate[] {
  const out: McpResourceTemplate[] = [];
  const seen = new Set<string>();
  items.forEach((raw, i) => {
    const t = checkItem(raw, ['uriTemplate', 'name'], 'resource template', icons.server, i, problems);
    if (!t) return;
    if (seen.has(t.uriTemplate as string)) {
      problems.push({
        server: icons.server,
        item: t.uriTemplate as string,
        message: `server "${icons.server}" listed resource template <${t.uriTemplate as string}> more than once; the later one was ignored`,
      });
      return;
    }
    seen.add(t.uriTemplate as string);
    let variables: string[];
    try {
      variables = new UriTemplate(t.uriTemplate as string).variableNames;
    } catch (err) {
      problems.push({
        server: icons.server,
        item: t.name as string,
        message: `resource template "${t.name as string}" of server "${icons.server}" is not a valid URI template (${(err as Error).message}); it was skipped`,
      });
      return;
    }
    out.push({
      server: icons.server,
      uriTemplate: t.uriTemplate as string,
      name: t.name as string,
      ...described(t),
      variables,
      icons: checkIcons(t.icons, icons, `resource template "${t.name as string}"`, problems),
    });
  });
  return out;
}

function described(item: Record<string, unknown>): { title?: string; description?: string; mimeType?: string } {
  const title = optionalString(item, 'title');
  const description = optionalString(item, 'description');
  const mimeType = optionalString(item, 'mimeType');
  return {
    ...(title !== undefined ? { title } : {}),
    ...(description !== undefined ? { description } : {}),
    ...(mimeType !== undefined ? { mimeType } : {}),
  };
}

/** Fills an RFC 6570 template (the SDK's own implementation); a missing variable or a bad template is an error. */
export function expandTemplate(uriTemplate: string, variables: Record<string, unknown>): string | FeatureError {
  let template: UriTemplate;
  try {
    template = new UriTemplate(uriTemplate);
  } catch (err) {
    return { error: `"${uriTemplate}" is not a valid URI template: ${(err as Error).message}` };
  }
  const values: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(variables)) {
    if (typeof v === 'string') values[k] = v;
    else if (typeof v === 'number' || typeof v === 'boolean') values[k] = String(v);
    else if (Array.isArray(v) && v.every((x) => typeof x === 'string')) values[k] = v as string[];
    else return { error: `variable "${k}" of template "${uriTemplate}" must be a string` };
  }
  const missing = template.variableNames.filter((n) => values[n] === undefined);
  if (missing.length) return { error: `template "${uriTemplate}" needs ${missing.map((m) => `"${m}"`).join(', ')}` };
  try {
    return template.expand(values);
  } catch (err) {
    return { error: `cannot expand "${uriTemplate}": ${(err as Error).message}` };
  }
}

const contentSchema = z.looseObject({
  uri: z.string(),
  mimeType: z.string().optional(),
  text: z.string().optional(),
  blob: z.string().optional(),
  _meta: z.unknown().optional(),
});
/** The largest `_meta` of a part kept (as JSON). */
const MAX_META_CHARS = 16 * 1024;
const readSchema = z.looseObject({ contents: z.array(z.unknown()) });

/** `resources/read`, its parts capped; a part that is neither text nor blob is dropped. */
export async function readResource(
  client: Client,
  server: string,
  uri: string,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<ReadResourceResult> {
  const result = await client.request({ method: 'resources/read', params: { uri } }, readSchema, {
    timeout: timeoutMs,
    ...(signal ? { signal } : {}),
  });
  const contents: ResourceContent[] = [];
  for (const raw of result.contents) {
    const parsed = contentSchema.safeParse(raw);
    if (!parsed.success) continue;
    contents.push(capContent(parsed.data));
  }
  return { server, uri, contents };
}

function capContent(c: {
  uri: string;
  mimeType?: string | undefined;
  text?: string | undefined;
  blob?: string | undefined;
  _meta?: unknown;
}): ResourceContent {
  const meta = smallObject(c._meta);
  const base = { uri: c.uri, ...(c.mimeType !== undefined ? { mimeType: c.mimeType } : {}), ...(meta ? { meta } : {}) };
  if (typeof c.text === 'string') {
    const size = Buffer.byteLength(c.text);
    if (c.text.length <= MAX_READ_TEXT_CHARS) return { ...base, text: c.text, size };
    return {
      ...base,
      text: c.text.slice(0, MAX_READ_TEXT_CHARS),
      size,
      truncated: { kept: MAX_READ_TEXT_CHARS, total: c.text.length },
    };
  }
  const blob = c.blob ?? '';
  const size = base64Bytes(blob);
  if (blob.length <= MAX_READ_BLOB_CHARS) return { ...base, blob, size };
  return { ...base, size, truncated: { kept: 0, total: blob.length } };
}

function smallObject(v: unknown): Record<string, unknown> | undefined {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return undefined;
  const json = JSON.stringify(v);
  return json.length <= MAX_META_CHARS ? (JSON.parse(json) as Record<string, unknown>) : undefined;
}

/**
 * A read as the model sees it: each text part with its URI and type, binary parts as a size note, cut at `maxChars`.
 */
export function formatReadResult(result: ReadResourceResult, maxChars: number): string {
  if (!result.contents.length) return `[resource <${result.uri}> of server "${result.server}" has no contents]`;
  const parts = result.contents.map((c) => {
    const head = `[resource <${c.uri}>${c.mimeType ? ` (${c.mimeType})` : ''} from server "${result.server}"`;
    if (c.text !== undefined)
      return `${head}]\n${c.text}${c.truncated ? `\n…[cut: ${c.truncated.kept} of ${c.truncated.total} characters kept]` : ''}`;
    return `${head}, ${c.size} bytes of binary data]`;
  });
  return truncate(parts.join('\n'), maxChars);
}
