// The fixture servers the tests start (fixtures/servers/*.mjs), each bundled into one minified file:
// the suites start them about a thousand times, and a fixture on the SDK spends most of its start
// resolving and compiling the SDK's and zod's modules (measured, alternating rounds on a loaded machine:
// 0.42-0.47 CPU-s a start from the sources, 0.31-0.35 bundled). Built once per version of the sources, the
// installed packages and this recipe (test/builtOnce.ts); the sources stay what the tests name.
import { createHash } from 'node:crypto';
import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { builtOnce } from './builtOnce';

/** ESM output of CommonJS dependencies needs a `require` for Node's own modules. */
const REQUIRE = "import { createRequire as __minagentRequire } from 'node:module'; const require = __minagentRequire(import.meta.url);";

/**
 * The folder with the bundled servers of `sources` (same file names), built if missing.
 * `MINAGENT_FIXTURE_SOURCES=1` runs the sources themselves (to debug one with its own line numbers).
 */
export function fixtureServers(root: string): string {
  const sources = join(root, 'fixtures', 'servers');
  if (process.env.MINAGENT_FIXTURE_SOURCES === '1') return sources;
  const files = readdirSync(sources).filter((f) => f.endsWith('.mjs')).sort();
  const hash = createHash('sha256');
  // By size and time (a stat each, not a read: every test process asks), the sources', the installed
  // packages' and this recipe's.
  for (const f of [...files.map((name) => join(sources, name)), join(root, 'node_modules', '.package-lock.json'), __filename]) {
    const { size, mtimeMs } = statSync(f);
    hash.update(`${f}:${size}:${mtimeMs}\0`);
  }
  const key = hash.digest('hex').slice(0, 16);
  // No source maps: `MINAGENT_FIXTURE_SOURCES=1` runs the sources to debug one.
  return builtOnce(join(root, 'node_modules', '.cache', 'minagent-fixtures'), key, 'complete', (staging) => {
    // Loaded only to build (its import alone costs a test process tens of milliseconds).
    (require('esbuild') as typeof import('esbuild')).buildSync({
      entryPoints: files.map((f) => join(sources, f)),
      outdir: staging,
      outExtension: { '.js': '.mjs' },
      bundle: true,
      minify: true,
      // The SDK and zod once, in chunks the servers share, not a copy in each (a seventh of the bytes to build).
      splitting: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      banner: { js: REQUIRE },
      logLevel: 'error',
    });
    writeFileSync(join(staging, 'complete'), '');
  });
}
