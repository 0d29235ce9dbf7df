import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, resolve } from 'node:path';
import { parseEnv } from 'node:util';
import { z } from 'zod';
import { Redactor } from '../../redact';
import { CONFLICT_POLICIES, type ConflictPolicy } from '../tools/naming';
import { reachesInto, readEnvFile, readEnvFileSync } from './workspacePaths';

/** One server entry after validation and variable expansion. */
export type ServerConfig = StdioServerConfig | HttpServerConfig;

interface ServerConfigBase {
  name: string;
  namespace?: string;
  /** Per-call timeout in ms for this server's tools. */
  timeoutMs?: number;
  autoApprove: string[];
  /**
   * `trusted: true`: the user vouches for this server, so its read-only tools run even after the
   * model read other servers' results. Counts only from user settings (see trustedByUser).
   */
  trusted?: true;
  /** `false` keeps the server's instructions out of the model's system prompt (default: they reach it, bounded). */
  instructions?: false;
  /** Where the entry came from, e.g. `user settings`, `workspace settings` or `.vscode/mcp.json`. */
  origin?: string;
  /**
   * Values that must never become text: what `${input:}` and `${env:}` put into the entry, env-file
   * values and header values (see Redactor; short ones are left out there).
   */
  secrets?: string[];
}

export interface StdioServerConfig extends ServerConfigBase {
  type: 'stdio';
  command: string;
  args: string[];
  /** Only the entry's own variables (expanded); the inherited environment is merged at spawn time. */
  env: Record<string, string>;
  cwd: string;
}

export interface HttpServerConfig extends ServerConfigBase {
  type: 'http' | 'sse';
  url: string;
  headers: Record<string, string>;
  /** A client pre-registered with the server's authorization server (first in the spec's order). */
  /** `issuer`: the authorization server the secret belongs to; the secret never goes to another. */
  oauth?: { clientId: string; clientSecret?: string; issuer?: string };
}

export interface ConfigProblem {
  server: string;
  /** The field at fault, e.g. `command` or `env.TOKEN`; empty for the entry as a whole. */
  field: string;
  message: string;
  severity: 'error' | 'warning';
}

export interface ParsedServers {
  /** Valid, enabled servers in settings order. */
  servers: ServerConfig[];
  /** Entries switched off with `disabled: true`. */
  disabled: string[];
  problems: ConfigProblem[];
}

export interface VariableContext {
  /** What `${workspaceFolder}` means: the first folder of the workspace. */
  workspaceFolder?: string;
  /** Every folder of the workspace (several in a multi-root workspace); trust applies to all of them. */
  workspaceFolders?: readonly string[];
  userHome?: string;
  env?: NodeJS.ProcessEnv;
  /** Resolves `${input:ID}` for a server; absent means inputs are not supported in this source. */
  input?: (id: string, server: string) => string | undefined;
  /**
   * Env files read ahead by `readEnvFiles` (resolved path -> text, or why it could not be read), so
   * parsing never blocks the extension host on the disk. Absent: files are read while parsing.
   */
  envFiles?: ReadonlyMap<string, string | Error>;
  /**
   * The workspace is not trusted: a server never runs inside any of its folders (the default cwd is
   * the user's home) and no env file there is read, since a repository could plant `node_modules`,
   * `.npmrc`, Python modules or variables there. "There" includes every path that passes through a
   * link inside a folder: the repository decides where its links point (see reachesInto).
   */
  untrusted?: boolean;
}

const stringMap = z.record(z.string(), z.string());
const entrySchema = z.object({
  type: z.enum(['stdio', 'http', 'sse']).optional(),
  command: z.string().min(1, 'must not be empty').optional(),
  args: z.array(z.string()).optional(),
  env: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])).optional(),
  envFile: z.string().optional(),
  cwd: z.string().optional(),
  url: z.string().optional(),
  headers: stringMap.optional(),
  namespace: z.string().regex(/^[A-Za-z0-9_-]{1,32}$/, 'must be 1-32 letters, digits, "_" or "-"').optional(),
  disabled: z.boolean().optional(),
  timeout: z.number().int().positive().optional(),
  autoApprove: z.array(z.string()).optional(),
  trusted: z.boolean().optional(),
  instructions: z.boolean().optional(),
  oauth: z
    .object({
      clientId: z.string().trim().min(1, 'must not be empty'),
      clientSecret: z.string().min(1, 'must not be empty').optional(),
      issuer: z.string().url('must be the authorization server\'s issuer URL').refine((u) => /^https:\/\//.test(u) || /^http:\/\/(127\.\d+\.\d+\.\d+|localhost|\[::1\])(:\d+)?(\/|$)/.test(u), 'must be https (http only on this machine)').optional(),
    })
    .strict()
    .optional(),
});
const KNOWN_FIELDS = new Set(Object.keys(entrySchema.shape));

/**
 * Parses a `minagent.servers` object. A bad entry becomes a problem that names the server and the
 * field, and every other entry is still returned.
 */
/** An absolute path that exists on this machine (a folder or file the user named, not a credential). */
function isMachinePath(value: string): boolean {
  return isAbsolute(value) && !/[\0\n]/.test(value) && existsSync(value);
}

export function parseServers(raw: unknown, ctx: VariableContext = {}, origin?: string): ParsedServers {
  const result: ParsedServers = { servers: [], disabled: [], problems: [] };
  if (raw === undefined || raw === null) return result;
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    result.problems.push({ server: '', field: 'minagent.servers', message: 'must be an object keyed by server name', severity: 'error' });
    return result;
  }
  for (const [name, value] of Object.entries(raw as Record<string, unknown>)) {
    const parsed = parseEntry(name, value, ctx, result.problems);
    if (parsed === 'disabled') result.disabled.push(name);
    else if (parsed) result.servers.push(origin ? { ...parsed, origin } : parsed);
  }
  return result;
}

function parseEntry(name: string, value: unknown, ctx: VariableContext, problems: ConfigProblem[]): ServerConfig | 'disabled' | undefined {
  const fail = (field: string, message: string) => {
    problems.push({ server: name, field, message, severity: 'error' });
    return undefined;
  };
  if (!/^[^\s.][^.]*$/.test(name) || name.trim() !== name) return fail('', `server name "${name}" must not be empty, contain dots, or start or end with spaces`);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return fail('', 'must be an object');

  for (const key of Object.keys(value)) {
    if (!KNOWN_FIELDS.has(key)) problems.push({ server: name, field: key, message: `unknown field "${key}" is ignored`, severity: 'warning' });
  }
  const checked = entrySchema.safeParse(value);
  if (!checked.success) {
    const issue = checked.error.issues[0]!;
    return fail(issue.path.join('.'), issue.message);
  }
  const e = checked.data;
  if (e.disabled) return 'disabled';

  const errors: ConfigProblem[] = [];
  const secrets = new Set<string>();
  // The home and workspace folders are shown anyway (as `${userHome}`, in paths); they are not secrets,
  // and neither is any other folder or file of this machine named by its absolute path: redacting one
  // would break what servers name by it (resource URIs, file paths read back from a result).
  const known = new Set([ctx.userHome ?? homedir(), ...folders(ctx)]);
  const notSecret = (value: string) => known.has(value) || isMachinePath(value);
  const serverCtx: VariableContext = { ...ctx, ...(ctx.input ? { input: (id: string) => ctx.input!(id, name) } : {}) };
  const expand = (text: string, field: string) =>
    expandVariables(text, serverCtx, (msg) => errors.push({ server: name, field, message: msg, severity: 'error' }), (value) => notSecret(value) || secrets.add(value));
  const base = {
    name,
    autoApprove: e.autoApprove ?? [],
    ...(e.trusted === true ? { trusted: true as const } : {}),
    ...(e.namespace !== undefined ? { namespace: e.namespace } : {}),
    ...(e.timeout !== undefined ? { timeoutMs: e.timeout } : {}),
    ...(e.instructions === false ? { instructions: false as const } : {}),
  };
  const type = e.type ?? (e.url !== undefined && e.command === undefined ? 'http' : 'stdio');

  let config: ServerConfig;
  if (type === 'stdio') {
    if (e.command === undefined) return fail('command', e.url !== undefined ? 'a stdio server needs "command" (set "type": "http" to use "url")' : 'is required for a stdio server');
    if (e.url !== undefined) problems.push({ server: name, field: 'url', message: '"url" is ignored for a stdio server', severity: 'warning' });
    if (e.oauth !== undefined) problems.push({ server: name, field: 'oauth', message: '"oauth" is ignored for a stdio server (it applies to http and sse servers)', severity: 'warning' });
    const env: Record<string, string> = {};
    if (e.envFile !== undefined) {
      const file = expand(e.envFile, 'envFile');
      if (insideUntrusted(resolvePath(file, ctx), ctx)) {
        problems.push({ server: name, field: 'envFile', message: `${file} is inside the untrusted workspace (or reached through a link there); it is not read`, severity: 'warning' });
      } else {
        try {
          const values = parseEnv(envFileText(resolvePath(file, ctx), ctx));
          for (const v of Object.values(values)) if (v !== undefined && !notSecret(v)) secrets.add(v);
          Object.assign(env, values);
        } catch (err) {
          errors.push({ server: name, field: 'envFile', message: `cannot read ${file}: ${(err as Error).message}`, severity: 'error' });
        }
      }
    }
    for (const [k, v] of Object.entries(e.env ?? {})) {
      if (v !== null) env[k] = expand(String(v), `env.${k}`);
    }
    let cwd = e.cwd !== undefined ? resolvePath(expand(e.cwd, 'cwd'), ctx) : baseDir(ctx);
    if (insideUntrusted(cwd, ctx)) {
      problems.push({ server: name, field: 'cwd', message: `${cwd} is inside the untrusted workspace (or reached through a link there); the server starts in ${baseDir(ctx)}`, severity: 'warning' });
      cwd = baseDir(ctx);
    }
    config = { ...base, type, command: expand(e.command, 'command'), args: (e.args ?? []).map((a, i) => expand(a, `args[${i}]`)), env, cwd };
  } else {
    if (e.url === undefined) return fail('url', `is required for a ${type} server`);
    const url = expand(e.url, 'url');
    try {
      const u = new URL(url);
      if (u.protocol !== 'http:' && u.protocol !== 'https:') errors.push({ server: name, field: 'url', message: `must be an http or https URL, got "${u.protocol}"`, severity: 'error' });
    } catch {
      // The entry as written, never the expanded value: that may hold a substituted secret.
      errors.push({ server: name, field: 'url', message: `"${e.url}" is not a valid URL`, severity: 'error' });
    }
    if (e.command !== undefined) problems.push({ server: name, field: 'command', message: `"command" is ignored for a ${type} server`, severity: 'warning' });
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(e.headers ?? {})) {
      headers[k] = expand(v, `headers.${k}`);
      secrets.add(headers[k]);
    }
    let oauth: HttpServerConfig['oauth'];
    if (e.oauth) {
      oauth = { clientId: expand(e.oauth.clientId, 'oauth.clientId') };
      if (e.oauth.clientSecret !== undefined) {
        oauth.clientSecret = expand(e.oauth.clientSecret, 'oauth.clientSecret');
        secrets.add(oauth.clientSecret);
      }
      if (e.oauth.issuer !== undefined) oauth.issuer = e.oauth.issuer;
    }
    config = { ...base, type, url, headers, ...(oauth ? { oauth } : {}) };
  }
  if (errors.length) {
    problems.push(...errors);
    return undefined;
  }
  return secrets.size ? { ...config, secrets: [...secrets] } : config;
}

function envFileText(path: string, ctx: VariableContext): string {
  if (!ctx.envFiles) return readEnvFileSync(path);
  const text = ctx.envFiles.get(path) ?? new Error('it was not read ahead');
  if (text instanceof Error) throw text;
  return text;
}

/**
 * Reads the env files that the enabled entries of a `minagent.servers` object name, without
 * blocking; pass the result as `ctx.envFiles`. The trust decision comes first (a file of an
 * untrusted workspace is never opened), and each read is bounded (readEnvFile).
 */
export async function readEnvFiles(raw: unknown, ctx: VariableContext): Promise<Map<string, string | Error>> {
  const files = new Map<string, string | Error>();
  if (!raw || typeof raw !== 'object') return files;
  const paths = Object.values(raw as Record<string, unknown>).flatMap((entry) => {
    if (!entry || typeof entry !== 'object' || (entry as { disabled?: unknown }).disabled === true) return [];
    const envFile = (entry as { envFile?: unknown }).envFile;
    return typeof envFile === 'string' ? [resolvePath(expandVariables(envFile, ctx, () => {}), ctx)] : [];
  });
  const readable = [...new Set(paths)].filter((path) => !insideUntrusted(path, ctx));
  await Promise.all(readable.map(async (path) => files.set(path, await readEnvFile(path).catch((err: Error) => err))));
  return files;
}

function resolvePath(p: string, ctx: VariableContext): string {
  return isAbsolute(p) ? p : resolve(baseDir(ctx), p);
}

/** Where relative paths start and servers run by default: the workspace, or home when it is untrusted. */
function baseDir(ctx: VariableContext): string {
  if (ctx.untrusted) return ctx.userHome ?? homedir();
  return ctx.workspaceFolder ?? process.cwd();
}

/** Every workspace folder the context names. */
function folders(ctx: VariableContext): string[] {
  return [...new Set([...(ctx.workspaceFolder !== undefined ? [ctx.workspaceFolder] : []), ...(ctx.workspaceFolders ?? [])])];
}

/** Whether `path` is the untrusted workspace's: in any of its folders, directly or through a link (reachesInto). */
function insideUntrusted(path: string, ctx: VariableContext): boolean {
  return !!ctx.untrusted && reachesInto(path, folders(ctx));
}

/**
 * Expands `${workspaceFolder}`, `${userHome}`, `${env:NAME}` and `${input:ID}`; anything unresolved
 * is reported. `secret` hears each `${env:}` and `${input:}` value put into the text.
 */
export function expandVariables(text: string, ctx: VariableContext, report: (message: string) => void, secret?: (value: string) => void): string {
  return text.replace(/\$\{([^}]*)\}/g, (whole, inner: string) => {
    const env = ctx.env ?? process.env;
    if (inner === 'workspaceFolder') {
      if (ctx.workspaceFolder !== undefined) return ctx.workspaceFolder;
      report('${workspaceFolder} is used but no folder is open');
      return whole;
    }
    if (inner === 'userHome') return ctx.userHome ?? homedir();
    if (inner.startsWith('env:')) {
      const value = env[inner.slice(4)];
      if (value !== undefined) {
        secret?.(value);
        return value;
      }
      report(`environment variable ${inner.slice(4)} is not set (used as ${whole})`);
      return whole;
    }
    if (inner.startsWith('input:') && ctx.input) {
      const value = ctx.input(inner.slice(6), '');
      if (value !== undefined) {
        secret?.(value);
        return value;
      }
      report(`input "${inner.slice(6)}" has no value`);
      return whole;
    }
    report(`unknown variable ${whole}`);
    return whole;
  });
}

/** Settings besides the servers, with their defaults. */
export interface HubSettings {
  conflictPolicy: ConflictPolicy;
  connectTimeoutMs: number;
  /** How long the era probe (`server/discover`) waits for an answer before the 2025 handshake is tried. */
  probeTimeoutMs: number;
  callTimeoutMs: number;
  maxOutputChars: number;
  /** `low`: stdio servers run below the editor (nice 10); `normal`: at the user's priority. */
  serverPriority: ServerPriority;
}

export const SERVER_PRIORITIES = ['normal', 'low'] as const;
export type ServerPriority = (typeof SERVER_PRIORITIES)[number];

export const DEFAULT_HUB_SETTINGS: HubSettings = {
  conflictPolicy: 'prefix',
  connectTimeoutMs: 30_000,
  probeTimeoutMs: 15_000,
  callTimeoutMs: 60_000,
  maxOutputChars: 50_000,
  serverPriority: 'normal',
};

/** Reads the hub settings from a flat `minagent.*` map; a bad value is reported and the default used. */
export function parseHubSettings(get: (key: string) => unknown, problems: ConfigProblem[]): HubSettings {
  const s = { ...DEFAULT_HUB_SETTINGS };
  const policy = get('conflictPolicy');
  if (policy !== undefined) {
    if (CONFLICT_POLICIES.includes(policy as ConflictPolicy)) s.conflictPolicy = policy as ConflictPolicy;
    else problems.push({ server: '', field: 'minagent.conflictPolicy', message: `must be one of ${CONFLICT_POLICIES.join(', ')}; using "prefix"`, severity: 'warning' });
  }
  const num = (key: keyof HubSettings & `${string}${'Ms' | 'Chars'}`, setting: string) => {
    const v = get(setting);
    if (v === undefined) return;
    if (typeof v === 'number' && Number.isInteger(v) && v > 0) (s[key] as number) = v;
    else problems.push({ server: '', field: `minagent.${setting}`, message: `must be a positive integer; using ${s[key]}`, severity: 'warning' });
  };
  num('connectTimeoutMs', 'connectTimeout');
  num('probeTimeoutMs', 'probeTimeout');
  num('callTimeoutMs', 'callTimeout');
  num('maxOutputChars', 'maxOutputChars');
  const priority = get('serverPriority');
  if (priority !== undefined) {
    if (SERVER_PRIORITIES.includes(priority as ServerPriority)) s.serverPriority = priority as ServerPriority;
    else problems.push({ server: '', field: 'minagent.serverPriority', message: `must be one of ${SERVER_PRIORITIES.join(', ')}; using "normal"`, severity: 'warning' });
  }
  return s;
}

export function describeProblem(p: ConfigProblem): string {
  const where = [p.server && `server "${p.server}"`, p.field && `field "${p.field}"`].filter(Boolean).join(', ');
  return where ? `${where}: ${p.message}` : p.message;
}

/**
 * The command line or URL of a server, for tooltips and logs, with its secrets redacted (URL
 * credentials and query, substituted values). Header values are never shown.
 */
export function describeEndpoint(config: ServerConfig): string {
  const redactor = serverRedactor(config);
  if (config.type !== 'stdio') return `${config.type === 'sse' ? 'SSE' : 'HTTP'} ${redactor.redact(config.url)}`;
  return redactor.redact([config.command, ...config.args].map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : JSON.stringify(a))).join(' '));
}

/** The redactor for one server's secrets: its substituted values and its URL's credentials and query. */
export function serverRedactor(config: ServerConfig): Redactor {
  const redactor = new Redactor();
  for (const s of config.secrets ?? []) redactor.addSecret(s);
  if (config.type !== 'stdio') {
    redactor.addUrl(config.url);
    for (const v of Object.values(config.headers)) redactor.addSecret(v);
  }
  return redactor;
}
