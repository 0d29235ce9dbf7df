// `npm run conformance [-- NAME...]`: runs the MCP conformance suite's client scenarios against
// MinAgent's CLI (through conformance/client.mjs) and prints the suite's verdict per scenario.
// Exits 1 if any scenario fails (or cannot run).
//
// The scenarios are listed in conformance/scenarios/*.json: EVERY file there is read, so each
// feature adds its own list without touching the others. A file:
//   { "package": "conformance-next",        a devDependency alias of @modelcontextprotocol/conformance
//                                           (or "@modelcontextprotocol/conformance" with "version")
//     "specVersion": "2026-07-28",          optional: the suite's --spec-version
//     "client": "conformance/auth-client.mjs",  optional: the client script (default conformance/client.mjs)
//     "scenarios": [ { "name": "tools_call",
//                      "steps": [["call", "add_numbers", {"a": 5, "b": 3}]] } ] }
// "steps" are the CLI commands the client runs for that scenario (default: [["tools"]]; "cli": [...]
// is one command); an object argument is passed as JSON text. NAME arguments run only the scenarios (or list files)
// named. A list with "every": true runs also every client scenario the suite itself lists at its specVersion
// (`list --client --spec-version`) that no list names, with the default steps and the client its "clients" map
// gives by name prefix (e.g. {"auth/": "conformance/auth-client.mjs"}): a scenario a later suite adds runs
// without an edit.
//
// The suite needs Node 22 or newer: it runs on the Node 24 of the e2e cache (scripts/e2e-setup.mjs
// installs it when it is missing), and so does the client it starts.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const LISTS = join(ROOT, 'conformance', 'scenarios');
const SCENARIO_TIMEOUT_MS = 60_000;
const CONCURRENCY = 2;
const { paths } = createRequire(import.meta.url)('./e2e-paths.cjs');

const SUITE = '@modelcontextprotocol/conformance';

/**
 * The installed copies of the suite, by dependency name (an npm alias such as `conformance-next`,
 * or the package's own name) with the version each one is.
 */
function installedSuites() {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  const deps = { ...pkg.dependencies, ...pkg.devDependencies };
  const out = [];
  for (const [key, spec] of Object.entries(deps)) {
    if (key !== SUITE && !(typeof spec === 'string' && spec.startsWith(`npm:${SUITE}@`))) continue;
    try {
      const installed = JSON.parse(readFileSync(join(ROOT, 'node_modules', key, 'package.json'), 'utf8'));
      if (installed.name === SUITE) out.push({ key, version: installed.version });
    } catch {
      // listed but not installed: a list naming it says so below
    }
  }
  return out;
}

/**
 * Every scenario of every list file, checked; a bad file is named with what is wrong in it.
 * "package" is a dependency name (an alias), or the suite's own name with "version"; a scenario
 * is a name, or {name, steps: [[...], ...]} or {name, cli: [...]} (one command); `"quiet": true` for one
 * whose verdict depends on the client's timers (run when the machine is quiet).
 */
export function readLists(dir = LISTS) {
  const suites = installedSuites();
  const runs = [];
  const problems = [];
  /** The lists that run every scenario their suite lists: {file, package, version, specVersion, clients}. */
  const every = [];
  const files = existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => f.endsWith('.json'))
        .sort()
    : [];
  if (!files.length) problems.push(`no scenario lists in ${dir}`);
  for (const file of files) {
    const where = `conformance/scenarios/${file}`;
    let list;
    try {
      list = JSON.parse(readFileSync(join(dir, file), 'utf8'));
    } catch (err) {
      problems.push(`${where}: not JSON (${err.message})`);
      continue;
    }
    const suite =
      suites.find((s) => s.key === list?.package && (list.version === undefined || list.version === s.version)) ??
      (list?.package === SUITE ? suites.find((s) => s.version === list.version) : undefined);
    if (!suite) {
      const have = suites.map((s) => `${s.key} (${s.version})`).join(', ') || 'none';
      problems.push(
        `${where}: "package" ${JSON.stringify(list?.package)}${list?.version ? ` at version ${JSON.stringify(list.version)}` : ''} is not an installed copy of ${SUITE} (installed: ${have})`,
      );
      continue;
    }
    if (
      list.specVersion !== undefined &&
      (typeof list.specVersion !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(list.specVersion))
    ) {
      problems.push(`${where}: "specVersion" must be a date like 2026-07-28 (got ${JSON.stringify(list.specVersion)})`);
      continue;
    }
    if (!Array.isArray(list.scenarios) || !list.scenarios.length) {
      problems.push(`${where}: "scenarios" must be a non-empty array`);
      continue;
    }
    if (
      list.client !== undefined &&
      !(
        typeof list.client === 'string' &&
        /^conformance\/[\w.-]+\.mjs$/.test(list.client) &&
        existsSync(join(ROOT, list.client))
      )
    ) {
      problems.push(`${where}: "client" must name a script in conformance/ (got ${JSON.stringify(list.client)})`);
      continue;
    }
    if (list.every !== undefined && list.every !== true) {
      problems.push(`${where}: "every" must be true when given`);
      continue;
    }
    const clients = list.clients ?? {};
    const badClient = Object.values(clients).find(
      (c) => !(typeof c === 'string' && /^conformance\/[\w.-]+\.mjs$/.test(c) && existsSync(join(ROOT, c))),
    );
    if (typeof clients !== 'object' || badClient !== undefined) {
      problems.push(`${where}: "clients" must map name prefixes to scripts in conformance/`);
      continue;
    }
    if (list.every) {
      if (!list.specVersion) {
        problems.push(`${where}: "every" needs a "specVersion"`);
        continue;
      }
      every.push({
        file,
        package: suite.key,
        version: suite.version,
        specVersion: list.specVersion,
        client: list.client ?? 'conformance/client.mjs',
        clients,
      });
    }
    const isArgs = (a) =>
      Array.isArray(a) &&
      a.length > 0 &&
      a.every((x) => typeof x === 'string' || (typeof x === 'object' && x !== null));
    list.scenarios.forEach((s, i) => {
      const name = typeof s === 'string' ? s : s?.name;
      if (typeof name !== 'string' || !/^[\w./-]+$/.test(name))
        return problems.push(`${where}: scenario ${i + 1} has no valid "name"`);
      const steps = typeof s === 'string' ? undefined : (s.steps ?? (s.cli !== undefined ? [s.cli] : undefined));
      if (steps !== undefined && !(Array.isArray(steps) && steps.every(isArgs)))
        return problems.push(
          `${where}: scenario "${name}": "steps" must be an array of argument arrays ("cli": one argument array)`,
        );
      if (typeof s === 'object' && s.quiet !== undefined && typeof s.quiet !== 'boolean')
        return problems.push(`${where}: scenario "${name}": "quiet" must be true or false`);
      runs.push({
        file,
        package: suite.key,
        version: suite.version,
        specVersion: list.specVersion,
        client: clientFor(name, clients, list.client),
        name,
        steps: steps ?? [['tools']],
        quiet: typeof s === 'object' && s.quiet === true,
      });
    });
  }
  return { runs, problems, every };
}

/** The client script of a scenario: by the longest name prefix of `clients`, else the list's, else the default. */
function clientFor(name, clients, listClient) {
  const prefix = Object.keys(clients)
    .filter((p) => name.startsWith(p))
    .sort((a, b) => b.length - a.length)[0];
  return prefix !== undefined ? clients[prefix] : (listClient ?? 'conformance/client.mjs');
}

/** The client scenarios a suite lists at a revision (`  - name [versions]` lines of `list --client`). */
export function listedScenarios(output) {
  return [...output.matchAll(/^\s+- ([\w./-]+) \[[^\]]*\]$/gm)].map((m) => m[1]);
}

/**
 * The runs of the lists with "every": each scenario the suite lists at that revision that no list of the same suite
 * and revision names, with the default steps; a list that names none is a problem (the suite printed no list).
 */
async function everyListed(node, every, runs, problems) {
  const added = [];
  for (const e of every) {
    const suite = join(ROOT, 'node_modules', e.package, 'dist', 'index.js');
    const { output } = await new Promise((done) => {
      const child = spawn(node, [suite, 'list', '--client', '--spec-version', e.specVersion], {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout.on('data', (d) => (out += d));
      child.stderr.on('data', (d) => (out += d));
      child.on('close', () => done({ output: out }));
    });
    const names = listedScenarios(output);
    if (!names.length) {
      problems.push(`conformance/scenarios/${e.file}: the suite listed no client scenario at ${e.specVersion}`);
      continue;
    }
    const named = new Set(
      runs.filter((r) => r.package === e.package && r.specVersion === e.specVersion).map((r) => r.name),
    );
    for (const name of names)
      if (!named.has(name))
        added.push({
          file: e.file,
          package: e.package,
          version: e.version,
          specVersion: e.specVersion,
          client: clientFor(name, e.clients, e.client),
          name,
          steps: [['tools']],
          quiet: false,
        });
  }
  return added;
}

/** The suite's own summary lines, e.g. "Passed: 1/1, 0 failed, 0 warnings" and "OVERALL: PASSED". */
export function verdictOf(output, exitCode) {
  const clean = output.replace(/\x1b\[[0-9;]*m/g, '');
  const summary = /Passed: (\d+)\/(\d+), (\d+) failed(?:, (\d+) warnings?)?/.exec(clean);
  const overall = /OVERALL: (PASSED|FAILED)/.exec(clean)?.[1];
  const passed = exitCode === 0 && overall === 'PASSED' && summary !== null && summary[3] === '0';
  return { passed, summary: summary?.[0] ?? '(the suite printed no summary)', overall: overall ?? '(none)' };
}

async function node24() {
  const bin = join(paths.node24Bin, 'node');
  if (existsSync(bin)) return bin;
  const { ensureE2e } = await import('./e2e-setup.mjs');
  await ensureE2e({ browser: false, log: (m) => console.error(`conformance: ${m}`) });
  if (!existsSync(bin))
    throw new Error(`Node 24 is missing at ${bin} and could not be installed (run: node scripts/e2e-setup.mjs)`);
  return bin;
}

/** Runs the functions given to it, at most `size` at once. */
function pool(size) {
  let active = 0;
  const queue = [];
  const next = () => {
    if (active >= size || !queue.length) return;
    active++;
    const { fn, resolve } = queue.shift();
    fn()
      .then(resolve)
      .finally(() => {
        active--;
        next();
      });
  };
  return (fn) =>
    new Promise((resolve) => {
      queue.push({ fn, resolve });
      next();
    });
}

function runScenario(node, run) {
  const suite = join(ROOT, 'node_modules', run.package, 'dist', 'index.js');
  // The suite splits the command on spaces and appends the server URL.
  const command = `${node} ${run.client}`;
  const args = [
    suite,
    'client',
    '--command',
    command,
    '--scenario',
    run.name,
    '--timeout',
    String(SCENARIO_TIMEOUT_MS),
    ...(run.specVersion ? ['--spec-version', run.specVersion] : []),
  ];
  return new Promise((done) => {
    const child = spawn(node, args, {
      cwd: ROOT,
      env: { ...process.env, MINAGENT_CONFORMANCE_STEPS: JSON.stringify(run.steps) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('close', (code) => done({ output, code: code ?? 1 }));
    child.on('error', (err) => done({ output: `${output}\n${err.message}`, code: 1 }));
  });
}

async function main(filter) {
  const { runs: named0, problems, every } = readLists();
  for (const p of problems) console.error(`conformance: ${p}`);
  // A "quiet" scenario judges the client's timers (sse-retry: the reconnect within its retry delay): npm
  // test runs the others beside the e2e suite (MINAGENT_CONFORMANCE_QUIET=skip) and these after it, alone (=only).
  const quiet = process.env.MINAGENT_CONFORMANCE_QUIET;
  const node = await node24();
  const runs = [...named0, ...(await everyListed(node, every, named0, problems))];
  const named = filter.length
    ? runs.filter((r) => filter.includes(r.name) || filter.includes(basename(r.file, '.json')))
    : runs;
  const chosen =
    quiet === 'skip' ? named.filter((r) => !r.quiet) : quiet === 'only' ? named.filter((r) => r.quiet) : named;
  if (filter.length && !chosen.length) problems.push(`no scenario or list named ${filter.join(', ')}`);
  if (/\s/.test(node) || /\s/.test(ROOT))
    throw new Error(`the suite splits its client command on spaces: ${node} or ${ROOT} contains one`);
  if (!existsSync(join(ROOT, 'dist', 'cli.js')))
    throw new Error('dist/cli.js is missing: run node scripts/build.mjs first');
  let failed = problems.length;
  // Two scenarios at a time (each is mostly two Node processes starting; every server the suite
  // starts listens on a port of its own); verdicts are printed in the lists' order.
  const limit = pool(CONCURRENCY);
  const outcomes = chosen.map((run) => limit(() => runScenario(node, run)));
  for (const [i, run] of chosen.entries()) {
    const { output, code } = await outcomes[i];
    const verdict = verdictOf(output, code);
    const label = `${run.name} (${run.package} ${run.version}${run.specVersion ? `, --spec-version ${run.specVersion}` : ''})`;
    console.log(`${verdict.passed ? 'PASS' : 'FAIL'} ${label}: ${verdict.summary}, OVERALL: ${verdict.overall}`);
    if (!verdict.passed) {
      failed++;
      console.log(output.replace(/^/gm, '    | '));
    }
  }
  console.log(
    `\nconformance: ${chosen.length - (failed - problems.length)} of ${chosen.length} scenarios passed${problems.length ? `; ${problems.length} problem(s) in the lists` : ''}`,
  );
  return failed ? 1 : 0;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err) => {
      console.error(`conformance: ${err.message}`);
      process.exit(1);
    },
  );
}
