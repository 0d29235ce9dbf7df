// The sandbox as a user without root runs it: bubblewrap in an unprivileged user namespace. Where
// the suite runs as root (CI, these machines), the sandbox's integration tests run once more as
// `nobody`; as any other user the suite itself is that run.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { ROOT } from '../helpers';

test('the sandbox works for a user without root: its integration tests pass as nobody', { timeout: 240_000 }, (t) => {
  if (process.getuid?.() !== 0) {
    t.diagnostic(`the suite runs as uid ${process.getuid?.()}: its own run of sandbox.test.ts is the non-root run`);
    return;
  }
  assert.ok(
    existsSync('/usr/sbin/runuser') || existsSync('/sbin/runuser'),
    'runuser (util-linux) to run the tests as nobody',
  );
  // nobody's home where nobody can reach it: a TMPDIR of root's own (mktemp -d: mode 0700) it cannot.
  const base = (statSync(tmpdir()).mode & 0o001) !== 0 ? tmpdir() : '/tmp';
  const home = mkdtempSync(join(base, 'minagent-nobody-'));
  t.after(() => rmSync(home, { recursive: true, force: true }));
  chownSync(home, 65534, 65534);
  const r = spawnSync(
    'runuser',
    [
      '-u',
      'nobody',
      '--',
      'env',
      '-u',
      'NODE_TEST_CONTEXT',
      `HOME=${home}`,
      `TMPDIR=${home}`,
      `PATH=${process.env.PATH}`,
      process.execPath,
      '--import',
      'tsx',
      '--test',
      '--test-force-exit',
      'test/integration/sandbox.test.ts',
    ],
    { cwd: ROOT, encoding: 'utf8', timeout: 200_000 },
  );
  assert.equal(
    r.status,
    0,
    `as nobody:\n${r.stdout
      .split('\n')
      .filter((l) => /^# (pass|fail)|not ok|error/.test(l))
      .join('\n')}\n${r.stderr.slice(-2000)}`,
  );
  // Every test of the file ran and passed (none skipped or left out).
  const count = (what: string) => Number(new RegExp(`^# ${what} (\\d+)$`, 'm').exec(r.stdout)?.[1] ?? -1);
  assert.ok(
    count('tests') >= 7 && count('pass') === count('tests'),
    `every sandbox test passed as nobody:\n${r.stdout.slice(-400)}`,
  );
  assert.match(r.stdout, /^# fail 0$/m);
});
