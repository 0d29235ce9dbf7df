import { visibleLine } from '../../shared/visibleText';
import type { Argument, Package } from './serverJson';
import type { Runtime } from './runtimes';

/**
 * The options of each launcher that change where the code it runs comes from (another registry or
 * index, another package, a config file, a proxy, a TLS downgrade) or widen what it may reach (a
 * container's mounts, network, privileges), and the environment variables that do the same. A
 * registry's document that puts one among the words the launcher reads is refused by name: the user
 * confirms `@modelcontextprotocol/server-memory`, not the package an attacker's registry serves.
 *
 * Only the words a launcher reads as its own are checked: the runtime arguments (before the package),
 * and for dnx the package arguments too (it reads options after the package, up to a `--`). npx,
 * uvx and docker hand everything after the package to the server, whose own `-v` or `--prefix` is
 * its business.
 */
interface Runner {
  /** Long option names, without dashes. */
  long: readonly string[];
  /** Other long names refused by shape (npm's `--@scope:registry`). */
  longPattern?: RegExp;
  /** Single-letter options refused, each with the long name it stands for. */
  short: Readonly<Record<string, string>>;
  /** Single-letter options that take a value: in a cluster (`-ev`), what follows one is its value. */
  valueShort: string;
  /** Multi-letter single-dash shorthands (npm's `-reg`). */
  shorthands?: Readonly<Record<string, string>>;
  /** npm reads an unambiguous beginning of a long name as that name (`--regis`), and `-name` as `--name`. */
  npmStyle?: boolean;
  /** What separates an option from its value in one word (dnx also takes `--source:URL`). */
  separator: RegExp;
  /** dnx reads `@FILE` as a file of more arguments. */
  responseFiles?: boolean;
  /** Environment variables the launcher itself reads. */
  env: RegExp;
  readsPackageArguments: boolean;
}

/** Proxies and certificate trust: every launcher's downloads go where these say. */
const NETWORK_ENV = 'https?_proxy|all_proxy|no_proxy|ssl_cert_file|ssl_cert_dir';

const RUNNERS: Readonly<Record<string, Runner>> = {
  npm: {
    long: [
      'registry',
      'userconfig',
      'globalconfig',
      'prefix',
      'package',
      'call',
      'cache',
      'global',
      'location',
      'workspace',
      'workspaces',
      'include-workspace-root',
      'script-shell',
      'shell',
      'node-options',
      'proxy',
      'https-proxy',
      'noproxy',
      'strict-ssl',
      'ca',
      'cafile',
      'cert',
      'key',
      'replace-registry-host',
      'git',
      'node-gyp',
    ],
    longPattern: /:registry$/,
    short: { C: 'prefix', c: 'call', p: 'package', g: 'global', w: 'workspace', L: 'location' },
    valueShort: '',
    shorthands: { reg: 'registry', ws: 'workspaces', iwr: 'include-workspace-root' },
    npmStyle: true,
    separator: /=/,
    env: new RegExp(
      `^(npm_config_.*|node_options|node_extra_ca_certs|node_tls_reject_unauthorized|proxy|${NETWORK_ENV})$`,
      'i',
    ),
    readsPackageArguments: false,
  },
  pypi: {
    long: [
      'index',
      'default-index',
      'index-url',
      'extra-index-url',
      'find-links',
      'no-index',
      'index-strategy',
      'keyring-provider',
      'allow-insecure-host',
      'trusted-host',
      'from',
      'with',
      'with-editable',
      'with-requirements',
      'with-executables-from',
      'constraints',
      'overrides',
      'build-constraints',
      'python',
      'python-install-mirror',
      'pypy-install-mirror',
      'python-downloads-json-url',
      'config-file',
      'directory',
      'project',
      'env-file',
      'torch-backend',
    ],
    short: { i: 'index-url', f: 'find-links', p: 'python', w: 'with', c: 'constraints' },
    valueShort: '',
    separator: /=/,
    env: new RegExp(`^(uv_.*|pip_.*|${NETWORK_ENV})$`, 'i'),
    readsPackageArguments: false,
  },
  oci: {
    long: [
      'volume',
      'mount',
      'volumes-from',
      'tmpfs',
      'privileged',
      'network',
      'net',
      'link',
      'add-host',
      'dns',
      'publish',
      'publish-all',
      'cap-add',
      'device',
      'device-cgroup-rule',
      'gpus',
      'group-add',
      'pid',
      'ipc',
      'uts',
      'userns',
      'cgroupns',
      'cgroup-parent',
      'security-opt',
      'sysctl',
      'runtime',
      'entrypoint',
      'env-file',
      'platform',
      'cidfile',
    ],
    short: { v: 'volume', p: 'publish', P: 'publish-all' },
    valueShort: 'aceBhlmuw',
    separator: /=/,
    env: new RegExp(`^(docker_.*|${NETWORK_ENV})$`, 'i'),
    readsPackageArguments: false,
  },
  nuget: {
    long: ['source', 'add-source', 'configfile'],
    short: {},
    valueShort: '',
    separator: /[=:]/,
    responseFiles: true,
    env: new RegExp(
      `^(nuget_.*|dotnet_cli_home|dotnet_root|dotnet_startup_hooks|dotnet_additional_deps|${NETWORK_ENV})$`,
      'i',
    ),
    readsPackageArguments: true,
  },
};

const RISK = 'that changes where the code comes from or what it may reach';

/**
 * Why the words of one argument cannot be given to `runtime`'s launcher, or undefined when they can; the argument is
 * named by `shown` (its secrets as `${input:}`).
 */
export function argumentProblem(
  runtime: Runtime,
  where: 'runtime' | 'package',
  words: readonly string[],
  shown: readonly string[] = words,
): string | undefined {
  const runner = RUNNERS[runtime.type];
  if (!runner || (where === 'package' && !runner.readsPackageArguments)) return undefined;
  const argument = `${where} argument "${visibleLine(shown.join(' ')).slice(0, 300)}"`;
  for (const word of words) {
    if (word === '--' && where === 'runtime')
      return `${argument} ends the options of ${runtime.command}: what follows would be read as what to run`;
    if (runner.responseFiles && word.startsWith('@'))
      return `${argument} is read by ${runtime.command} as a file of more arguments`;
    const option = optionOf(runner, word);
    if (option) return `${argument} carries ${option}, an option of ${runtime.command} ${RISK}`;
  }
  return undefined;
}

/** Why an environment variable of the entry cannot be given to `runtime`'s launcher, or undefined when it can. */
export function environmentProblem(runtime: Runtime, name: string): string | undefined {
  const runner = RUNNERS[runtime.type];
  return runner?.env.test(name)
    ? `environment variable ${name} is read by ${runtime.command} and ${RISK.replace(/^that /, '')}`
    : undefined;
}

/**
 * The first launcher option a package's document carries where the launcher reads it, before anything
 * is asked: in a named argument's name, in each value the document writes (fixed, default, choices)
 * and in a fixed value with its variables' defaults or choices filled in; or in an environment
 * variable's name. What the user answers is checked again as the entry is built.
 */
export function packageRunnerProblem(runtime: Runtime, pkg: Package): string | undefined {
  for (const [where, list] of [
    ['runtime', pkg.runtimeArguments],
    ['package', pkg.packageArguments],
  ] as const) {
    for (const a of list ?? []) {
      for (const words of documentWords(a)) {
        const problem = argumentProblem(runtime, where, words);
        if (problem) return problem;
      }
    }
  }
  for (const e of pkg.environmentVariables ?? []) {
    const problem = environmentProblem(runtime, e.name);
    if (problem) return problem;
  }
  return undefined;
}

/** Each way the document itself may fill an argument: the words it would become. */
function documentWords(a: Argument): string[][] {
  const values = new Set<string>();
  for (const v of [a.default, ...(a.choices ?? [])]) if (v !== undefined) values.add(v);
  if (a.value !== undefined) {
    const variables = Object.entries(a.variables ?? {});
    const fill = (pick: (name: string) => string) =>
      a.value!.replace(/\{([A-Za-z0-9_.-]+)\}/g, (whole, name: string) => (a.variables?.[name] ? pick(name) : whole));
    const fallback = (name: string) => a.variables?.[name]?.default ?? '';
    values.add(fill(fallback));
    for (const [name, v] of variables)
      for (const choice of [v.default, ...(v.choices ?? [])])
        if (choice !== undefined) values.add(fill((n) => (n === name ? choice : fallback(n))));
  }
  const out = [...values].map((v) => (a.type === 'named' ? [a.name, v] : [v]));
  return out.length || a.type !== 'named' ? out : [[a.name]];
}

/** The refused option `word` is, as `--long-name`; undefined for a value or an option that is not refused. */
function optionOf(runner: Runner, word: string): string | undefined {
  if (!word.startsWith('-') || word === '-') return undefined;
  const key = word.replace(/^-+/, '').split(runner.separator)[0]!;
  if (word.startsWith('--')) return longOption(runner, key);
  // One dash: npm reads a whole name (`-registry`) first, then its shorthands, letters, and beginnings of names.
  if (runner.npmStyle && runner.long.includes(key.toLowerCase())) return `--${key.toLowerCase()}`;
  const shorthand = runner.shorthands?.[key];
  if (shorthand) return `--${shorthand}`;
  // A cluster of single letters (`-iv/:/host` is `-i -v /:/host`): up to the first letter that takes a value.
  for (const letter of key) {
    const long = runner.short[letter];
    if (long) return `--${long}`;
    if (runner.valueShort.includes(letter)) break;
  }
  return runner.npmStyle ? longOption(runner, key) : undefined;
}

function longOption(runner: Runner, key: string): string | undefined {
  let name = key.toLowerCase();
  // npm reads `--no-registry` as the option too (set to false), and any beginning of a name as the name.
  if (runner.npmStyle) while (name.startsWith('no-')) name = name.slice(3);
  const found =
    runner.long.find((l) => l === name) ??
    (runner.npmStyle && name ? runner.long.find((l) => l.startsWith(name)) : undefined);
  if (found) return `--${found}`;
  return runner.longPattern?.test(name) ? `--${key}` : undefined;
}
