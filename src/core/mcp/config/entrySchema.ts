import { z } from 'zod';

const stringMap = z.record(z.string(), z.string());

/** A host a sandboxed server may reach: `example.com`, `*.example.com`, `localhost:8080`, `127.0.0.1:5432`. */
const DOMAIN =
  /^(\*\.)?[A-Za-z0-9]([A-Za-z0-9-]{0,62}[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]{0,62}[A-Za-z0-9])?)*(:\d{1,5})?$/;

function sandboxSchema() {
  const paths = z.array(z.string().min(1, 'must not be empty')).optional();
  const hosts = z
    .array(z.string().regex(DOMAIN, 'must be a host name, "*." and a domain, or either with ":port"'))
    .optional();
  return z.object({
    filesystem: z.object({ allowWrite: paths, denyRead: paths, denyWrite: paths }).optional(),
    network: z.object({ allowedDomains: hosts, deniedDomains: hosts }).optional(),
  });
}

/** A `minagent.servers` entry as written, before its variables are expanded. */
export const entrySchema = z.object({
  // `local` is the portable (Copilot) format's name for stdio.
  type: z.enum(['stdio', 'local', 'http', 'sse']).optional(),
  command: z.string().min(1, 'must not be empty').optional(),
  args: z.array(z.string()).optional(),
  env: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])).optional(),
  envFile: z.string().optional(),
  cwd: z.string().optional(),
  url: z.string().optional(),
  headers: stringMap.optional(),
  namespace: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,32}$/, 'must be 1-32 letters, digits, "_" or "-"')
    .optional(),
  disabled: z.boolean().optional(),
  timeout: z.number().int().positive().optional(),
  autoApprove: z.array(z.string()).optional(),
  trusted: z.boolean().optional(),
  instructions: z.boolean().optional(),
  apps: z.boolean().optional(),
  // The portable format's tool filter: the names offered to the model (`"*"`: all of them).
  tools: z.array(z.string()).optional(),
  // VS Code's development mode: restart the server when these files change (`debug` is reported, not run).
  dev: z
    .object({
      watch: z.union([z.string(), z.array(z.string())]).optional(),
      debug: z.object({ type: z.string(), debugpyPath: z.string().optional() }).optional(),
    })
    .optional(),
  // What VS Code writes for a server installed from its gallery: where from, and the version.
  gallery: z.union([z.string(), z.boolean()]).optional(),
  version: z.string().optional(),
  // A stdio server in a sandbox: true (the defaults), false (never), or what it may write, must not
  // read and may reach. `sandboxEnabled` with `sandbox` is VS Code's shape in mcp.json.
  sandbox: z.union([z.boolean(), sandboxSchema()]).optional(),
  sandboxEnabled: z.boolean().optional(),
  // Where an entry added from an MCP registry came from: the registry, the server's name there and its version.
  registry: z
    .object({ url: z.string().max(2_048), name: z.string().max(200), version: z.string().max(255) })
    .optional(),
  oauth: z
    .object({
      clientId: z.string().trim().min(1, 'must not be empty'),
      clientSecret: z.string().min(1, 'must not be empty').optional(),
      issuer: z
        .string()
        .url("must be the authorization server's issuer URL")
        .refine(
          (u) => /^https:\/\//.test(u) || /^http:\/\/(127\.\d+\.\d+\.\d+|localhost|\[::1\])(:\d+)?(\/|$)/.test(u),
          'must be https (http only on this machine)',
        )
        .optional(),
    })
    .optional(),
});
/** The fields an entry may have; any other is reported and ignored. */
export const KNOWN_FIELDS = new Set(Object.keys(entrySchema.shape));

/**
 * The fields of the entry's objects, by path: a key not listed is reported by name and ignored, never the entry lost.
 */
const NESTED_FIELDS: Record<string, readonly string[]> = {
  sandbox: ['filesystem', 'network'],
  'sandbox.filesystem': ['allowWrite', 'denyRead', 'denyWrite'],
  'sandbox.network': ['allowedDomains', 'deniedDomains'],
  dev: ['watch', 'debug'],
  'dev.debug': ['type', 'debugpyPath'],
  oauth: ['clientId', 'clientSecret', 'issuer'],
  registry: ['url', 'name', 'version'],
};

/** The keys of an entry (and of its known objects) that MinAgent does not know, as dotted paths. */
export function unknownFields(entry: Record<string, unknown>): string[] {
  const unknown = Object.keys(entry).filter((k) => !KNOWN_FIELDS.has(k));
  const walk = (value: unknown, path: string) => {
    const known = NESTED_FIELDS[path];
    if (!known || typeof value !== 'object' || value === null || Array.isArray(value)) return;
    for (const [k, v] of Object.entries(value)) {
      if (known.includes(k)) walk(v, `${path}.${k}`);
      else unknown.push(`${path}.${k}`);
    }
  };
  for (const path of Object.keys(NESTED_FIELDS)) if (!path.includes('.')) walk(entry[path], path);
  return unknown;
}
