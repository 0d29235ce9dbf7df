// Bundles the CLI (and, once it exists, the extension) with esbuild. `tsc` only type-checks.
import { build } from 'esbuild';
import { chmodSync, existsSync } from 'node:fs';

const production = process.argv.includes('--production') || process.env.NODE_ENV === 'production';
const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  minify: production,
  sourcemap: production ? false : 'linked',
  legalComments: 'none',
  // jsonc-parser's UMD entry hides its requires from bundlers; its ESM entry bundles cleanly.
  mainFields: ['module', 'main'],
  logLevel: 'warning',
};

const builds = [
  // The o200k_base tokenizer (about 2.7 MB) runs in a worker thread started on first use: its own file.
  build({ ...common, entryPoints: ['src/core/budget/o200kWorker.ts'], outfile: 'dist/o200kWorker.js' }),
  build({ ...common, entryPoints: ['src/cli/main.ts'], outfile: 'dist/cli.js', banner: { js: '#!/usr/bin/env node' } }),
];
if (existsSync('src/extension/extension.ts')) {
  // A test build (--test-api, the desktop suite) exports a way to run a tool without approval; no other build has one.
  const testApi = process.argv.includes('--test-api');
  builds.push(build({ ...common, entryPoints: ['src/extension/extension.ts'], outfile: 'dist/extension.js', external: ['vscode'], define: { MINAGENT_TEST_API: String(testApi) } }));
}
if (existsSync('src/webview/main.ts')) {
  builds.push(build({ ...common, platform: 'browser', target: 'es2022', format: 'iife', mainFields: ['browser', 'module', 'main'], entryPoints: ['src/webview/main.ts'], outfile: 'dist/webview.js' }));
}
await Promise.all(builds);
chmodSync('dist/cli.js', 0o755);
