#!/usr/bin/env node
// The conformance suite's client: `node conformance/client.mjs <server URL>` (the suite appends the
// URL and sets MCP_CONFORMANCE_SCENARIO, and for some scenarios MCP_CONFORMANCE_CONTEXT). It goes
// through MinAgent's own CLI, dist/cli.js: a settings file with one http server at that URL, then
// one CLI command per step of the scenario. The steps come from the scenario list file
// (conformance/scenarios/*.json), passed by scripts/conformance.mjs in MINAGENT_CONFORMANCE_STEPS
// (a JSON array of argument arrays; an object argument is sent as JSON text). No steps: `tools`.
// Inside an object argument, {"$schemaOf": "TOOL"} stands for that tool's parameter schema as
// MinAgent holds it (from `minagent tools --json`), for scenarios that check what the client kept. A scenario
// whose context names the calls to make (`toolCalls`, e.g. http-custom-headers) and that has no steps of its own
// makes those calls with `minagent call`.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const url = process.argv[process.argv.length - 1];
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '(none)';
if (!url || !/^https?:\/\//.test(url)) {
  process.stderr.write(`conformance client: the last argument must be the server URL, got ${JSON.stringify(url)}\n`);
  process.exit(2);
}
let steps;
try {
  steps = JSON.parse(process.env.MINAGENT_CONFORMANCE_STEPS || '[["tools"]]');
  if (!Array.isArray(steps) || !steps.every(Array.isArray)) throw new Error('not an array of argument arrays');
} catch (err) {
  process.stderr.write(`conformance client: MINAGENT_CONFORMANCE_STEPS for scenario ${scenario}: ${err.message}\n`);
  process.exit(2);
}

const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT || '{}');
if (JSON.stringify(steps) === '[["tools"]]' && Array.isArray(context.toolCalls) && context.toolCalls.length)
  steps = context.toolCalls.map((c) => ['call', String(c.name), c.arguments ?? {}]);

const dir = mkdtempSync(join(tmpdir(), 'minagent-conformance-'));
const settings = join(dir, 'settings.json');
writeFileSync(settings, JSON.stringify({ 'minagent.servers': { conformance: { type: 'http', url } } }));
const cli = (args, stdio) =>
  spawnSync(
    process.execPath,
    [join(root, 'dist', 'cli.js'), '--trust', ...args, '--settings', settings, '--workspace', dir, '--verbose'],
    // The CLI's own folder (era verdicts, sign-ins, trusted folders) is the scenario's: nothing carries over from
    // another scenario, whose server may have had the same port, and nothing is written to the user's.
    { stdio, encoding: 'utf8', env: { ...process.env, XDG_CONFIG_HOME: join(dir, 'config') } },
  );
let tools;
/** Replaces each {"$schemaOf": "TOOL"} with the tool's parameters as `minagent tools --json` shows them. */
function resolveSchemas(value) {
  if (Array.isArray(value)) return value.map(resolveSchemas);
  if (typeof value !== 'object' || value === null) return value;
  if (typeof value.$schemaOf === 'string') {
    if (!tools) {
      const r = cli(['tools', '--json'], ['ignore', 'pipe', 'inherit']);
      if (r.status !== 0) throw new Error(`minagent tools --json exited ${r.status}`);
      tools = JSON.parse(r.stdout).tools;
    }
    const tool = tools.find((t) => t.name === value.$schemaOf);
    if (!tool) throw new Error(`no tool "${value.$schemaOf}" among ${tools.map((t) => t.name).join(', ')}`);
    return tool.parameters;
  }
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveSchemas(v)]));
}

let status = 0;
try {
  for (const step of steps) {
    const args = step.map((a) => (typeof a === 'string' ? a : JSON.stringify(resolveSchemas(a))));
    process.stderr.write(`conformance client [${scenario}]: minagent ${args.join(' ')}\n`);
    // Every step runs, so a failing one still lets the later ones exercise their checks.
    status ||= cli(args, 'inherit').status ?? 1;
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
process.exit(status);
