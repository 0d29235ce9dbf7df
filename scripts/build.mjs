// Bundles the CLI, the extension, the webview and the tokenizer worker with esbuild. `tsc` only type-checks.
import { build } from 'esbuild';
import { chmodSync, copyFileSync, cpSync, readFileSync } from 'node:fs';

/** What `minagent --version` prints. */
const { version } = JSON.parse(readFileSync('package.json', 'utf8'));
const production = process.argv.includes('--production') || process.env.NODE_ENV === 'production';
// The test-only hooks, each in the builds of the suite that needs it and in no other:
// --test-api (the desktop suite) exports a way to run a tool without approval;
// --server-report or MINAGENT_SERVER_REPORT=1 (the e2e suite's package) writes the servers' report (testReport.ts).
const testApi = process.argv.includes('--test-api');
const serverReport = process.argv.includes('--server-report') || process.env.MINAGENT_SERVER_REPORT === '1';
/** Modules that only a build with their hook may contain. */
const TEST_ONLY = { 'src/extension/testReport.ts': serverReport };
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
  metafile: true,
};

// The sandbox library (Anthropic's sandbox-runtime) is loaded when a sandboxed server first starts,
// from its own ES module (it finds its seccomp helper beside itself, in dist/vendor/), so the
// extension's and the CLI's bundles do not carry it.
const sandboxLibrary = '@anthropic-ai/sandbox-runtime';
const results = await Promise.all([
  // The o200k_base tokenizer (about 2.7 MB) runs in a worker thread started on first use: its own file.
  build({ ...common, entryPoints: ['src/core/budget/o200kWorker.ts'], outfile: 'dist/o200kWorker.js' }),
  // A result's check against its tool's outputSchema (a server's schema and data) runs in a worker the host can stop.
  build({ ...common, entryPoints: ['src/core/mcp/tools/outputCheckWorker.ts'], outfile: 'dist/outputCheckWorker.js' }),
  build({
    ...common,
    entryPoints: ['src/cli/main.ts'],
    outfile: 'dist/cli.js',
    external: [sandboxLibrary],
    banner: { js: '#!/usr/bin/env node' },
    define: { MINAGENT_VERSION: JSON.stringify(version) },
  }),
  build({
    ...common,
    entryPoints: ['src/extension/extension.ts'],
    outfile: 'dist/extension.js',
    external: ['vscode', sandboxLibrary],
    define: { MINAGENT_TEST_API: String(testApi), MINAGENT_SERVER_REPORT: String(serverReport) },
  }),
  build({
    ...common,
    platform: 'browser',
    target: 'es2022',
    format: 'iife',
    mainFields: ['browser', 'module', 'main'],
    entryPoints: ['src/webview/main.ts'],
    outfile: 'dist/webview.js',
  }),
  build({
    ...common,
    entryPoints: [sandboxLibrary],
    outfile: 'dist/sandbox.mjs',
    format: 'esm',
    mainFields: ['module', 'main'],
    // Its CommonJS dependencies require Node's modules at run time.
    // The library protects the names a shell, git or an editor obeys (.bashrc, .gitconfig, .mcp.json,
    // .claude, ...) below the host's working directory, holding an absent one's place with an empty
    // file while any sandbox runs: for the CLI, or an editor started with `code .`, that is the user's
    // folder, which showed a dozen such files (for good, once the host was killed). A server's own
    // folders are protectedPaths' work (src/core/mcp/sandbox/protectedPaths.ts), so the library sees
    // `/` as the host's working directory: nothing there is writable in a sandbox, and nothing is made.
    banner: {
      js: "import { createRequire as __minagentRequire } from 'node:module'; const require = __minagentRequire(import.meta.url); const __minagentLibraryCwd = () => '/';",
    },
    define: { 'process.cwd': '__minagentLibraryCwd' },
  }),
  // An app's editor tab: one framed app and its relay.
  build({
    ...common,
    platform: 'browser',
    target: 'es2022',
    format: 'iife',
    entryPoints: ['src/webview/appTab.ts'],
    outfile: 'dist/appTab.js',
  }),
]);
chmodSync('dist/cli.js', 0o755);
// Beside the bundles: the preload of a sandboxed Node server, and the library's seccomp helpers.
copyFileSync('src/core/mcp/sandbox/netPreload.cjs', 'dist/netPreload.cjs');
copyFileSync('src/core/mcp/sandbox/readNotes.cjs', 'dist/readNotes.cjs');
cpSync(`node_modules/${sandboxLibrary}/vendor/seccomp`, 'dist/vendor/seccomp', {
  recursive: true,
  filter: (src) => !src.endsWith('.ts'),
});

// What a bundle contains, by the bundler's own account: a module tree-shaken away adds no bytes.
const leaks = results.flatMap((r) =>
  Object.entries(r.metafile.outputs).flatMap(([out, { inputs }]) =>
    Object.entries(TEST_ONLY)
      .filter(([file, allowed]) => !allowed && (inputs[file]?.bytesInOutput ?? 0) > 0)
      .map(([file]) => `${file} in ${out}`),
  ),
);
if (leaks.length) {
  console.error(`build: a test-only module reached a bundle built without its hook: ${leaks.join(', ')}`);
  process.exit(1);
}
