import { execFile } from 'node:child_process';

let asked: Promise<string | undefined> | undefined;

/** The registry `npm config get registry` names (asked once per process; undefined if npm does not answer). */
export function npmRegistry(env: Record<string, string>): Promise<string | undefined> {
  asked ??= new Promise((resolve) => {
    execFile('npm', ['config', 'get', 'registry'], { env, timeout: 10_000, shell: process.platform === 'win32' }, (err, stdout) => {
      const url = String(stdout ?? '').trim();
      resolve(!err && /^https?:\/\//.test(url) ? url : undefined);
    });
  });
  return asked;
}

/** An npx server's policy with its registry: the registry's host is one it may reach. */
export function withRegistry<P extends { allowedDomains: string[]; npmRegistry?: string }>(policy: P, registry: string | undefined): P {
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
