import { isFeatureError, type FeatureError } from '../core/mcp/features/featureTypes';
import type { ServerHub } from '../core/mcp/hub/serverHub';
import { formatPromptMessages } from '../core/mcp/features/prompts';
import { listStatus, NotFound, parseNameAndJson, printTable, UsageError, type Output } from './commands';
import { couldHaveBeen, type FailedServer } from './failures';

/** `resources`: every server's resources, then its templates, in settings order. */
export function resourcesCommand(
  hub: ServerHub,
  json: boolean,
  io: Output,
  failed: readonly FailedServer[] = [],
): number {
  const resources = hub.catalog.resources().map((r) => ({
    server: r.server,
    uri: r.uri,
    name: r.name,
    ...(r.title ? { title: r.title } : {}),
    ...(r.mimeType ? { mimeType: r.mimeType } : {}),
    ...(r.description ? { description: r.description } : {}),
  }));
  const templates = hub.catalog.templates().map((t) => ({
    server: t.server,
    uriTemplate: t.uriTemplate,
    name: t.name,
    variables: t.variables,
    ...(t.mimeType ? { mimeType: t.mimeType } : {}),
    ...(t.description ? { description: t.description } : {}),
  }));
  if (json) {
    io.out(JSON.stringify({ resources, templates, failed }, null, 2));
    return listStatus(hub, failed, io);
  }
  printTable(io, [
    ...resources.map((r) => [r.server, r.uri, r.title ?? r.name, r.mimeType ?? '']),
    ...templates.map((t) => [t.server, t.uriTemplate, t.name, `template: ${t.variables.join(', ')}`]),
  ]);
  return listStatus(hub, failed, io);
}

export function parseReadInput(positionals: string[], server: string | undefined): { uri: string; server?: string } {
  const [uri] = positionals;
  if (!uri) throw new UsageError('read needs a resource URI: minagent read URI [--server NAME]');
  return { uri, ...(server !== undefined ? { server } : {}) };
}

/**
 * `read URI [--server S]`: the resource's text (binary parts as a size note); without --server the one server that
 * lists it.
 */
export async function readCommand(
  hub: ServerHub,
  input: { uri: string; server?: string },
  json: boolean,
  io: Output,
  failed: readonly FailedServer[] = [],
): Promise<number> {
  let server = input.server;
  const down = failed.find((f) => f.server === server);
  if (down) throw new NotFound(`server "${down.server}" did not connect: ${down.error}`);
  if (server === undefined) {
    const listing = hub.catalog.serversWithResource(input.uri);
    const offering = [...new Set([...hub.catalog.resources(), ...hub.catalog.templates()].map((r) => r.server))];
    if (listing.length > 1)
      throw new UsageError(
        `<${input.uri}> is listed by more than one server (${listing.join(', ')}); pick one with --server`,
      );
    server = listing[0] ?? (offering.length === 1 ? offering[0] : undefined);
    if (server === undefined) {
      // Naming a server helps only when a running one has resources; a server that failed is named instead.
      if (failed.length)
        throw new NotFound(`no running server lists <${input.uri}>${couldHaveBeen(input.uri, failed, 'resources')}`);
      throw new NotFound(
        `no server lists <${input.uri}>${offering.length ? `; name one with --server (servers with resources: ${offering.join(', ')})` : '; no running server has resources'}`,
      );
    }
  }
  const result = await hub.catalog.readResource(server, input.uri);
  if (isFeatureError(result)) return fail(result, io);
  if (json) {
    io.out(JSON.stringify(result, null, 2));
    return 0;
  }
  for (const c of result.contents) {
    if (c.text !== undefined)
      io.out(c.truncated ? `${c.text}\n…[cut: ${c.truncated.kept} of ${c.truncated.total} characters kept]` : c.text);
    else io.out(`[${c.uri}: ${c.mimeType ?? 'binary'}, ${c.size} bytes]`);
  }
  return 0;
}

/** `prompts`: every prompt under its merged name (`name` or `server.name`), with its server and arguments. */
export function promptsCommand(
  hub: ServerHub,
  json: boolean,
  io: Output,
  failed: readonly FailedServer[] = [],
): number {
  const rows = hub.catalog.prompts().map((p) => ({
    name: p.name,
    server: p.server,
    description: p.description ?? p.title ?? '',
    arguments: p.arguments,
  }));
  if (json) io.out(JSON.stringify({ prompts: rows, failed }, null, 2));
  else
    printTable(
      io,
      rows.map((r) => [
        r.name,
        r.server,
        r.description,
        r.arguments.map((a) => (a.required ? a.name : `[${a.name}]`)).join(' '),
      ]),
    );
  return listStatus(hub, failed, io);
}

/** Checks `prompt` input before any server starts: a name, and arguments as a JSON object of strings. */
export function parsePromptInput(positionals: string[]): { name: string; args: Record<string, string> } {
  const { name, json: args } = parseNameAndJson(positionals, 'prompt needs a prompt name: minagent prompt NAME [JSON]');
  if (
    typeof args !== 'object' ||
    args === null ||
    Array.isArray(args) ||
    !Object.values(args).every((v) => typeof v === 'string')
  ) {
    throw new UsageError('prompt arguments must be a JSON object of strings, e.g. {"city": "Paris"}');
  }
  return { name, args: args as Record<string, string> };
}

/** `prompt NAME [JSON]`: the prompt's messages, as text or (--json) as the server sent them. */
export async function promptCommand(
  hub: ServerHub,
  input: { name: string; args: Record<string, string> },
  json: boolean,
  io: Output,
  failed: readonly FailedServer[] = [],
): Promise<number> {
  if (!hub.catalog.prompts().some((p) => p.name === input.name)) {
    const known = hub.catalog.prompts().map((p) => p.name);
    throw new NotFound(
      `unknown prompt "${input.name}"; prompts: ${known.length ? known.join(', ') : '(none)'}${couldHaveBeen(input.name, failed, 'prompts')}`,
    );
  }
  const result = await hub.catalog.getPrompt(input.name, input.args);
  if (isFeatureError(result)) return fail(result, io);
  io.out(json ? JSON.stringify(result, null, 2) : formatPromptMessages(result));
  return 0;
}

function fail(error: FeatureError, io: Output): number {
  io.out(JSON.stringify({ error: error.error }));
  return 1;
}
