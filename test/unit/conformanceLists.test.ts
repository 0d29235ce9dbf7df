// The conformance runner's scenario lists (conformance/scenarios/*.json, one file per feature) and
// how it reads the suite's verdict.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';

interface Run {
  file: string;
  package: string;
  version: string;
  specVersion?: string;
  client: string;
  name: string;
  steps: unknown[][];
  quiet: boolean;
}
const RUNNER: string = '../../scripts/conformance.mjs'; // a plain .mjs script: typed here
const runner = import(RUNNER) as Promise<{
  readLists(dir?: string): { runs: Run[]; problems: string[]; every: Array<{ specVersion: string }> };
  listedScenarios(output: string): string[];
  verdictOf(output: string, exitCode: number): { passed: boolean; summary: string; overall: string };
}>;

describe('conformance scenario lists', () => {
  test("the repository's own lists are all valid and name the two pinned suites", async () => {
    const { readLists } = await runner;
    const { runs, problems } = readLists();
    assert.deepEqual(problems, []);
    const versions = new Set(runs.map((r) => `${r.package}@${r.version}`));
    assert.ok(versions.has('conformance@0.1.16'), [...versions].join(', '));
    assert.ok(versions.has('conformance-next@0.2.0-alpha.12'), [...versions].join(', '));
    const modern = runs.filter((r) => r.package === 'conformance-next').map((r) => r.name);
    for (const name of [
      'tools_call',
      'request-metadata',
      'http-standard-headers',
      'sep-2322-client-request-state',
      'json-schema-2020-12-preservation',
      'json-schema-ref-no-deref',
    ])
      assert.ok(modern.includes(name), name);
    assert.ok(runs.filter((r) => r.package === 'conformance-next').every((r) => r.specVersion === '2026-07-28'));
    // The scenario that judges the client's timers runs alone, after the e2e suite (scripts/test.mjs).
    assert.deepEqual(
      runs.filter((r) => r.quiet).map((r) => r.name),
      ['sse-retry'],
    );
  });

  test("2026-07-28 runs every scenario the suite lists, read from the suite's own list, auth ones with the auth client", async () => {
    const { readLists, listedScenarios } = await runner;
    const { runs, every } = readLists();
    assert.deepEqual(
      every.map((e) => e.specVersion),
      ['2026-07-28'],
    );
    assert.equal(runs.find((r) => r.name === 'http-invalid-tool-headers')?.client, 'conformance/client.mjs');
    // The suite's list as it prints it: names with their revisions, under a heading.
    assert.deepEqual(
      listedScenarios(
        'Client scenarios (test against a client):\n  - tools_call [2025-06-18,2026-07-28]\n  - auth/iss-normalized [2026-07-28]\n',
      ),
      ['tools_call', 'auth/iss-normalized'],
    );
  });

  test('every file in the folder is read; a bad one is named with what is wrong, the others still run', async () => {
    const { readLists } = await runner;
    const dir = mkdtempSync(join(tmpdir(), 'minagent-lists-'));
    writeFileSync(
      join(dir, 'a.json'),
      JSON.stringify({
        package: 'conformance',
        scenarios: ['initialize', { name: 'tools_call', steps: [['call', 'add_numbers', { a: 1, b: 2 }]] }],
      }),
    );
    writeFileSync(
      join(dir, 'b.json'),
      JSON.stringify({
        package: '@modelcontextprotocol/conformance',
        version: '0.2.0-alpha.12',
        specVersion: '2026-07-28',
        scenarios: [{ name: 'ping', cli: ['tools'] }],
      }),
    );
    writeFileSync(join(dir, 'bad-package.json'), JSON.stringify({ package: 'left-pad', scenarios: ['x'] }));
    writeFileSync(
      join(dir, 'bad-steps.json'),
      JSON.stringify({ package: 'conformance', scenarios: [{ name: 'y', steps: 'call' }] }),
    );
    writeFileSync(join(dir, 'broken.json'), '{ not json');
    writeFileSync(
      join(dir, 'bad-quiet.json'),
      JSON.stringify({ package: 'conformance', scenarios: [{ name: 'z', quiet: 'yes' }] }),
    );
    const { runs, problems } = readLists(dir);
    assert.deepEqual(
      runs.map((r) => [r.file, r.package, r.name, r.steps]),
      [
        ['a.json', 'conformance', 'initialize', [['tools']]],
        ['a.json', 'conformance', 'tools_call', [['call', 'add_numbers', { a: 1, b: 2 }]]],
        ['b.json', 'conformance-next', 'ping', [['tools']]],
      ],
    );
    assert.equal(problems.length, 4);
    assert.match(
      problems[0]!,
      /bad-package\.json: "package" "left-pad" is not an installed copy of @modelcontextprotocol\/conformance/,
    );
    assert.match(problems[1]!, /bad-quiet\.json: scenario "z": "quiet" must be true or false/);
    assert.match(problems[2]!, /bad-steps\.json: scenario "y": "steps" must be an array of argument arrays/);
    assert.match(problems[3]!, /broken\.json: not JSON/);
  });

  test("the suite's verdict: its summary, its overall line and its exit code must all say passed", async () => {
    const { verdictOf } = await runner;
    const ok = 'Test Results:\nPassed: \x1b[32m3/3\x1b[0m, 0 failed, 0 warnings\n\n✅ OVERALL: PASSED';
    assert.equal(verdictOf('Test Results:\nPassed: 3/3, 0 failed, 0 warnings\n✅ OVERALL: PASSED', 0).passed, true);
    assert.equal(verdictOf('Passed: 2/3, 1 failed, 0 warnings\n❌ OVERALL: FAILED', 1).passed, false);
    assert.equal(
      verdictOf('Passed: 3/3, 0 failed, 0 warnings\n✅ OVERALL: PASSED', 1).passed,
      false,
      'a non-zero exit fails',
    );
    assert.equal(verdictOf('the client crashed', 0).passed, false, 'no summary fails');
    assert.equal(verdictOf(ok, 0).summary, 'Passed: 3/3, 0 failed, 0 warnings', 'colour codes are read through');
  });
});
