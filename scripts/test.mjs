// The README's test command: builds, runs every suite under node:test, then checks that no
// process started by the tests is still alive. Every process the tests start inherits a marker
// variable, so leftovers are found in /proc however they were started or reparented.
import { spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, statSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import { setPriority } from 'node:os';
import { ensureNodeModules, ensureSandboxTools, TEST_FLAGS } from './setup.mjs';

const marker = `MINAGENT_TEST_RUN=${randomUUID()}`;
// The CLI's servers run as the user's own (unsandboxed) in the suites, as the editor's do under the
// e2e profile's settings: the sandbox's own tests turn it on where they test it.
const downloadEnv = {
  ...process.env,
  MINAGENT_TEST_RUN: marker.split('=')[1],
  MINAGENT_SANDBOX_WORKSPACE_SERVERS: 'off',
};
// Node 20 reads and parses every certificate of NODE_EXTRA_CA_CERTS as it starts (Node 22 and later
// when TLS first needs one). These machines set it to the whole system bundle, for npm's downloads:
// 0.037 CPU-s more per start (node -e 0: 0.053 against 0.017), and the suites start ~1,300 Node
// processes. Nothing the tests start goes out to the internet (a test that serves TLS names its own
// CA), so they run without it; the one step here that downloads, the e2e tools' install, keeps it.
const { NODE_EXTRA_CA_CERTS: _machineCas, ...env } = downloadEnv;

/**
 * A line to stdout at once: through npm stdout is a pipe, and console.log's writes waited behind the
 * stages run with spawnSync, so every "took" line came out at the end.
 */
function say(text, end = '\n') {
  for (let rest = Buffer.from(text + end); rest.length; ) {
    try {
      rest = rest.subarray(writeSync(1, rest));
    } catch (err) {
      if (err.code !== 'EAGAIN') throw err; // a full pipe: its reader catches up
    }
  }
}
const began = Date.now();
function run(cmd, args, options = {}) {
  const r = spawnSync(cmd, args, { stdio: 'inherit', env, ...options });
  return r.status ?? 1;
}
/**
 * A command run beside others, its output kept in a log file and printed when it is done (so two
 * stages' lines never interleave); resolves to its exit status.
 */
function runBeside(what, cmd, args, options = {}) {
  mkdirSync('.test-artifacts', { recursive: true });
  const logFile = `.test-artifacts/${what.replace(/\W+/g, '-')}.log`;
  const out = openSync(logFile, 'w');
  const t0 = Date.now();
  const child = spawn(cmd, args, { env, stdio: ['ignore', out, out], ...options });
  return new Promise((resolve) => {
    const done = (status) => {
      closeSync(out);
      // Its exit is seen only once a stage run meanwhile (spawnSync) is over: its last output tells when it ended.
      const took = Math.round((statSync(logFile).mtimeMs - t0) / 1000);
      return {
        status,
        print: () => {
          say(readFileSync(logFile, 'utf8'), '');
          say(`npm test: ${what} took ${took} s (beside the others, until its last line)`);
        },
      };
    };
    child.on('error', () => resolve(done(127)));
    child.on('exit', (code) => resolve(done(code ?? 1)));
  });
}
/** One line per stage with its wall time, so a slow stage shows in any CI log. */
function timed(what, fn) {
  const t0 = Date.now();
  const status = fn();
  say(
    `npm test: ${what} took ${Math.round((Date.now() - t0) / 1000)} s (${Math.round((Date.now() - began) / 1000)} s in all)`,
  );
  return status;
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

// Three VS Codes at a time (each test has its own code-server, profile, browser and ports): measured
// on 2 cores, two at a time left a fifth of the CPU idle while tests waited on events; three keep it
// busy (95%) and the e2e stage took 384 s against 450-530 s.
const E2E_CONCURRENCY = Number(process.env.MINAGENT_E2E_CONCURRENCY ?? 3);
// The fast suites' files at a time: most of their time is spent waiting on the servers they start.
// Measured on 2 cores (three alternating runs each): four at a time 167-175 s at ~75% of the CPU, six
// 152-160 s.
const FAST_CONCURRENCY = Number(process.env.MINAGENT_FAST_CONCURRENCY ?? 6);
const listed = (dir) =>
  readdirSync(`test/${dir}`)
    .filter((f) => f.endsWith('.test.ts'))
    .sort()
    .map((f) => `test/${dir}/${f}`);
/**
 * A test file that imports others (`import './apps.test';`) runs their tests in its own process, on one
 * editor (test/e2e/sharedMockChat.test.ts): those files are not run again on their own.
 */
const runByOthers = (files) =>
  new Set(
    files.flatMap((f) =>
      [...readFileSync(f, 'utf8').matchAll(/^import '\.\/([\w.-]+\.test)';$/gm)].map((m) =>
        f.replace(/[^/]+$/, `${m[1]}.ts`),
      ),
    ),
  );
const filesOf = (dir) => {
  const files = listed(dir);
  const others = runByOthers(files);
  return files.filter((f) => !others.has(f));
};
// The e2e files that take longest start first, so the three at a time end together instead of one long
// file running alone at the end (scripts/testFiles.mjs keeps this order; `node --test` sorted the files by
// path, so until 2026-12-05 the three shared files started last, at 178-224 s of a 524 s stage). A warm run's
// figures, three at a time (before extension's discovery test went to mcpFiles and its untrusted one to
// security, each on an editor those files already open): the three shared files 278-300 s, extension 182
// (three tests), security 135, demo 88, chat turns 86, inputs 62, set-up 36.
const E2E_LONGEST = [
  'sharedSecurityChat',
  'sharedMockChat',
  'sharedDemoChat',
  'security',
  'demo',
  'chatTurns',
  'extension',
  'mcpFiles',
];
// The same for the fast stage (a warm run, six at a time, process accounting): the reliability matrix 110 s
// (its stdio cases twice, once sandboxed, and the soak; waiting on servers most of it), then the CLI files
// 38-88 s. Sorted by path it started at 154 s and ran alone to the end with the CPU half idle.
const FAST_LONGEST = [
  'reliability',
  'cli',
  'cliFeatures',
  'cliFailed',
  'cliTerminal',
  'cliServerAsks',
  'cliRegistry',
  'oauthAttacks',
  'oauth',
  'cliApprove',
  'eras',
  'close',
  'unitSuite',
  'sandboxNonRoot',
  'badProbe',
  'faults',
  'cliSandbox',
];
const longestFirst = (files, longest = E2E_LONGEST) => [...files].sort((a, b) => rank(a, longest) - rank(b, longest));
const rank = (file, longest) => {
  const i = longest.indexOf(file.replace(/^.*\/|\.test\.ts$|\.cjs$/g, ''));
  return i === -1 ? longest.length : i;
};
const suites = process.argv.slice(2).length
  ? process.argv.slice(2)
  : ['unit', 'integration', 'reliability', 'conformance', 'e2e'];
// test/timeouts.cjs gives every test a timeout (a case may set its own): one hung child fails one
// test, never the whole run.
/**
 * On a fresh machine the e2e cache (Node 24, code-server; the conformance suite runs on that Node
 * too) takes ~105 s to install alone (105 CPU-s), 6-7 min beside the fast suites (measured in fresh
 * clones, at nice 10 and at the tests' priority alike: slowed by the load, not by its priority): it runs
 * beside the build and the fast suites, at nice 10 so the tests keep the CPU, its output kept in a log
 * that is printed when it fails. `done()` waits for it (in a fresh clone the e2e stage waited 20-60 s); the
 * stages that need it install whatever is still missing.
 */
async function backgroundSetup() {
  const needed = (suites.includes('conformance') || suites.includes('e2e')) && process.env.MINAGENT_SKIP_E2E !== '1';
  const { missing } = await import('./e2e-setup.mjs');
  if (!needed || !missing().length) return { done: async () => {} };
  mkdirSync('.test-artifacts', { recursive: true });
  const logFile = '.test-artifacts/e2e-setup.log';
  const out = openSync(logFile, 'w');
  const t0 = Date.now();
  say(`npm test: installing the e2e tools (Node 24, code-server) in the background; its log is ${logFile}`);
  const child = spawn(process.execPath, ['scripts/e2e-setup.mjs'], { env: downloadEnv, stdio: ['ignore', out, out] });
  try {
    setPriority(child.pid, 10);
  } catch {
    // not allowed here: it competes at the tests' priority
  }
  const exited = new Promise((resolve) => {
    child.on('error', () => resolve(127));
    child.on('exit', (code) => resolve(code ?? 1));
  });
  return {
    async done() {
      const code = await exited;
      closeSync(out);
      say(
        `npm test: the e2e tools' install ${code === 0 ? 'finished' : `FAILED (exit ${code})`} after ${Math.round((Date.now() - t0) / 1000)} s`,
      );
      if (code !== 0) process.stderr.write(readFileSync(logFile, 'utf8'));
    },
  };
}
// In the order given (scripts/testFiles.mjs: `node --test` sorts its files by path).
const nodeTest = (files, concurrency) =>
  run(process.execPath, [...TEST_FLAGS, 'scripts/testFiles.mjs', `--concurrency=${concurrency}`, ...files]);
const failed = (what) => console.error(`\nnpm test: FAILED: ${what}`);

// The e2e tools need nothing from node_modules: their install starts first, beside npm ci.
// The sandbox's Debian packages first, synchronously: the background set-up may run apt-get too
// (Chromium), and two apt-get at once fail on dpkg's lock.
ensureSandboxTools();
const setup = await backgroundSetup();
ensureNodeModules();
let status = run(process.execPath, ['scripts/build.mjs']);
if (status !== 0) failed('the build');
const wantE2e = suites.includes('e2e') && process.env.MINAGENT_SKIP_E2E !== '1';
// The package with the servers' report, which the e2e tests read (scripts/build.mjs; the shipped one
// has none): made beside the type check, which reads no build output. The suites then run on its
// (production) build of dist/, as users do.
const packaging =
  status === 0 && wantE2e
    ? runBeside('npm run package', 'npm', ['run', '--silent', 'package'], {
        env: { ...env, MINAGENT_SERVER_REPORT: '1' },
      })
    : undefined;
if (status === 0) status = run(process.execPath, ['node_modules/typescript/bin/tsc', '-p', '.']);
if (status !== 0) failed('the type check');
// The formatter and the linter (biome.json): a file not as the formatter writes it, or a lint error, fails the run.
if (status === 0)
  status = run(process.execPath, ['node_modules/@biomejs/biome/bin/biome', 'check', '--error-on-warnings', '.']);
if (status !== 0) failed('the format and lint check (npm run format writes the formatting)');
const pack = await packaging;
if (pack && pack.status !== 0) {
  pack.print();
  failed('npm run package');
  status ||= pack.status;
}
// The unit files run in one process (test/unitSuite.cjs; a process each cost six times the CPU), but
// for those that say they need one of their own: they count the event loop's iterations and what work
// fits in one, so they run first, one at a time, before the fast stage keeps both cores busy (in its
// midst, preempted, the inbox's budget counted less work per send and one iteration made 6 sends of 5).
const { ownProcessFiles } = createRequire(import.meta.url)('../test/unitSuite.cjs');
const alone = suites.includes('unit') ? ownProcessFiles() : [];
const fastFiles = (suite) => (suite === 'unit' ? ['test/unitSuite.cjs'] : filesOf(suite));
const fast = longestFirst(suites.filter((s) => s !== 'e2e' && s !== 'conformance').flatMap(fastFiles), FAST_LONGEST);
// The fixture servers bundled once here (test/fixtureServers.ts), not by each of the files that start at once.
if (status === 0) {
  status = run(process.execPath, [
    '--import',
    'tsx',
    '--eval',
    "require('./test/fixtureServers').fixtureServers(process.cwd())",
  ]);
  if (status !== 0) failed('bundling the fixture servers (test/fixtureServers.ts)');
}
let aloneStatus = 0;
if (status === 0 && alone.length) {
  aloneStatus = timed('the unit files that time the event loop, one at a time', () => nodeTest(alone, 1));
  if (aloneStatus !== 0) failed(`a test of ${alone.join(', ')} (its report is above)`);
}
if (status === 0 && fast.length) {
  status = timed('unit, integration and reliability', () => nodeTest(fast, FAST_CONCURRENCY));
  if (status !== 0)
    failed(`a test of ${suites.filter((s) => s !== 'e2e' && s !== 'conformance').join(', ')} (its report is above)`);
}
status ||= aloneStatus;
// The MCP conformance suite's client scenarios against the CLI (conformance/scenarios/*.json), on
// the Node 24 of the e2e cache (installed first if missing). Its verdict per scenario is printed.
if (suites.includes('conformance') || suites.includes('e2e')) await setup.done();
// Conformance runs beside the e2e suite (its scenarios are small processes), its report printed after it.
// Not the scenarios that judge the client's timers ("quiet" in their lists): fifty servers starting in an
// e2e test made a reconnect due in 500 ms come 860 ms late. Those run after the e2e suite, alone.
// With the machine's CAs: it installs Node 24 itself if the e2e tools are still missing, and its processes
// run on Node 24, which reads them only when TLS needs one.
const conformance = suites.includes('conformance')
  ? runBeside('conformance', process.execPath, ['scripts/conformance.mjs'], {
      env: { ...downloadEnv, MINAGENT_CONFORMANCE_QUIET: 'skip' },
    })
  : undefined;
if (suites.includes('e2e')) {
  if (process.env.MINAGENT_SKIP_E2E === '1') {
    // The one deliberate opt-out: loud, so a log never reads as if a real VS Code was tried.
    console.error(
      `\n${'!'.repeat(100)}\n!! MINAGENT_SKIP_E2E=1: the e2e suite (a real VS Code) did NOT run. Nothing about the extension in a real editor was checked.\n${'!'.repeat(100)}\n`,
    );
  } else {
    // A real VS Code: install what it needs (cached outside the checkout), then the tests on the
    // package made above, three at a time.
    const { ensureE2e } = await import('./e2e-setup.mjs');
    const left = await ensureE2e();
    if (left.length) {
      failed(`the e2e suite cannot run, missing: ${left.join('; ')}`);
      status ||= 1;
    } else {
      const packaged = pack?.status ?? 1;
      const e2eStatus =
        packaged === 0 ? timed('e2e', () => nodeTest(longestFirst(filesOf('e2e')), E2E_CONCURRENCY)) : packaged;
      if (e2eStatus !== 0 && packaged === 0)
        failed('an e2e test (its report is above; screenshots in .test-artifacts/)');
      status ||= e2eStatus;
    }
  }
}

if (conformance) {
  const { status: verdict, print } = await conformance;
  print();
  const quiet = timed('conformance, the timing scenarios alone', () =>
    run(process.execPath, ['scripts/conformance.mjs'], { env: { ...downloadEnv, MINAGENT_CONFORMANCE_QUIET: 'only' } }),
  );
  if (verdict !== 0 || quiet !== 0) failed("a conformance scenario (the suite's report is above)");
  status ||= verdict || quiet;
}

// Processes that are closing get up to 5 s to finish; what is still there then is an orphan.
let orphans = leftovers();
for (const until = Date.now() + 5_000; orphans.length && Date.now() < until; orphans = leftovers())
  await new Promise((r) => setTimeout(r, 100));
if (orphans.length) {
  console.error(`\norphan check: FAILED, ${orphans.length} process(es) started by the tests are still alive:`);
  for (const o of orphans) {
    console.error(`  ${o.pid} ${o.cmd}`);
    try {
      process.kill(o.pid, 'SIGKILL');
    } catch {}
  }
  status ||= 1;
  failed('the orphan check');
} else {
  say('orphan check: no process started by the tests is still alive');
}
process.exit(status);
