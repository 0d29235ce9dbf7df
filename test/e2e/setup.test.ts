// The e2e set-up's nested install, run the way `npm test` runs it: from inside an npm script on
// this machine's Node 20, installing with Node 24 (the e2e cache's). A tiny local package's own
// install script reports what it really ran on; the test asserts that report, not what was handed
// to spawn. A control install with the inherited environment shows what the test would catch.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { ROOT } from '../helpers';

const { NODE24_VERSION, paths } = require('../../scripts/e2e-paths.cjs') as {
  NODE24_VERSION: string;
  paths: { node24Bin: string; node24: string };
};

interface Report {
  version: string;
  userAgent: string | null;
  localPrefix: string | null;
  nodedir: string | null;
}

/** A project folder with the probe packed as a tarball and its install script allowed. */
function project(): { dir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'minagent-nested-'));
  cpSync(join(ROOT, 'fixtures', 'npm-probe'), join(dir, 'probe'), { recursive: true });
  const packed = spawnSync('npm', ['pack', '--silent', '--pack-destination', dir], {
    cwd: join(dir, 'probe'),
    encoding: 'utf8',
  });
  assert.equal(packed.status, 0, packed.stderr);
  const tarball = packed.stdout.trim().split('\n').at(-1)!;
  // Shaped like the e2e cache: a project whose dependency's install script is decided in allowScripts
  // (npm keys a local tarball by its file: path, a registry package by its name).
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({
      name: 'nested-install-test',
      private: true,
      dependencies: { 'minagent-npm-probe': `file:./${tarball}` },
      allowScripts: { [`file:${join(dir, tarball)}`]: true },
    }),
  );
  return { dir };
}

/** Runs `code` (an ES module body) as `npm exec -c` does: under npm, with npm's environment, on Node 20. */
function underNpm(code: string, env: Record<string, string> = {}): void {
  const driver = join(mkdtempSync(join(tmpdir(), 'minagent-driver-')), 'driver.mjs');
  writeFileSync(driver, code);
  const r = spawnSync('npm', ['exec', '--yes=false', '-c', `node ${driver}`], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, ...env },
  });
  assert.equal(r.status, 0, `the driver failed:\n${r.stderr}`);
}

const report = (dir: string) =>
  JSON.parse(readFileSync(join(dir, 'node_modules', 'minagent-npm-probe', 'report.json'), 'utf8')) as Report;

test('a nested install started under npm on Node 20 runs on the Node it was given, with its own npm environment', {
  timeout: 180_000,
}, () => {
  const { dir } = project();
  try {
    underNpm(`
      import { nestedNpmInstall } from ${JSON.stringify(join(ROOT, 'scripts', 'nested-npm.mjs'))};
      process.exit(await nestedNpmInstall({ cwd: ${JSON.stringify(dir)}, nodeBin: ${JSON.stringify(paths.node24Bin)}, nodedir: ${JSON.stringify(paths.node24)} }));
    `);
    const seen = report(dir);
    assert.equal(seen.version, `v${NODE24_VERSION}`, 'the install script ran on Node 24');
    assert.match(
      seen.userAgent ?? '',
      new RegExp(`node/v${NODE24_VERSION.replace(/\./g, '\\.')}`),
      'npm describes the Node it runs on',
    );
    assert.doesNotMatch(seen.userAgent ?? '', /node\/v20/, 'nothing of the outer npm on Node 20 is left');
    assert.equal(seen.localPrefix, dir, 'the install belongs to its own folder, not to the checkout npm test runs in');
    assert.equal(seen.nodedir, paths.node24, "native builds use Node 24's headers, not ~/.npmrc's nodedir");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('with npm_config_strict_allow_scripts=true the decided install script still runs', { timeout: 180_000 }, () => {
  const { dir } = project();
  try {
    underNpm(
      `
      import { nestedNpmInstall } from ${JSON.stringify(join(ROOT, 'scripts', 'nested-npm.mjs'))};
      process.exit(await nestedNpmInstall({ cwd: ${JSON.stringify(dir)}, nodeBin: ${JSON.stringify(paths.node24Bin)}, nodedir: ${JSON.stringify(paths.node24)} }));
    `,
      { npm_config_strict_allow_scripts: 'true' },
    );
    assert.equal(report(dir).version, `v${NODE24_VERSION}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('control: the same install with the inherited npm environment reports the outer Node 20 (what the first test guards against)', {
  timeout: 180_000,
}, () => {
  const { dir } = project();
  try {
    underNpm(`
      import { spawnSync } from 'node:child_process';
      const env = { ...process.env, PATH: ${JSON.stringify(paths.node24Bin)} + ':' + process.env.PATH };
      const r = spawnSync('npm', ['install'], { cwd: ${JSON.stringify(dir)}, env, stdio: 'inherit' });
      process.exit(r.status ?? 1);
    `);
    const seen = report(dir);
    assert.equal(seen.version, `v${NODE24_VERSION}`, 'the script itself runs on Node 24 (first on PATH)');
    assert.match(
      seen.userAgent ?? '',
      /node\/v20\./,
      "but npm hands it the outer npm's user agent, which names Node 20: code-server's postinstall refuses on that",
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
