// Nested npm installs (the e2e cache) started from inside an npm script.
//
// `npm test` and `npm run demo` run under the outer npm, which puts facts about itself into the
// environment of every script: `npm_config_user_agent` ("npm/11 node/v20 ..."), `npm_execpath`,
// `NODE`, `npm_config_local_prefix` (this checkout!), its `node_modules/.bin` on PATH. A nested
// `npm install` that inherits them installs for the wrong Node: code-server's postinstall reads the
// Node version from the user agent and refuses. So a nested install gets the environment a user's
// shell would give it, plus exactly what the set-up needs (the Node to run on, its headers).
import { spawn, spawnSync } from 'node:child_process';
import { delimiter } from 'node:path';

/** What the outer npm set about itself and the outer project: never handed to a nested install. */
const OUTER_NPM =
  /^(npm_config_(user_agent|local_prefix|global_prefix|prefix|call|npm_version|node_gyp|nodedir|argv)|npm_execpath|npm_node_execpath|npm_command|npm_lifecycle_.*|npm_package_.*|INIT_CWD|NODE)$/i;

/**
 * The environment for an npm install that must run on the Node in `nodeBin` (a folder holding
 * `node`), building native modules against the headers in `nodedir`.
 */
export function nestedNpmEnv({ nodeBin, nodedir, base = process.env } = {}) {
  const env = {};
  for (const [k, v] of Object.entries(base)) if (!OUTER_NPM.test(k) && v !== undefined) env[k] = v;
  // npm prepends the outer project's node_modules/.bin folders and its node-gyp shim to PATH.
  const path = (base.PATH ?? '').split(delimiter).filter((p) => p && !/node_modules[\\/]\.bin$|node-gyp-bin$/.test(p));
  env.PATH = [nodeBin, ...path].filter(Boolean).join(delimiter);
  if (nodedir) env.npm_config_nodedir = nodedir;
  env.npm_config_audit = 'false';
  env.npm_config_fund = 'false';
  env.npm_config_update_notifier = 'false';
  return env;
}

/**
 * `npm install [SPECS]` in `cwd` (the project there, plus SPECS without saving them), on the Node in
 * `nodeBin`. Resolves to npm's exit status; npm's own output goes to this process's stderr.
 * `unoptimized` compiles native modules at -O0.
 */
export function nestedNpmInstall({ cwd, specs = [], nodeBin, nodedir, unoptimized = false }) {
  // `npm` is a Node script (`#!/usr/bin/env node`): with nodeBin first on PATH it, the install
  // scripts and node-gyp all run on that Node.
  const env = nestedNpmEnv({ nodeBin, nodedir });
  // Native modules compiled without optimisation (node-gyp's makefiles put these flags after the
  // modules' own -O3): for test tools, where the compile costs more than the code will ever run.
  if (unoptimized) Object.assign(env, { CFLAGS: '-O0', CXXFLAGS: '-O0' });
  const args = ['install', ...(specs.length ? ['--no-save', ...specs] : [])];
  return new Promise((resolve) => {
    const child = spawn('npm', args, { cwd, env, stdio: ['ignore', 2, 2] });
    child.on('error', (e) => {
      process.stderr.write(`npm could not start: ${e.message}\n`);
      resolve(127);
    });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 128 : 1)));
  });
}

/** The version a Node binary reports, e.g. "v24.22.3", or undefined. */
export function nodeVersion(nodeBin) {
  const r = spawnSync(`${nodeBin}/node`, ['--version'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : undefined;
}
