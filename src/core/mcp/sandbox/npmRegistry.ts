import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, dirname, isAbsolute, join } from 'node:path';
import { HOST_PATH, helperEnvironment } from './environment';

let asked: Promise<string | undefined> | undefined;
let known: string | undefined;

/** The registry once `npm config get registry` answered (what the tooltip and `minagent servers` then show). */
export function knownNpmRegistry(): string | undefined {
  return known;
}

/** `name` on the PATH of this process (the user's own environment, never an entry's), by its absolute path. */
function onOwnPath(name: string, path = process.env.PATH ?? ''): string | undefined {
  return path
    .split(delimiter)
    .filter((dir) => isAbsolute(dir))
    .map((dir) => join(dir, name))
    .find((p) => existsSync(p));
}

/**
 * The registry `npm config get registry` names (asked once per process; undefined if npm does not
 * answer). Its host becomes one an npx server may reach, so nothing an entry or a workspace wrote
 * takes part: npm and node by absolute path, an environment MinAgent builds (an entry's
 * `NODE_OPTIONS` or `npm_config_registry` never reaches it), run in the home folder (a workspace's
 * `.npmrc` names no registry here): the user's own npm configuration decides.
 */
export function npmRegistry(): Promise<string | undefined> {
  asked ??= new Promise((resolve) => {
    const node = process.platform === 'win32' ? undefined : onOwnPath('node');
    const npm = onOwnPath(process.platform === 'win32' ? 'npm.cmd' : 'npm');
    if (!npm) return resolve(undefined);
    const env = { ...helperEnvironment(), PATH: node ? `${dirname(node)}${delimiter}${HOST_PATH}` : HOST_PATH };
    const [file, args] = node ? [node, [npm, 'config', 'get', 'registry']] : [npm, ['config', 'get', 'registry']];
    execFile(
      file,
      args,
      { env, cwd: homedir(), timeout: 10_000, shell: process.platform === 'win32' },
      (err, stdout) => {
        const url = String(stdout ?? '').trim();
        known = !err && /^https?:\/\//.test(url) ? url : undefined;
        resolve(known);
      },
    );
  });
  return asked;
}

/** An npx server's policy with its registry: the registry's host is one it may reach. */
export function withRegistry<P extends { allowedDomains: string[]; npmRegistry?: string }>(
  policy: P,
  registry: string | undefined,
): P {
  if (!registry) return policy;
  let host: string;
  try {
    const u = new URL(registry);
    host = u.port ? `${u.hostname}:${u.port}` : u.hostname;
  } catch {
    return policy;
  }
  return { ...policy, npmRegistry: registry, allowedDomains: [...new Set([...policy.allowedDomains, host])] };
}
