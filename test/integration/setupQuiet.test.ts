// The README's two commands install npm dependencies on a fresh clone (scripts/setup.mjs): a
// dependency whose `engines` names another Node (the conformance suite's packages declare Node 22;
// it runs on the e2e cache's Node 24) must not print npm's EBADENGINE warning at a new user, and
// the install must still happen.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { ROOT } from '../helpers';

test('the set-up installs a dependency that declares another Node without an EBADENGINE warning', () => {
  const dir = mkdtempSync(join(tmpdir(), 'minagent-setup-'));
  try {
    const dep = join(dir, 'wants-node-99');
    mkdirSync(dep);
    writeFileSync(
      join(dep, 'package.json'),
      JSON.stringify({ name: 'wants-node-99', version: '1.0.0', engines: { node: '>=99' } }),
    );
    writeFileSync(
      join(dir, 'package.json'),
      JSON.stringify({ name: 'setup-probe', private: true, dependencies: { 'wants-node-99': 'file:./wants-node-99' } }),
    );
    const npmEnv = {
      ...process.env,
      npm_config_audit: 'false',
      npm_config_fund: 'false',
      npm_config_update_notifier: 'false',
    };
    const locked = spawnSync('npm', ['install', '--package-lock-only'], { cwd: dir, env: npmEnv, encoding: 'utf8' });
    assert.equal(locked.status, 0, locked.stderr);
    assert.match(locked.stderr + locked.stdout, /EBADENGINE/, 'control: npm warns at this package by default');
    const setup = `import(${JSON.stringify(join(ROOT, 'scripts', 'setup.mjs'))}).then((m) => m.ensureNodeModules(${JSON.stringify(dir)}))`;
    const r = spawnSync(process.execPath, ['-e', setup], { cwd: dir, env: npmEnv, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.ok(existsSync(join(dir, 'node_modules', 'wants-node-99', 'package.json')), 'installed');
    assert.doesNotMatch(r.stderr + r.stdout, /EBADENGINE|npm warn/i);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
