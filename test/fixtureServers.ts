// The fixture servers the tests start (fixtures/servers/*.mjs), each bundled into one minified file:
// the suites start them about a thousand times, and a fixture on the SDK spends most of its start
// resolving and compiling the SDK's and zod's modules (measured, alternating rounds on a loaded machine:
// 0.42-0.47 CPU-s a start from the sources, 0.31-0.35 bundled). Each bundle is CommonJS, run from V8's
// code cache (test/fixtureLoader.cjs) by a small module under the source's own name: an ES module has
// no code cache on Node 20 (research.mjs, three rounds of ten starts on a quiet machine: 0.21 CPU-s a
// start against 0.26-0.27 as an ES module bundle). Built once per version of the sources, the installed
// packages and this recipe (test/builtOnce.ts); the sources stay what the tests name.
import { createHash } from 'node:crypto';
import { copyFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { builtOnce } from './builtOnce';

/** What runs under a fixture's own name: its bundle, through the loader beside it. */
const stub = (name: string) =>
  `import { createRequire } from 'node:module';\nimport { fileURLToPath } from 'node:url';\ncreateRequire(import.meta.url)('./fixtureLoader.cjs')(fileURLToPath(new URL('./${name.replace(/\.mjs$/, '.cjs')}', import.meta.url)));\n`;
const LOADER = join(__dirname, 'fixtureLoader.cjs');

/**
 * The folder with the bundled servers of `sources` (same file names), built if missing.
 * `MINAGENT_FIXTURE_SOURCES=1` runs the sources themselves (to debug one with its own line numbers).
 */
export function fixtureServers(root: string): string {
  const sources = join(root, 'fixtures', 'servers');
  if (process.env.MINAGENT_FIXTURE_SOURCES === '1') return sources;
  const files = readdirSync(sources)
    .filter((f) => f.endsWith('.mjs'))
    .sort();
  const hash = createHash('sha256');
  // By size and time (a stat each, not a read: every test process asks), the sources', the installed
  // packages' and this recipe's.
  for (const f of [
    ...files.map((name) => join(sources, name)),
    join(root, 'node_modules', '.package-lock.json'),
    __filename,
    LOADER,
  ]) {
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
      outExtension: { '.js': '.cjs' },
      bundle: true,
      minify: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      logLevel: 'error',
    });
    copyFileSync(LOADER, join(staging, 'fixtureLoader.cjs'));
    for (const name of files) writeFileSync(join(staging, name), stub(name));
    writeFileSync(join(staging, 'complete'), '');
  });
}
