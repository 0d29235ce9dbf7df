// The CLI remembers each server's era between runs (eras.json in its config folder, digests only):
// a 2025 server that is silent to the probe costs the probe bound on its first run only.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { ROOT, SERVERS } from '../helpers';

const work = mkdtempSync(join(tmpdir(), 'minagent-cli-eras-'));
after(() => rmSync(work, { recursive: true, force: true }));

describe('the CLI remembers eras', { timeout: 60_000 }, () => {
  test('a silent 2025 server: the first run probes and waits the bound, the next goes straight to initialize', () => {
    const config = join(work, 'config');
    const log = join(work, 'ran');
    mkdirSync(join(work, '.vscode'));
    const secret = 'sk-era-memory-not-in-the-file';
    writeFileSync(
      join(work, '.vscode', 'settings.json'),
      JSON.stringify({
        'minagent.probeTimeout': 1000,
        'minagent.servers': {
          old: {
            command: 'node',
            args: [join(SERVERS, 'legacy-only.mjs'), '--unknown', 'silent', secret],
            env: { LEGACY_PID_FILE: log },
          },
        },
      }),
    );
    const run = () =>
      spawnSync(process.execPath, [join(ROOT, 'dist', 'cli.js'), 'servers', '--verbose', '--trust'], {
        cwd: work,
        encoding: 'utf8',
        timeout: 30_000,
        env: { ...process.env, XDG_CONFIG_HOME: config },
      });
    const first = run();
    assert.equal(first.status, 0, first.stderr);
    assert.match(first.stdout, /^old\trunning\t1 tool/m);
    assert.match(first.stderr, /server\/discover did not answer within 1000 ms; trying the 2025 handshake/);
    assert.match(first.stderr, /got server\/discover/);
    const file = readFileSync(join(config, 'minagent', 'eras.json'), 'utf8');
    assert.ok(!file.includes(secret) && !file.includes('legacy-only'), `the file holds digests only: ${file}`);
    const second = run();
    assert.equal(second.status, 0, second.stderr);
    assert.match(second.stdout, /^old\trunning\t1 tool/m);
    assert.doesNotMatch(second.stderr, /server\/discover/);
    assert.equal(readFileSync(log, 'utf8').split('\n').filter(Boolean).length, 2, 'one process per run');
  });
});
