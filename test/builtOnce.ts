// A folder the tests build once per key under node_modules/.cache (the bundled fixture servers, the
// installed vsix), whichever test process needs it first.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';

/**
 * `cache`/`key`, built by `build` into an empty folder unless `marker` (a path in it) is there already.
 * Test files start in parallel: each builds into a folder of its own and the first rename wins; a build
 * that fails leaves nothing behind, and the folders of older keys are removed.
 */
export function builtOnce(cache: string, key: string, marker: string, build: (staging: string) => void): string {
  const done = join(cache, key);
  if (existsSync(join(done, marker))) return done;
  mkdirSync(cache, { recursive: true });
  const staging = mkdtempSync(join(cache, 'staging-'));
  // Readable by every user, as node_modules is: the sandbox's tests run as nobody too.
  chmodSync(staging, 0o755);
  try {
    build(staging);
    for (const old of readdirSync(cache))
      if (old !== key && !old.startsWith('staging-')) rmSync(join(cache, old), { recursive: true, force: true });
    renameSync(staging, done);
  } catch (err) {
    rmSync(staging, { recursive: true, force: true });
    if (!existsSync(join(done, marker))) throw err; // else another test file built it first
  }
  return done;
}
