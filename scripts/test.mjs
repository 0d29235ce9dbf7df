// The README's test command: builds, runs every suite under node:test, then checks that no
// process started by the tests is still alive. Every process the tests start inherits a marker
// variable, so leftovers are found in /proc however they were started or reparented.
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { ensureNodeModules } from './setup.mjs';

const marker = `MINAGENT_TEST_RUN=${randomUUID()}`;
const env = { ...process.env, MINAGENT_TEST_RUN: marker.split('=')[1] };

function run(cmd, args, options = {}) {
  const r = spawnSync(cmd, args, { stdio: 'inherit', env, ...options });
  return r.status ?? 1;
}

function leftovers() {
  const found = [];
  if (process.platform !== 'linux') return found;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid) || Number(pid) === process.pid) continue;
    try {
      const environ = readFileSync(`/proc/${pid}/environ`, 'latin1');
      if (!environ.split('\0').includes(marker)) continue;
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (/^[ZX]/.test(stat.slice(stat.lastIndexOf(')') + 2))) continue;
      found.push({ pid: Number(pid), cmd: readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim() });
    } catch {
      // gone, or not ours to read
    }
  }
  return found;
}

const filesOf = (dir) => readdirSync(`test/${dir}`).filter((f) => f.endsWith('.test.ts')).sort().map((f) => `test/${dir}/${f}`);
const suites = process.argv.slice(2).length ? process.argv.slice(2) : ['unit', 'integration', 'reliability', 'e2e'];
const nodeTest = (files, concurrency) => run(process.execPath, ['--import', 'tsx', '--test', `--test-concurrency=${concurrency}`, ...files]);

ensureNodeModules();
let status = run(process.execPath, ['scripts/build.mjs']);
if (status === 0) status = run(process.execPath, ['node_modules/typescript/bin/tsc', '-p', '.']);
const fast = suites.filter((s) => s !== 'e2e').flatMap(filesOf);
if (status === 0 && fast.length) status = nodeTest(fast, 2);
if (suites.includes('e2e')) {
  // A real VS Code: install what it needs (cached outside the checkout), package the extension,
  // then run one test at a time (each holds a code-server and a browser).
  const { ensureE2e } = await import('./e2e-setup.mjs');
  const left = ensureE2e();
  if (left.length) console.error(`e2e prerequisites still missing:\n  ${left.join('\n  ')}`);
  const packaged = run('npm', ['run', '--silent', 'package'], { stdio: ['ignore', 'ignore', 'inherit'] });
  if (packaged !== 0) status ||= packaged;
  const e2eStatus = nodeTest(filesOf('e2e'), 1);
  status ||= e2eStatus;
}

await new Promise((r) => setTimeout(r, 300));
const orphans = leftovers();
if (orphans.length) {
  console.error(`\norphan check: FAILED, ${orphans.length} process(es) started by the tests are still alive:`);
  for (const o of orphans) {
    console.error(`  ${o.pid} ${o.cmd}`);
    try {
      process.kill(o.pid, 'SIGKILL');
    } catch {}
  }
  status ||= 1;
} else {
  console.log('orphan check: no process started by the tests is still alive');
}
process.exit(status);
