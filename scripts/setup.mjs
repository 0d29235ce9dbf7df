// Set-up that the README's two commands run first, so they work on a fresh clone:
// installs the locked npm dependencies when node_modules is missing or was installed from another lock file.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';

export function ensureNodeModules(folder = '.', extra = []) {
  const marker = `${folder}/node_modules/.package-lock.json`;
  // What was installed, by the lock file's content: a checkout whose lock file is newer on disk but the same (a git
  // worktree beside the one that installed, sharing its node_modules) installs nothing.
  const stamp = `${folder}/node_modules/.minagent-lock-sha256`;
  const lock = createHash('sha256')
    .update(readFileSync(`${folder}/package-lock.json`))
    .digest('hex');
  const stamped = () => writeFileSync(stamp, `${lock}\n`);
  if (existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === lock) return;
  if (existsSync(marker) && statSync(marker).mtimeMs >= statSync(`${folder}/package-lock.json`).mtimeMs) {
    stamped();
    return;
  }
  console.error(`setup: installing npm dependencies (npm ci${folder === '.' ? '' : ` in ${folder}`})...`);
  // Errors only: a dev tool's engine note (EBADENGINE: the conformance suite's packages declare Node 22;
  // it runs on the e2e cache's Node 24) is noise on a user's first run, and npm ci still fails loudly.
  const r = spawnSync('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error', ...extra], {
    cwd: folder,
    stdio: 'inherit',
    shell: process.platform === 'win32',
  });
  if (r.status !== 0) {
    console.error(`setup: npm ci failed${folder === '.' ? '' : ` in ${folder}`}`);
    process.exit(r.status ?? 1);
  }
  stamped();
}

/**
 * The Node flags every test file runs with, before scripts/testFiles.mjs (which adds --test-force-exit):
 * a default timeout for each test (test/timeouts.cjs) and TypeScript through tsx.
 */
export const TEST_FLAGS = ['--require', './test/timeouts.cjs', '--import', 'tsx'];

export function run(cmd, args, options = {}) {
  const r = spawnSync(cmd, args, { stdio: 'inherit', ...options });
  return r.status ?? 1;
}

/** What a sandboxed server needs on Linux (Anthropic's sandbox-runtime): bubblewrap, socat, ripgrep. */
const SANDBOX_TOOLS = [
  ['bwrap', 'bubblewrap'],
  ['socat', 'socat'],
  ['rg', 'ripgrep'],
];

function onPath(cmd) {
  return (process.env.PATH ?? '').split(':').some((dir) => dir && existsSync(`${dir}/${cmd}`));
}

/**
 * Installs the sandbox's Debian packages when one is missing (as root, with apt-get); otherwise says
 * what to install. Servers that should run in a sandbox do not start without one.
 */
export function ensureSandboxTools() {
  if (process.platform !== 'linux') return;
  const packages = SANDBOX_TOOLS.filter(([cmd]) => !onPath(cmd)).map(([, pkg]) => pkg);
  if (!packages.length) return;
  if (process.getuid?.() !== 0 || !onPath('apt-get')) {
    console.error(
      `setup: sandboxed servers need ${packages.join(', ')}: install them (e.g. sudo apt-get install -y ${packages.join(' ')})`,
    );
    return;
  }
  console.error(`setup: installing ${packages.join(', ')} for sandboxed servers (apt-get)...`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  // Another apt-get (the system's own) may hold dpkg's lock for a while: waited for, not failed on.
  const lock = ['-o', 'DPkg::Lock::Timeout=300'];
  if (
    run('apt-get', [...lock, 'update', '-qq'], { env }) !== 0 ||
    run('apt-get', [...lock, 'install', '-y', '-qq', ...packages], { env }) !== 0
  ) {
    console.error(`setup: apt-get install ${packages.join(' ')} failed (its output is above)`);
  }
}
