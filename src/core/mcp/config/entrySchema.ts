import { z } from 'zod';

const stringMap = z.record(z.string(), z.string());

/** A host a sandboxed server may reach: `example.com`, `*.example.com`, `localhost:8080`, `127.0.0.1:5432`. */
const DOMAIN =
  /^(\*\.)?[A-Za-z0-9]([A-Za-z0-9-]{0,62}[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]{0,62}[A-Za-z0-9])?)*(:\d{1,5})?$/;

function sandboxSchema() {
  const paths = z.array(z.string().min(1, 'must not be empty')).optional();
  return z
    .object({
      filesystem: z.object({ allowWrite: paths, denyRead: paths }).strict().optional(),
      network: z
        .object({
          allowedDomains: z
            .array(z.string().regex(DOMAIN, 'must be a host name, "*." and a domain, or either with ":port"'))
            .optional(),
        })
        .strict()
        .optional(),
    })
    .strict();
}

/** A `minagent.servers` entry as written, before its variables are expanded. */
export const entrySchema = z.object({
  type: z.enum(['stdio', 'http', 'sse']).optional(),
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
  // A stdio server in a sandbox: true (the defaults), false (never), or what it may write, must not
  // read and may reach. `sandboxEnabled` with `sandbox` is VS Code's shape in mcp.json.
  sandbox: z.union([z.boolean(), sandboxSchema()]).optional(),
  sandboxEnabled: z.boolean().optional(),
  // Where an entry added from an MCP registry came from: the registry, the server's name there and its version.
  registry: z
    .object({ url: z.string().max(2_048), name: z.string().max(200), version: z.string().max(255) })
    .strict()
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
    .strict()
    .optional(),
});
/** The fields an entry may have; any other is reported and ignored. */
export const KNOWN_FIELDS = new Set(Object.keys(entrySchema.shape));
