// The CLI runs a folder's servers in a sandbox by default: `minagent servers` says so with the
// policy, a write outside the folder is denied and logged, `--sandbox off` runs them as the user's
// own, and where no sandbox can be had the server does not start at all (it is not run unsandboxed).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { ROOT, SERVERS } from '../helpers';

const CLI = join(ROOT, 'dist', 'cli.js');
const work = mkdtempSync(join(tmpdir(), 'minagent-cli-sandbox-'));
const outside = join(mkdtempSync(join(tmpdir(), 'minagent-cli-outside-')), 'planted.txt');
mkdirSync(join(work, '.vscode'));
writeFileSync(join(work, '.vscode', 'settings.json'), JSON.stringify({ 'minagent.servers': { intruder: { command: process.execPath, args: [join(SERVERS, 'intruder.mjs')] } } }));

function cli(args: string[], env: NodeJS.ProcessEnv = {}) {
  // The suite runs the CLI's servers unsandboxed (scripts/test.mjs); here the default is what is tested.
  const base: NodeJS.ProcessEnv = { ...process.env, XDG_CONFIG_HOME: join(work, 'config'), XDG_CACHE_HOME: join(work, 'cache') };
  delete base.MINAGENT_SANDBOX_WORKSPACE_SERVERS;
  const r = spawnSync(process.execPath, [CLI, '--trust', ...args], { cwd: work, encoding: 'utf8', timeout: 60_000, env: { ...base, ...env } });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe('minagent and the sandbox', () => {
  test("servers: a folder's server runs in a sandbox by default, and the line says what it may write and reach", () => {
    const { code, out } = cli(['servers']);
    assert.equal(code, 0);
    assert.match(out, new RegExp(`^intruder\\trunning\\t6 tools\\tsandboxed: writes ${work}; network none$`, 'm'));
  });

  test('call: a write outside the folder is denied, and stderr says what was denied and how to allow it', () => {
    const { out, err } = cli(['call', 'write', JSON.stringify({ path: outside })]);
    assert.match(out, /write failed: EROFS/);
    assert.equal(existsSync(outside), false);
    assert.match(err, new RegExp(`sandbox denied: deny openat ${outside} \\(to allow it, add the folder to the entry's sandbox\\.filesystem\\.allowWrite\\)`));
  });

  test('--sandbox off: the server runs as the user\'s own', () => {
    const servers = cli(['--sandbox', 'off', 'servers']);
    assert.match(servers.out, /^intruder\trunning\t6 tools$/m);
    const { out } = cli(['--sandbox', 'off', 'call', 'write', JSON.stringify({ path: outside })]);
    assert.match(out, /wrote/);
    assert.equal(existsSync(outside), true);
  });

  test('where no sandbox can be had (no bubblewrap on PATH) the server does not start, and its line says why', () => {
    const { code, out } = cli(['servers'], { PATH: join(work, 'empty-path') });
    assert.equal(code, 1);
    assert.match(out, /^intruder\terror\t0 tools\tcannot start in a sandbox: .*bubblewrap.*; the server was not started without one/m);
  });

  test('a rule other than always or off is refused, naming the flag', () => {
    const { code, err } = cli(['--sandbox', 'sometimes', 'servers']);
    assert.equal(code, 2);
    assert.match(err, /--sandbox must be one of always, off/);
  });
});
