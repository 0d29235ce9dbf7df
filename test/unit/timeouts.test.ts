// `npm test` runs every file the way this test runs the hanging fixture (its flags, through
// scripts/testFiles.mjs): one hung test fails by itself (test/timeouts.cjs gives it a timeout), the rest of
// the file still runs, and the run ends.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import { ROOT } from '../helpers';

test('a hung test fails alone and the run still ends', { timeout: 60_000 }, () => {
  // A run of its own, not a subtest of this one (node:test marks its children with NODE_TEST_CONTEXT).
  const env: NodeJS.ProcessEnv = { ...process.env, MINAGENT_TEST_TIMEOUT_MS: '1500' };
  delete env.NODE_TEST_CONTEXT;
  const r = spawnSync(
    process.execPath,
    [
      '--require',
      './test/timeouts.cjs',
      '--import',
      'tsx',
      join('scripts', 'testFiles.mjs'),
      join('fixtures', 'test-runner', 'hangs.ts'),
    ],
    {
      cwd: ROOT,
      encoding: 'utf8',
      env,
      timeout: 50_000,
    },
  );
  assert.equal(r.signal, null, 'the run ended by itself');
  assert.equal(r.status, 1);
  assert.match(r.stdout, /not ok 1 - hangs[\s\S]*test timed out after 1500ms/);
  assert.match(r.stdout, /ok 2 - runs after it/);
});
