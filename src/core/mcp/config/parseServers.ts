import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute } from 'node:path';
import { parseEnv } from 'node:util';
import type { z } from 'zod';
import { entrySchema, unknownFields } from './entrySchema';
import { envFileText } from './envFiles';
import type { ConfigProblem, HttpServerConfig, ParsedServers, SandboxEntry, ServerConfig } from './serverConfig';
import { baseDir, folders, insideUntrusted, resolvePath } from './trust';
import { expandVariables, type VariableContext } from './variables';

/** An absolute path that exists on this machine (a folder or file the user named, not a credential). */
function isMachinePath(value: string): boolean {
  return isAbsolute(value) && !/[\0\n]/.test(value) && existsSync(value);
}

/**
 * Parses a `minagent.servers` object. A bad entry becomes a problem that names the server and the
 * field, and every other entry is still returned.
 */
export function parseServers(raw: unknown, ctx: VariableContext = {}, origin?: string): ParsedServers {
  const result: ParsedServers = { servers: [], disabled: [], problems: [] };
  if (raw === undefined || raw === null) return result;
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    result.problems.push({
      server: '',
      field: 'minagent.servers',
      message: 'must be an object keyed by server name',
      severity: 'error',
    });
    return result;
  }
  for (const [name, value] of Object.entries(raw as Record<string, unknown>)) {
    const parsed = parseEntry(name, value, ctx, result.problems);
    if (parsed === 'disabled') result.disabled.push(name);
    else if (parsed) result.servers.push(origin ? { ...parsed, origin } : parsed);
  }
  return result;
}

function parseEntry(
  name: string,
  value: unknown,
  ctx: VariableContext,
  problems: ConfigProblem[],
): ServerConfig | 'disabled' | undefined {
  const fail = (field: string, message: string) => {
    problems.push({ server: name, field, message, severity: 'error' });
    return undefined;
  };
  if (!/^[^\s.][^.]*$/.test(name) || name.trim() !== name)
    return fail('', `server name "${name}" must not be empty, contain dots, or start or end with spaces`);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return fail('', 'must be an object');

  for (const key of unknownFields(value as Record<string, unknown>))
    problems.push({ server: name, field: key, message: `unknown field "${key}" is ignored`, severity: 'warning' });
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
    expandVariables(
      text,
      serverCtx,
      (msg) => errors.push({ server: name, field, message: msg, severity: 'error' }),
      (value) => notSecret(value) || secrets.add(value),
    );
  const base = {
    name,
    autoApprove: e.autoApprove ?? [],
    ...(e.trusted === true ? { trusted: true as const } : {}),
    ...(e.namespace !== undefined ? { namespace: e.namespace } : {}),
    ...(e.timeout !== undefined ? { timeoutMs: e.timeout } : {}),
    ...(e.instructions === false ? { instructions: false as const } : {}),
    ...(e.apps === false ? { apps: false as const } : {}),
    ...(e.registry ? { registry: { ...e.registry } } : {}),
    ...(e.tools && !e.tools.includes('*') ? { tools: [...e.tools] } : {}),
    ...devFields(e, name, problems),
  };
  const type =
    e.type === 'local' ? 'stdio' : (e.type ?? (e.url !== undefined && e.command === undefined ? 'http' : 'stdio'));

  let config: ServerConfig;
  if (type === 'stdio') {
    if (e.command === undefined)
      return fail(
        'command',
        e.url !== undefined
          ? 'a stdio server needs "command" (set "type": "http" to use "url")'
          : 'is required for a stdio server',
      );
    if (e.url !== undefined)
      problems.push({
        server: name,
        field: 'url',
        message: '"url" is ignored for a stdio server',
        severity: 'warning',
      });
    if (e.oauth !== undefined)
      problems.push({
        server: name,
        field: 'oauth',
        message: '"oauth" is ignored for a stdio server (it applies to http and sse servers)',
        severity: 'warning',
      });
    const env: Record<string, string> = {};
    if (e.envFile !== undefined) {
      const file = expand(e.envFile, 'envFile');
      if (insideUntrusted(resolvePath(file, ctx), ctx)) {
        problems.push({
          server: name,
          field: 'envFile',
          message: `${file} is inside the untrusted workspace (or reached through a link there); it is not read`,
          severity: 'warning',
        });
      } else {
        try {
          const values = parseEnv(envFileText(resolvePath(file, ctx), ctx));
          for (const v of Object.values(values)) if (v !== undefined && !notSecret(v)) secrets.add(v);
          Object.assign(env, values);
        } catch (err) {
          errors.push({
            server: name,
            field: 'envFile',
            message: `cannot read ${file}: ${(err as Error).message}`,
            severity: 'error',
          });
        }
      }
    }
    for (const [k, v] of Object.entries(e.env ?? {})) {
      if (v !== null) env[k] = expand(String(v), `env.${k}`);
    }
    let cwd = e.cwd !== undefined ? resolvePath(expand(e.cwd, 'cwd'), ctx) : baseDir(ctx);
    if (insideUntrusted(cwd, ctx)) {
      problems.push({
        server: name,
        field: 'cwd',
        message: `${cwd} is inside the untrusted workspace (or reached through a link there); the server starts in ${baseDir(ctx)}`,
        severity: 'warning',
      });
      cwd = baseDir(ctx);
    }
    const sandbox = sandboxEntry(e, (path, field) => resolvePath(expand(path, field), ctx));
    const written = {
      ...(e.cwd !== undefined ? { cwd: e.cwd } : {}),
      ...(e.envFile !== undefined ? { envFile: e.envFile } : {}),
      ...(e.env
        ? { env: Object.fromEntries(Object.entries(e.env).flatMap(([k, v]) => (v === null ? [] : [[k, String(v)]]))) }
        : {}),
    };
    config = {
      ...base,
      type,
      command: expand(e.command, 'command'),
      args: (e.args ?? []).map((a, i) => expand(a, `args[${i}]`)),
      env,
      cwd,
      ...(sandbox !== undefined ? { sandbox } : {}),
      written,
    };
  } else {
    if (e.url === undefined) return fail('url', `is required for a ${type} server`);
    const url = expand(e.url, 'url');
    try {
      const u = new URL(url);
      const socket = u.protocol === 'unix:' || u.protocol === 'pipe:';
      if (u.protocol !== 'http:' && u.protocol !== 'https:' && !socket)
        errors.push({
          server: name,
          field: 'url',
          message: `must be an http or https URL, or a unix:/// or pipe:/// socket, got "${u.protocol}"`,
          severity: 'error',
        });
      const refusal = socket ? socketRefusal(u) : undefined;
      if (refusal) errors.push({ server: name, field: 'url', message: refusal, severity: 'error' });
    } catch {
      // The entry as written, never the expanded value: that may hold a substituted secret.
      errors.push({ server: name, field: 'url', message: `"${e.url}" is not a valid URL`, severity: 'error' });
    }
    if (e.command !== undefined)
      problems.push({
        server: name,
        field: 'command',
        message: `"command" is ignored for a ${type} server`,
        severity: 'warning',
      });
    if (e.sandbox !== undefined || e.sandboxEnabled !== undefined)
      problems.push({
        server: name,
        field: 'sandbox',
        message: `"sandbox" is ignored for a ${type} server (it applies to stdio servers, which run on this machine)`,
        severity: 'warning',
      });
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

/**
 * The entry's sandbox: `sandbox: false` or `sandboxEnabled: false` is never; `sandbox: true`,
 * `sandbox: {...}` or `sandboxEnabled: true` is always (with what it adds); neither, undefined.
 */
function sandboxEntry(
  e: EntryFields,
  path: (value: string, field: string) => string,
): SandboxEntry | false | undefined {
  if (e.sandbox === false || e.sandboxEnabled === false) return false;
  if (e.sandbox === undefined && e.sandboxEnabled !== true) return undefined;
  const s = typeof e.sandbox === 'object' ? e.sandbox : {};
  const paths = (list: string[] | undefined, field: string) => (list ?? []).map((p, i) => path(p, `${field}[${i}]`));
  return {
    allowWrite: paths(s.filesystem?.allowWrite, 'sandbox.filesystem.allowWrite'),
    denyRead: paths(s.filesystem?.denyRead, 'sandbox.filesystem.denyRead'),
    ...(s.filesystem?.denyWrite?.length
      ? { denyWrite: paths(s.filesystem.denyWrite, 'sandbox.filesystem.denyWrite') }
      : {}),
    allowedDomains: [...(s.network?.allowedDomains ?? [])],
    ...(s.network?.deniedDomains?.length ? { deniedDomains: [...s.network.deniedDomains] } : {}),
  };
}

/**
 * VS Code's `dev`: the files whose change restarts the server (`watch`, globs relative to the workspace folder).
 * `debug` attaches VS Code's debugger, which MinAgent does not: said by name, the entry kept.
 */
function devFields(e: EntryFields, name: string, problems: ConfigProblem[]): { watch?: string[] } {
  if (e.dev?.debug !== undefined)
    problems.push({
      server: name,
      field: 'dev.debug',
      message: 'is ignored: MinAgent does not attach a debugger to a server (VS Code does)',
      severity: 'warning',
    });
  const watch = e.dev?.watch === undefined ? [] : [e.dev.watch].flat().filter((g) => g.trim() !== '');
  return watch.length ? { watch } : {};
}

/**
 * Why a socket URL cannot be used here, if it cannot: `unix:///path/to/server.sock` (a subpath after `#`), or on
 * Windows `pipe:///pipe/name`.
 */
function socketRefusal(u: URL): string | undefined {
  if (!u.pathname || u.pathname === '/')
    return `"${u.protocol}" needs the socket's path, e.g. ${u.protocol}///tmp/server.sock`;
  if (u.host) return `"${u.protocol}//${u.host}": a socket URL has no host; write ${u.protocol}///path`;
  if (u.protocol === 'pipe:' && process.platform !== 'win32')
    return 'pipe:/// names a Windows named pipe; on this system use a unix:/// socket';
  return undefined;
}

type EntryFields = z.infer<typeof entrySchema>;
