import { z } from 'zod';
import { stripUnsafe } from '../../shared/serverText';

/**
 * A `server.json` document of an MCP registry (schema 2025-12-11), as MinAgent reads it: everything
 * in it was written by whoever published it, so each field is bounded and checked here, once, before
 * anything shows it or turns it into a command. Fields MinAgent does not use are dropped.
 */

/** The longest text kept of a field meant for people (a description, a title). */
const TEXT = 2_000;
/** The most items of any list in a document (packages, arguments, variables, headers, choices). */
const ITEMS = 64;

const text = (max = TEXT) => z.string().max(max);
const list = <T extends z.ZodType>(item: T) => z.array(item).max(ITEMS);

/** What the user may be asked for: a variable, an argument's value, an environment variable, a header. */
const inputFields = {
  description: text().optional(),
  isRequired: z.boolean().optional(),
  format: z.enum(['string', 'number', 'boolean', 'filepath']).optional(),
  value: text().optional(),
  isSecret: z.boolean().optional(),
  default: text().optional(),
  placeholder: text(200).optional(),
  choices: list(text(200)).optional(),
};
const input = z.object(inputFields);
export type Input = z.infer<typeof input>;
const withVariables = {
  ...inputFields,
  variables: z
    .record(z.string().max(100), input)
    .refine((v) => Object.keys(v).length <= ITEMS, 'too many variables')
    .optional(),
};

const positional = z
  .object({
    ...withVariables,
    type: z.literal('positional'),
    valueHint: text(100).optional(),
    isRepeated: z.boolean().optional(),
  })
  .refine(
    (a) => a.value !== undefined || a.valueHint !== undefined,
    'a positional argument needs a value or a valueHint',
  );
const named = z.object({
  ...withVariables,
  type: z.literal('named'),
  name: text(100),
  isRepeated: z.boolean().optional(),
});
const argument = z.union([positional, named]);
export type Argument = z.infer<typeof argument>;
const keyValue = z.object({ ...withVariables, name: text(200) });
export type KeyValueInput = z.infer<typeof keyValue>;

const remoteTransport = z.object({
  type: z.enum(['streamable-http', 'sse']),
  url: text(2_048),
  headers: list(keyValue).optional(),
  variables: z.record(z.string().max(100), input).optional(),
});
export type Remote = z.infer<typeof remoteTransport>;

const pkg = z.object({
  registryType: text(40),
  registryBaseUrl: text(2_048).optional(),
  identifier: text(500),
  version: text(255).optional(),
  fileSha256: z
    .string()
    .regex(/^[a-f0-9]{64}$/)
    .optional(),
  runtimeHint: text(100).optional(),
  transport: z.union([z.object({ type: z.literal('stdio') }), remoteTransport]),
  runtimeArguments: list(argument).optional(),
  packageArguments: list(argument).optional(),
  environmentVariables: list(keyValue).optional(),
});
export type Package = z.infer<typeof pkg>;

/** A reverse-DNS name with one slash (`io.github.user/weather`). */
export const SERVER_NAME = /^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/;

const serverJson = z.object({
  name: z.string().min(3).max(200).regex(SERVER_NAME, 'must be a reverse-DNS name with one slash'),
  title: text(200).optional(),
  description: text(),
  version: z.string().min(1).max(255),
  websiteUrl: text(2_048).optional(),
  repository: z.object({ url: text(2_048), source: text(100).optional(), subfolder: text(500).optional() }).optional(),
  packages: list(pkg).optional(),
  remotes: list(remoteTransport).optional(),
});
export type ServerJson = z.infer<typeof serverJson>;

/** What a registry says about a version beside the document (its `_meta`). */
export interface RegistryMeta {
  status?: string;
  publishedAt?: string;
  updatedAt?: string;
  isLatest?: boolean;
}

/** One server of a registry's answer: the document and the registry's own words about it. */
export interface RegistryServer {
  server: ServerJson;
  meta: RegistryMeta;
}

const OFFICIAL_META = 'io.modelcontextprotocol.registry/official';

/**
 * A registry's `{ server, _meta }` item, checked; what is wrong is thrown naming the field, so one
 * bad document is reported and skipped without hiding the rest of a page.
 */
export function parseRegistryServer(item: unknown): RegistryServer {
  const outer = z.object({ server: z.unknown(), _meta: z.record(z.string(), z.unknown()).optional() }).safeParse(item);
  if (!outer.success) throw new Error('not a { server, _meta } item');
  const server = parseServerJson(outer.data.server);
  const official = outer.data._meta?.[OFFICIAL_META];
  const meta = z
    .object({
      status: text(40).optional(),
      publishedAt: text(40).optional(),
      updatedAt: text(40).optional(),
      isLatest: z.boolean().optional(),
    })
    .safeParse(official ?? {});
  return { server, meta: meta.success ? meta.data : {} };
}

/** A `server.json` document, checked against the schema's rules and MinAgent's bounds. */
export function parseServerJson(value: unknown): ServerJson {
  const parsed = serverJson.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const name =
    value && typeof value === 'object' && typeof (value as { name?: unknown }).name === 'string'
      ? ` "${registryText((value as { name: string }).name, 100)}"`
      : '';
  throw new Error(`server${name}: ${issue.path.join('.') || '(document)'}: ${issue.message}`);
}

/**
 * Registry text for people (a title, a description, a tooltip): control characters, bidirectional
 * overrides and zero-width marks removed, whitespace runs made one space, at most `max` characters.
 */
export function registryText(value: string, max = 300): string {
  // Control and bidirectional characters as the project drops them from server text (stripUnsafe), and zero-width
  // marks.
  const cleaned = stripUnsafe(value)
    .replace(/[\u200b-\u200d\u2060-\u2065\ufeff]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  return cleaned.length > max ? `${cleaned.slice(0, max - 1)}…` : cleaned;
}
