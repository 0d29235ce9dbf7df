// The real npm packages that tests start as a registry entry runs them (`npx -y NAME@VERSION`): fetched
// into npm's npx cache once, before the tests, with a patience of minutes, so that a start the test
// watches reads npm's cache alone (`NPX_FROM_CACHE`). npx asks the registry again for a package's
// metadata on every start (even one it has), and the registry at times answers only after a minute:
// a CI run's two servers, started by `npx -y` at once, waited past the 60 s a start gets, and the test
// failed for the network, not for what it checks.
import { execFile } from 'node:child_process';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * What a process that starts the fetched packages by `npx -y` adds to its environment: npm reads its cache
 * only, the one `fetchForNpx` filled (npm sets npm_config_cache for what `npm test` runs; a test file run by
 * hand has npm's default, under this HOME, which an editor's own HOME would otherwise hide).
 */
export const NPX_FROM_CACHE: Readonly<Record<string, string>> = {
  npm_config_offline: 'true',
  npm_config_cache: process.env.npm_config_cache || join(homedir(), '.npm'),
};

/**
 * Installs each `NAME@VERSION` into npx's cache (the folder `npx -y NAME@VERSION` runs it from), without
 * running it; a second call finds them there. Rejects with npm's own words when one cannot be had.
 */
export async function fetchForNpx(specs: readonly string[], timeoutMs = 300_000): Promise<void> {
  await Promise.all(
    specs.map(
      (spec) =>
        new Promise<void>((resolve, reject) => {
          const args = ['exec', '--yes', `--package=${spec}`, '--', 'node', '-e', ''];
          execFile('npm', args, { cwd: tmpdir(), timeout: timeoutMs, encoding: 'utf8' }, (err, _out, errText) => {
            if (err)
              reject(
                new Error(`npm could not fetch ${spec} for npx within ${timeoutMs} ms: ${errText || err.message}`),
              );
            else resolve();
          });
        }),
    ),
  );
}
