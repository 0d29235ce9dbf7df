// Set-up that the README's two commands run first, so they work on a fresh clone:
// installs the locked npm dependencies when node_modules is missing or older than the lockfile.
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';

export function ensureNodeModules(folder = '.', extra = []) {
  const marker = `${folder}/node_modules/.package-lock.json`;
  if (existsSync(marker) && statSync(marker).mtimeMs >= statSync(`${folder}/package-lock.json`).mtimeMs) return;
  console.error(`setup: installing npm dependencies (npm ci${folder === '.' ? '' : ` in ${folder}`})...`);
  // Errors only: a dev tool's engine note (EBADENGINE: the conformance suite's packages declare Node 22;
  // it runs on the e2e cache's Node 24) is noise on a user's first run, and npm ci still fails loudly.
  const r = spawnSync('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error', ...extra], { cwd: folder, stdio: 'inherit', shell: process.platform === 'win32' });
  if (r.status !== 0) {
    console.error(`setup: npm ci failed${folder === '.' ? '' : ` in ${folder}`}`);
    process.exit(r.status ?? 1);
  }
}

export function run(cmd, args, options = {}) {
  const r = spawnSync(cmd, args, { stdio: 'inherit', ...options });
  return r.status ?? 1;
}
