import { createHash } from 'node:crypto';

/**
 * What an `${input:}` value is bound to: the server entry it was given for, as written, before any
 * input is substituted (so the value itself is never part of the key). Like `serverIdentity` (the
 * identity approvals use), it is the entry's origin and what it runs or reaches: type, command and
 * arguments, or URL; for a stdio entry also its `env`, `envFile` and `cwd`, since those change what
 * runs with the value (`NODE_OPTIONS=--require …`, a planted script beside a relative path).
 * A pulled change that points the entry elsewhere gives another key, so the value is asked for
 * again; a version-only change of the same package under a package runner (`npx -y @scope/pkg@1.2.0`
 * to `@1.3.0`, `uvx pkg==1.0` to `==1.1`, `docker run ghcr.io/org/img:1` to `:2`) keeps the key.
 */
export interface InputBinding {
  /** A hash of the entry with package versions left out: the values are stored under it. */
  key: string;
  /** What the entry runs or reaches, as written (placeholders, not values), for the notice. */
  runs: string;
}

/** Commands that fetch and run a named package, where `name@version` in the arguments is a version. */
const PACKAGE_RUNNERS = new Set([
  'npx',
  'pnpx',
  'bunx',
  'npm',
  'pnpm',
  'yarn',
  'bun',
  'uvx',
  'uv',
  'pipx',
  'docker',
  'podman',
]);
/** A package or image name: npm (`@scope/name`), PyPI, or an image reference (`ghcr.io/org/name`). */
const NAME = /^(?:@[A-Za-z0-9][\w.-]*\/)?[A-Za-z0-9][\w./-]*$/;
/** A version, a range's bound or a well-known tag: never a path, URL, alias (`npm:other`) or host. */
const VERSION = /^(?:[~^]?v?\d[\w.+-]*|latest|next)$/;
const MAX_RUNS = 300;

export function inputBinding(entry: unknown, origin: string): InputBinding {
  const e = (entry && typeof entry === 'object' && !Array.isArray(entry) ? entry : {}) as Record<string, unknown>;
  const type = e.type ?? (e.url !== undefined && e.command === undefined ? 'http' : 'stdio');
  let what: Record<string, unknown>;
  let runs: string;
  if (type === 'stdio') {
    const args = Array.isArray(e.args) ? e.args : [];
    const runner = typeof e.command === 'string' && PACKAGE_RUNNERS.has(commandName(e.command));
    what = {
      type,
      command: e.command,
      args: runner ? args.map((a) => (typeof a === 'string' ? packageName(a) : a)) : args,
      env: sorted(e.env),
      envFile: e.envFile,
      cwd: e.cwd,
    };
    runs = [e.command, ...args].map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' ');
  } else {
    what = { type, url: e.url };
    runs = typeof e.url === 'string' ? e.url : JSON.stringify(e.url ?? null);
  }
  const key = createHash('sha256')
    .update(JSON.stringify({ origin, ...what }))
    .digest('hex')
    .slice(0, 32);
  return { key, runs: runs.length > MAX_RUNS ? `${runs.slice(0, MAX_RUNS)}…` : runs };
}

/**
 * Why a value is asked for again: `before` is what the entry ran when the value was given (undefined
 * when that is not known, a value stored by an earlier version of MinAgent).
 */
export function rebindNotice(server: string, now: InputBinding, before: string | undefined): string {
  if (before === undefined)
    return `MinAgent now keeps each \${input:} value for the server entry it was given for, and cannot tell which entry the stored value was given for: enter it again for server "${server}" (${now.runs}).`;
  if (before === now.runs)
    return `Server "${server}" now runs ${now.runs} with a different origin, environment or working folder; enter the value again for it.`;
  return `Server "${server}" now runs ${now.runs} instead of ${before}; enter the value again for it.`;
}

/** `npx`, `/usr/bin/npx`, `C:\…\npx.cmd` -> `npx`. */
function commandName(command: string): string {
  return (command.split(/[\\/]/).pop() ?? '').toLowerCase().replace(/\.(cmd|exe|bat|ps1)$/, '');
}

/**
 * `@scope/pkg@1.2.0` -> `@scope/pkg`, `pkg==1.0` -> `pkg`, `ghcr.io/org/img:1` -> `ghcr.io/org/img`; anything else
 * unchanged.
 */
export function packageName(arg: string): string {
  const split = (at: number, sep: number): string | undefined => {
    const name = arg.slice(0, at);
    return at > 0 && NAME.test(name) && VERSION.test(arg.slice(at + sep)) ? name : undefined;
  };
  const colon = arg.lastIndexOf(':');
  return (
    (arg.includes('==') ? split(arg.indexOf('=='), 2) : undefined) ??
    split(arg.lastIndexOf('@'), 1) ??
    // An image tag only after a path (`org/img:1`): `localhost:8080` or `host:port` is not a version.
    (arg.slice(0, colon).includes('/') ? split(colon, 1) : undefined) ??
    arg
  );
}

function sorted(value: unknown): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  );
}
