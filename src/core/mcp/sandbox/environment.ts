// The environments of a sandboxed server: the one MinAgent's own helpers run with on the host (the
// launcher shell, bubblewrap, socat, `npm config get`), and the one the server gets inside.

/** The PATH of every program MinAgent runs on the host for a sandboxed server: the system's, never an entry's. */
export const HOST_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/**
 * What a server needs of the host's environment to run (its tools found, its locale and terminal, its
 * home and caches, the machine's certificates); nothing else of the host's reaches a sandboxed server
 * (tokens and keys in the environment are secrets as `~/.aws` is), unless its entry names it.
 */
const SERVER_NEEDS = new Set([
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'LANG',
  'LANGUAGE',
  'TERM',
  'COLORTERM',
  'TZ',
  'XDG_CONFIG_HOME',
  'XDG_CACHE_HOME',
  'XDG_DATA_HOME',
  'XDG_STATE_HOME',
  'NODE_EXTRA_CA_CERTS',
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
  'NVM_DIR',
  'NVM_BIN',
  'VOLTA_HOME',
  'PYENV_ROOT',
  'CARGO_HOME',
  'RUSTUP_HOME',
  'GOPATH',
  'GOROOT',
  'JAVA_HOME',
]);

/** What MinAgent's host-side helpers keep of this process's environment (the rest they are given). */
const HELPER_NEEDS = new Set(['HOME', 'USER', 'LOGNAME', 'LANG', 'LANGUAGE', 'TZ', 'TMPDIR']);

function picked(base: NodeJS.ProcessEnv, keep: (name: string) => boolean): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(base)) if (v !== undefined && keep(k)) out[k] = v;
  return out;
}

/**
 * The environment of a sandboxed server: the host's variables a server needs to run, with the entry's
 * own `env` on top (an entry that names `GITHUB_TOKEN` gets it; one that does not, does not).
 */
export function sandboxedServerEnvironment(
  own: Record<string, string>,
  base: NodeJS.ProcessEnv = process.env,
): Record<string, string> {
  return { ...picked(base, (k) => SERVER_NEEDS.has(k) || k.startsWith('LC_')), ...own };
}

/**
 * The environment of what MinAgent runs on the host for a sandboxed server: built here, from nothing
 * an entry wrote. A fixed PATH (a folder's own `bwrap` or `bash` first on PATH would run unsandboxed),
 * and none of the variables that make a shell (`BASH_ENV`, `ENV`, `BASH_FUNC_*`), the dynamic loader
 * (`LD_*`) or Node (`NODE_OPTIONS`) run code: only the locale and who the user is.
 */
export function helperEnvironment(base: NodeJS.ProcessEnv = process.env): Record<string, string> {
  return { ...picked(base, (k) => HELPER_NEEDS.has(k) || k.startsWith('LC_')), PATH: HOST_PATH };
}

/** A name `export` takes in a POSIX shell. */
const SHELL_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The variable of the launcher's environment that carries the server's `index`th value into the sandbox. */
const carrier = (index: number) => `__MINAGENT_ENV_${index}`;

/**
 * The command line the sandbox's shell runs for a server, and the variables that carry its
 * environment there. The server's variables travel under names no shell, loader or runtime reads
 * (`__MINAGENT_ENV_0`...), in the environment rather than in a command line (which any process of
 * the user can read), and take their own names only inside the sandbox, just before the server
 * starts: on the host, an entry's `BASH_ENV` or `NODE_OPTIONS` is an inert value.
 */
export function insideCommand(
  command: string,
  args: readonly string[],
  env: Record<string, string>,
  quote: (word: string) => string,
): { line: string; carriers: Record<string, string> } {
  const carriers: Record<string, string> = {};
  const exports: string[] = [];
  const exported: string[] = [];
  const odd: string[] = [];
  const oddCarriers: string[] = [];
  Object.entries(env).forEach(([name, value], i) => {
    if (name === '' || name.includes('=') || name.includes('\0') || value.includes('\0')) return;
    const via = carrier(i);
    carriers[via] = value;
    const assignment = `${quote(name)}="$${via}"`;
    if (SHELL_NAME.test(name)) {
      exports.push(assignment);
      exported.push(via);
    } else {
      odd.push(assignment);
      oddCarriers.push(`-u ${via}`);
    }
  });
  // A name a shell cannot export (`npm_config_@scope:registry`) is set by env(1), as the server starts.
  const envPrefix = odd.length ? `/usr/bin/env ${[...oddCarriers, ...odd].join(' ')} ` : '';
  const parts = [
    ...(exports.length ? [`export ${exports.join(' ')}`] : []),
    ...(exported.length ? [`unset ${exported.join(' ')}`] : []),
    `exec ${envPrefix}${[command, ...args].map(quote).join(' ')}`,
  ];
  return { line: parts.join('; '), carriers };
}
