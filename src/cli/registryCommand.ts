import { join, resolve } from 'node:path';
import { cliConfigDir, FileSecretStore } from '../core/auth/fileStore';
import { storedInputKey } from '../core/mcp/config/storedInputs';
import { commandExists } from '../core/mcp/transport/findCommand';
import { RegistryClient, RegistryError, RegistryUnreachable } from '../core/serverRegistry/client';
import { buildEntry, plansOf, previewOf, type Ask, type Plan } from '../core/serverRegistry/launch';
import { suggestedName } from '../core/serverRegistry/names';
import { registryText, SERVER_NAME, type RegistryServer } from '../core/serverRegistry/serverJson';
import { readSettingsFile, settingsValue } from '../core/settingsFile';
import { writeServerEntry } from '../core/settingsEdit';
import { errorMessage } from '../core/toolRegistry/toolRegistry';
import type { Terminal } from './approve';
import { UsageError, type Output } from './commands';
import { terminalLine } from './terminalText';
import { readUserSettings, userSettingsFile } from './userSettings';

/** The official MCP Registry: the default when neither `--registry` nor the settings name one. */
export const OFFICIAL_REGISTRY = 'https://registry.modelcontextprotocol.io/';

/** Where the CLI keeps the values of `${input:}` secrets it was given (mode 0600, beside its tokens). */
export const cliInputsFile = (env: NodeJS.ProcessEnv = process.env) => join(cliConfigDir(env), 'inputs.json');

export interface RegistryOptions {
  registry?: string;
  settings: string;
  json: boolean;
  /** `--set ID=VALUE` answers, by ask id or label. */
  set: string[];
  name?: string;
  yes: boolean;
  /** Install an npm package from the registry its document names (`--package-registry`). */
  packageRegistry?: boolean;
}

/**
 * The registry to read and where that choice came from: `--registry`, else the first of the user's
 * `minagent.registries` (user settings only: a cloned folder's settings file does not choose where
 * servers come from), else the official one.
 */
function chosenRegistry(options: RegistryOptions): { url: string; from: string } {
  if (options.registry) return { url: options.registry, from: 'given with --registry' };
  const listed = settingsValue(readUserSettings(), 'registries');
  if (Array.isArray(listed) && typeof listed[0] === 'string')
    return { url: listed[0], from: `the first of minagent.registries in ${userSettingsFile()}` };
  return { url: OFFICIAL_REGISTRY, from: 'the official MCP Registry, the default' };
}

/**
 * A client of the chosen registry, and what to tell a user whose registry gave no answer: why, and how to pick another.
 */
async function fromRegistry<T>(options: RegistryOptions, read: (client: RegistryClient) => Promise<T>): Promise<T> {
  const chosen = chosenRegistry(options);
  try {
    return await read(new RegistryClient(chosen.url));
  } catch (err) {
    if (!(err instanceof RegistryUnreachable)) throw err;
    throw new RegistryError(
      terminalLine(`cannot reach the MCP registry ${err.registry} (${chosen.from}): ${err.why}`) +
        `\n  another registry: --registry URL, or "minagent.registries": ["URL"] in your user settings (${userSettingsFile()})`,
    );
  }
}

/** `registry search [QUERY]`: the latest version of each matching server, with what adding it would run. */
export async function registrySearch(query: string | undefined, options: RegistryOptions, io: Output): Promise<number> {
  const { client, listing } = await fromRegistry(options, async (client) => ({
    client,
    listing: await client.list(query ? { search: query } : {}),
  }));
  const found = listing.servers.map((s) => describe(s));
  if (options.json) io.out(JSON.stringify(found, null, 2));
  else {
    if (!found.length) io.out(`(no server${query ? ` matches "${terminalLine(query)}"` : ''} in ${client.url})`);
    for (const s of found) {
      io.out(terminalLine(`${s.name}  ${s.version}${s.title ? `  ${s.title}` : ''}`));
      if (s.description) io.out(`    ${terminalLine(s.description)}`);
      for (const a of s.adds) io.out(`    ${terminalLine(`${a.kind}: ${a.runs}`)}`);
      for (const u of s.unusable) io.out(`    ${terminalLine(`cannot add ${u.what}: ${u.problem}`)}`);
      if (s.repository) io.out(`    ${terminalLine(`repository: ${s.repository}`)}`);
    }
  }
  for (const skipped of listing.skipped) io.err(terminalLine(`skipped a document of ${client.url}: ${skipped}`));
  if (listing.truncated) io.err('more pages than read: narrow the search');
  return 0;
}

function describe(s: RegistryServer) {
  const { plans, unusable } = plansOf(s.server);
  return {
    name: s.server.name,
    version: s.server.version,
    title: registryText(s.server.title ?? '', 200),
    description: registryText(s.server.description, 300),
    repository: s.server.repository ? registryText(s.server.repository.url, 300) : '',
    adds: plans.map((p) => ({ kind: p.kind, runs: previewOf(s.server, p) })),
    unusable: unusable.map((u) => ({ what: registryText(u.what, 200), problem: registryText(u.problem, 300) })),
  };
}

/**
 * `registry add NAME[@VERSION]`: writes the server's entry into the settings file. Variables come
 * from `--set`, else are asked on a terminal (secrets without echo); without one, a required variable
 * missing is an error naming it. Nothing runs: the entry is written once the exact command line (or
 * URL) was confirmed (`--yes` without a terminal); secrets go to the CLI's inputs file, never the settings.
 */
export async function registryAdd(
  spec: string,
  options: RegistryOptions,
  io: Output,
  terminal: (Terminal & { hidden(text: string): Promise<string> }) | undefined,
): Promise<number> {
  const at = spec.lastIndexOf('@');
  const [name, version] = at > 0 ? [spec.slice(0, at), spec.slice(at + 1)] : [spec, 'latest'];
  if (!SERVER_NAME.test(name))
    throw new UsageError(`"${terminalLine(name)}" is not a registry server name (namespace/name)`);
  const { client, server } = await fromRegistry(options, async (client) => ({
    client,
    server: (await client.version(name, version)).server,
  }));
  const { plans, unusable } = plansOf(server);
  const plan = await firstRunnable(plans);
  if (!plan) {
    const why = [
      ...unusable.map((u) => `${u.what}: ${u.problem}`),
      ...plans.map((p) => `${p.kind}: needs ${p.runtime!.command}, which is not on PATH`),
    ];
    io.err(terminalLine(`cannot add ${server.name}: ${why.join('; ') || 'it offers no package or remote'}`));
    return 1;
  }
  const settingsPath = resolve(options.settings);
  const entryName = options.name ?? suggestedName(server.name);
  const existing = settingsValue(safeRead(settingsPath), 'servers');
  if (existing && typeof existing === 'object' && entryName in existing)
    throw new UsageError(`${settingsPath} already has a server named "${entryName}"; choose another with --name`);
  const answers = givenAnswers(options.set, plan.asks);
  for (const ask of plan.asks) {
    if (answers[ask.id] !== undefined) continue;
    if (!terminal) {
      if (ask.required && ask.default === undefined)
        throw new UsageError(
          `${server.name} needs "${ask.label}"${ask.description ? ` (${terminalLine(ask.description)})` : ''}: give it with --set '${ask.id}=VALUE' (no terminal to ask on)`,
        );
      continue;
    }
    answers[ask.id] = await askFor(ask, terminal);
  }
  let built: ReturnType<typeof buildEntry>;
  try {
    built = buildEntry(server, plan, answers, {
      name: entryName,
      registry: { url: client.url, name: server.name, version: server.version },
      ...(options.packageRegistry ? { useRegistryBaseUrl: true } : {}),
    });
  } catch (err) {
    io.err(terminalLine(`cannot add ${server.name}: ${errorMessage(err)}`));
    return 1;
  }
  io.err(terminalLine(`adds "${entryName}" (${server.name} ${server.version}) to ${settingsPath}:`));
  io.err(`    ${terminalLine(built.shown)}`);
  if (plan.registryBaseUrl && !options.packageRegistry)
    io.err(
      terminalLine(
        `    (the package names ${plan.registryBaseUrl} as its registry; it installs from your own configuration unless --package-registry)`,
      ),
    );
  if (Object.keys(built.secrets).length)
    io.err(terminalLine(`    secrets kept in ${cliInputsFile()}: ${Object.keys(built.secrets).join(', ')}`));
  if (!options.yes) {
    if (!terminal) throw new UsageError('no terminal to confirm on: add --yes to write it');
    const answer = (await terminal.question('Write this entry? [y/N] ')).trim().toLowerCase();
    if (answer !== 'y' && answer !== 'yes') {
      io.err('not written');
      return 1;
    }
  }
  const store = new FileSecretStore(cliInputsFile());
  for (const [id, value] of Object.entries(built.secrets))
    await store.store(storedInputKey(settingsPath, entryName, built.entry, id), value);
  writeServerEntry(settingsPath, entryName, built.entry);
  io.out(terminalLine(`added "${entryName}" to ${settingsPath}`));
  return 0;
}

/** The first plan whose launcher is on PATH (a remote needs none). */
async function firstRunnable(plans: Plan[]): Promise<Plan | undefined> {
  for (const p of plans)
    if (!p.runtime || (await commandExists(p.runtime.command, process.env as Record<string, string>, process.cwd())))
      return p;
  return undefined;
}

function givenAnswers(set: string[], asks: Ask[]): Record<string, string> {
  const answers: Record<string, string> = {};
  for (const pair of set) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new UsageError(`--set takes ID=VALUE, not "${terminalLine(pair)}"`);
    const key = pair.slice(0, eq);
    const ask = asks.find((a) => a.id === key || a.label === key);
    if (!ask)
      throw new UsageError(
        `--set "${terminalLine(key)}": the server asks for ${asks.map((a) => a.id).join(', ') || 'nothing'}`,
      );
    answers[ask.id] = pair.slice(eq + 1);
  }
  return answers;
}

async function askFor(ask: Ask, terminal: Terminal & { hidden(text: string): Promise<string> }): Promise<string> {
  const about = ask.description ? ` (${registryText(ask.description, 200)})` : '';
  const options = ask.choices ? ` [${ask.choices.join('/')}]` : '';
  const fallback =
    ask.default !== undefined
      ? ` default ${ask.default}`
      : ask.required
        ? ' required'
        : ' optional, Enter to leave out';
  const text = terminalLine(`${ask.label}${about}${options}${fallback}: `);
  for (;;) {
    const value = (ask.secret ? await terminal.hidden(text) : await terminal.question(text)).trim();
    if (value || ask.default !== undefined || !ask.required) return value;
  }
}

function safeRead(path: string): Record<string, unknown> {
  try {
    return readSettingsFile(path);
  } catch {
    return {};
  }
}
