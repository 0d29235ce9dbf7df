import type { Argument, Input, Package, Remote, ServerJson } from './serverJson';
import { visibleLine } from '../../shared/visibleText';
import { errorMessage } from '../toolRegistry/toolRegistry';
import { argumentProblem, packageRunnerProblem } from './runnerOptions';
import { runtimeOf, type Runtime } from './runtimes';
import { shownCommand } from './shownCommand';

/**
 * From a registry's `server.json` to a `minagent.servers` entry: each package MinAgent can run and
 * each remote is one way to add the server (a Plan); a plan lists what the user must be asked (its
 * Asks); with the answers it becomes the entry, with every secret as `${input:ID}` and its value
 * apart, for secret storage. Nothing here runs anything or reaches any host.
 */

/** One value the user is asked for. */
export interface Ask {
  /** Unique within the plan: the key of the answer, and of the `${input:}` a secret becomes. */
  id: string;
  /** What it is: `--port`, `API_KEY`, `header Authorization`, `tenant (in the URL)`. */
  label: string;
  description: string;
  required: boolean;
  secret: boolean;
  default?: string;
  choices?: string[];
  placeholder?: string;
  format?: Input['format'];
}

export interface Plan {
  /** `npm`, `pypi`, `oci`, `nuget`, or `remote`. */
  kind: string;
  /** Which one of the document's packages or remotes. */
  index: number;
  /** For a package: how it runs. */
  runtime?: Runtime;
  /** For a remote: its transport and URL template. */
  remote?: Remote;
  /**
   * Where the package says it is published, and the launcher it hints at: used only if the user chooses
   * (`BuildOptions`).
   */
  registryBaseUrl?: string;
  runtimeHint?: string;
  asks: Ask[];
}

/** A package or remote the document offers that MinAgent cannot use, and why. */
export interface Unusable {
  what: string;
  problem: string;
}

/**
 * What a plan becomes: the entry to write, the secrets to store by input id, and the command line or URL, as the user
 * confirms it.
 */
export interface Built {
  entry: Record<string, unknown>;
  secrets: Record<string, string>;
  /** The exact command line (stdio) or URL (HTTP) the entry runs or reaches, secrets as `${input:ID}`. */
  shown: string;
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}$/;
const FLAG = /^-{1,2}[A-Za-z0-9][A-Za-z0-9_.-]*$/;
/** A value put into a URL template: one host label or path segment, nothing that moves the request elsewhere. */
const URL_VALUE = /^[A-Za-z0-9._~-]{1,200}$/;

/** Every way `server` can be added, and what it offers that cannot be used. */
export function plansOf(server: ServerJson): { plans: Plan[]; unusable: Unusable[] } {
  const plans: Plan[] = [];
  const unusable: Unusable[] = [];
  (server.packages ?? []).forEach((pkg, index) => {
    const what = `package ${pkg.registryType} "${pkg.identifier}"`;
    const runtime = runtimeOf(pkg);
    if ('problem' in runtime) return void unusable.push({ what, problem: runtime.problem });
    if (pkg.transport.type !== 'stdio')
      return void unusable.push({
        what,
        problem: `its transport is ${pkg.transport.type}: a package MinAgent starts speaks stdio`,
      });
    const problem = packageProblem(pkg) ?? packageRunnerProblem(runtime, pkg);
    if (problem) return void unusable.push({ what, problem });
    const plan: Plan = {
      kind: runtime.type,
      index,
      runtime,
      ...(pkg.registryBaseUrl ? { registryBaseUrl: pkg.registryBaseUrl } : {}),
      ...(pkg.runtimeHint ? { runtimeHint: pkg.runtimeHint } : {}),
      asks: packageAsks(pkg),
    };
    // What the document alone fills in must build: a launcher option the checks above missed is refused here, not in a
    // preview.
    const previewProblem = problemOf(() => previewOf(server, plan));
    if (previewProblem) return void unusable.push({ what, problem: previewProblem });
    plans.push(plan);
  });
  (server.remotes ?? []).forEach((remote, index) => {
    const what = `remote ${remote.type} ${remote.url}`;
    const problem = remoteProblem(remote);
    if (problem) return void unusable.push({ what, problem });
    plans.push({ kind: 'remote', index, remote, asks: remoteAsks(remote) });
  });
  return { plans, unusable };
}

/** Options the user chose when confirming: a package's own registry and runtime hint are honoured only then. */
export interface BuildOptions {
  useRegistryBaseUrl?: boolean;
  /** The entry's name: the `${input:}` ids of its secrets start with it. */
  name: string;
  /** Where the document came from, remembered in the entry (`registry`). */
  registry: { url: string; name: string; version: string };
}

/**
 * The entry `plan` writes with `answers` (by ask id); a required ask without an answer or default is an error naming
 * it.
 */
export function buildEntry(
  server: ServerJson,
  plan: Plan,
  answers: Record<string, string>,
  options: BuildOptions,
): Built {
  return build(server, plan, answers, options, false);
}

/** What adding with `plan` would run or reach, before anything is asked: each value not yet known as `<label>`. */
export function previewOf(server: ServerJson, plan: Plan): string {
  // Each variable of a URL template as what the user will be asked (`<port>`), not as if the template were the address.
  if (plan.remote) {
    const remote = plan.remote;
    return visibleLine(
      remote.url.replace(/\{([A-Za-z0-9_.-]+)\}/g, (whole, name: string) =>
        remote.variables?.[name] ? `<${name}>` : whole,
      ),
    );
  }
  return build(
    server,
    plan,
    {},
    { name: 'preview', registry: { url: '', name: server.name, version: server.version } },
    true,
  ).shown;
}

function build(
  server: ServerJson,
  plan: Plan,
  answers: Record<string, string>,
  options: BuildOptions,
  preview: boolean,
): Built {
  const secrets: Record<string, string> = {};
  /** A preview's `<label>` for each value not yet known: shown as it is, not quoted as a value. */
  const placeholders = new Set<string>();
  const ask = new Map(plan.asks.map((a) => [a.id, a]));
  /** The value for an ask, and whether the user typed it (a default or a fixed value is the document's). */
  const answerOf = (id: string): { value: string; typed: boolean } | undefined => {
    const a = ask.get(id);
    const given = answers[id];
    const typed = given !== undefined && given !== '';
    const value = typed ? given : a?.default;
    if (preview && value === undefined && a?.required) {
      const placeholder = a.secret ? '<secret>' : `<${visibleLine(a.label)}>`;
      placeholders.add(placeholder);
      return { value: placeholder, typed: false };
    }
    if (preview) return value === undefined ? undefined : { value, typed };
    if (value === undefined && a?.required) throw new Error(`"${a.label}" is required`);
    if (value !== undefined && a?.choices?.length && !a.choices.includes(value))
      throw new Error(`"${a.label}" must be one of ${a.choices.join(', ')}`);
    return value === undefined ? undefined : { value, typed };
  };
  /**
   * One answer as written into the entry: what the user typed for a secret becomes `${input:}` (its
   * value kept apart); anything else, a default or a document's fixed value marked secret included,
   * is written and shown as it is, since the user never typed it.
   */
  const written = (id: string, secret: boolean): { text: string; plain: string } | undefined => {
    const got = answerOf(id);
    if (!got) return undefined;
    if (!secret || !got.typed) return { text: literal(got.value, id), plain: got.value };
    const inputId = `${options.name}.${id}`;
    secrets[inputId] = got.value;
    return { text: `\${input:${inputId}}`, plain: got.value };
  };
  /**
   * An input's final text (and its text with secrets in place, to check): its fixed value with its variables filled, or
   * what was asked.
   */
  const resolve = (
    inputValue: Input & { variables?: Record<string, Input> },
    id: string,
  ): { text: string; plain: string } | undefined => {
    if (inputValue.value === undefined) return written(id, !!inputValue.isSecret);
    const fixed = literal(inputValue.value, id);
    let text = '';
    let plain = '';
    let at = 0;
    for (const m of fixed.matchAll(/\{([A-Za-z0-9_.-]+)\}/g)) {
      const variable = inputValue.variables?.[m[1]!];
      if (!variable) continue;
      const part = written(`${id}.${m[1]}`, !!variable.isSecret) ?? { text: '', plain: '' };
      text += fixed.slice(at, m.index) + part.text;
      plain += fixed.slice(at, m.index) + part.plain;
      at = m.index + m[0].length;
    }
    return { text: text + fixed.slice(at), plain: plain + fixed.slice(at) };
  };
  const registry = { registry: options.registry };
  if (plan.remote) {
    const remote = plan.remote;
    const url = remote.url.replace(/\{([A-Za-z0-9_.-]+)\}/g, (whole, name: string) => {
      if (!remote.variables?.[name]) return whole;
      const value = answerOf(`url.${name}`)?.value ?? '';
      if (!URL_VALUE.test(value))
        throw new Error(`"${name}" (in the URL) must be letters, digits, ".", "_", "~" or "-"`);
      return value;
    });
    const parsed = safeUrl(literal(url, 'url'));
    if (!parsed) throw new Error(`the URL "${url}" is not an http(s) URL once filled in`);
    const headers: Record<string, string> = {};
    for (const h of remote.headers ?? []) {
      const v = resolve(h, `header.${h.name}`);
      if (v !== undefined) headers[h.name] = v.text;
    }
    const entry = {
      type: remote.type === 'sse' ? 'sse' : 'http',
      url,
      ...(Object.keys(headers).length ? { headers } : {}),
      ...registry,
    };
    return { entry, secrets, shown: visibleLine(url) };
  }
  const pkg = server.packages![plan.index]!;
  const runtime = plan.runtime!;
  // Each argument's words; what the launcher reads as its own is checked again with the answers in (runnerOptions.ts).
  const args = (list: Argument[] | undefined, where: 'runtime' | 'package') =>
    (list ?? []).flatMap((a, i) => {
      const id = `${where === 'runtime' ? 'runtime' : 'arg'}.${a.type === 'named' ? a.name : (a.valueHint ?? i)}`;
      const v = resolve(a, id);
      if (v === undefined) return [];
      // Checked with what the user typed in; named by what is shown (a typed secret is never printed).
      const problem = argumentProblem(
        runtime,
        where,
        a.type === 'named' ? [a.name, v.plain] : [v.plain],
        a.type === 'named' ? [a.name, v.text] : [v.text],
      );
      if (problem) throw new Error(problem);
      return a.type === 'named' ? [a.name, v.text] : [v.text];
    });
  const env: Record<string, string> = {};
  for (const e of pkg.environmentVariables ?? []) {
    const v = resolve(e, `env.${e.name}`);
    if (v !== undefined) env[e.name] = v.text;
  }
  const registryFlag =
    options.useRegistryBaseUrl && plan.registryBaseUrl && runtime.type === 'npm'
      ? [`--registry=${plan.registryBaseUrl}`]
      : [];
  const argv = [
    ...runtime.lead,
    ...registryFlag,
    ...args(pkg.runtimeArguments, 'runtime'),
    runtime.spec,
    ...runtime.after,
    ...args(pkg.packageArguments, 'package'),
  ];
  const entry = { command: runtime.command, args: argv, ...(Object.keys(env).length ? { env } : {}), ...registry };
  return { entry, secrets, shown: shownCommand(runtime.command, argv, env, placeholders) };
}

/**
 * The asks of a package: its runtime and package arguments and environment variables without a fixed value, and the
 * variables of those with one.
 */
function packageAsks(pkg: Package): Ask[] {
  const asks: Ask[] = [];
  const fromArgs = (list: Argument[] | undefined, where: string) =>
    (list ?? []).forEach((a, i) => {
      const label = a.type === 'named' ? a.name : (a.valueHint ?? `argument ${i + 1}`);
      addInput(asks, a, a.type === 'named' ? `${where}.${a.name}` : `${where}.${a.valueHint ?? i}`, label);
    });
  fromArgs(pkg.runtimeArguments, 'runtime');
  fromArgs(pkg.packageArguments, 'arg');
  for (const e of pkg.environmentVariables ?? []) addInput(asks, e, `env.${e.name}`, e.name);
  return asks;
}

function remoteAsks(remote: Remote): Ask[] {
  const asks: Ask[] = [];
  for (const [name, v] of Object.entries(remote.variables ?? {}))
    asks.push(toAsk(v, `url.${name}`, `${name} (in the URL)`, true));
  for (const h of remote.headers ?? []) addInput(asks, h, `header.${h.name}`, `header ${h.name}`);
  return asks;
}

function addInput(asks: Ask[], input: Input & { variables?: Record<string, Input> }, id: string, label: string): void {
  if (input.value === undefined) return void asks.push(toAsk(input, id, label, !!input.isRequired));
  for (const [name, v] of Object.entries(input.variables ?? {}))
    if (input.value.includes(`{${name}}`))
      asks.push(toAsk(v, `${id}.${name}`, `${name} (for ${label})`, !!v.isRequired || !!input.isRequired));
}

function toAsk(input: Input, id: string, label: string, required: boolean): Ask {
  return {
    id,
    label,
    description: input.description ?? '',
    required,
    secret: !!input.isSecret,
    ...(input.default !== undefined ? { default: input.default } : {}),
    ...(input.choices?.length ? { choices: input.choices } : {}),
    ...(input.placeholder !== undefined ? { placeholder: input.placeholder } : {}),
    ...(input.format ? { format: input.format } : {}),
  };
}

/** Text the settings would expand (`${env:...}`): a document may not put it in an entry. */
const VARIABLE =
  'holds "${", which the settings would read as a variable (${env:NAME} would hand over your environment)';

function packageProblem(pkg: Package): string | undefined {
  if (JSON.stringify(pkg).includes('${')) return VARIABLE;
  for (const a of [...(pkg.runtimeArguments ?? []), ...(pkg.packageArguments ?? [])])
    if (a.type === 'named' && !FLAG.test(a.name)) return `argument name "${a.name}" is not a flag (--name)`;
  for (const e of pkg.environmentVariables ?? [])
    if (!ENV_NAME.test(e.name)) return `environment variable name "${e.name}" is not valid`;
  if (pkg.registryBaseUrl !== undefined && !safeUrl(pkg.registryBaseUrl))
    return `registryBaseUrl "${pkg.registryBaseUrl}" is not an http(s) URL`;
  return undefined;
}

function remoteProblem(remote: Remote): string | undefined {
  if (JSON.stringify(remote).includes('${')) return VARIABLE;
  for (const h of remote.headers ?? []) if (!HEADER_NAME.test(h.name)) return `header name "${h.name}" is not valid`;
  // The URL with each variable as a harmless word must be an http(s) URL: a template cannot pick its scheme.
  const sample = remote.url.replace(/\{[A-Za-z0-9_.-]+\}/g, '1');
  if (!safeUrl(sample)) return `its URL "${remote.url}" is not an http(s) URL`;
  return undefined;
}

function problemOf(fn: () => unknown): string | undefined {
  try {
    fn();
    return undefined;
  } catch (err) {
    return errorMessage(err);
  }
}

function safeUrl(text: string): URL | undefined {
  try {
    const u = new URL(text);
    return (u.protocol === 'https:' || u.protocol === 'http:') && !u.username && !u.password ? u : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Text written into an entry as it is: `${...}` in it would be read by the settings as a variable
 * (`${env:AWS_SECRET_ACCESS_KEY}` in a header a remote host receives), so it is refused.
 */
function literal(text: string, what: string): string {
  if (text.includes('${'))
    throw new Error(`"${what}" holds "\${", which the settings would read as a variable; not written`);
  return text;
}
