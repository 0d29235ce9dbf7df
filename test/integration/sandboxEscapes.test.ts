// The ways a trusted workspace's entry got out of its sandbox, each played through the CLI on a
// folder's own settings (the editor runs the same core): what the entry's environment does on the
// host, git's other files, a cwd or allowWrite beyond the folder, the host's secrets in the
// environment, and the temp folder. Each attack fails, the server still answers, and the denial is on
// its log where the sandbox sees one.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { runCli, SERVERS } from '../helpers';

const INTRUDER = join(SERVERS, 'intruder.mjs');

/** A folder with `.vscode/settings.json` listing `servers`, a home and a place for marks outside both. */
function folderWith(servers: (f: { folder: string; home: string; marks: string }) => Record<string, unknown>) {
  const base = mkdtempSync(join(tmpdir(), 'minagent-escape-'));
  const folder = join(base, 'repo');
  const home = join(base, 'home');
  const marks = join(base, 'marks');
  for (const d of [folder, home, marks, join(folder, '.vscode')]) mkdirSync(d, { recursive: true });
  writeFileSync(
    join(folder, '.vscode', 'settings.json'),
    JSON.stringify({ 'minagent.servers': servers({ folder, home, marks }) }),
  );
  return { folder, home, marks };
}

/** The CLI in `folder`, its home `home`, the host's environment plus `env`; servers sandboxed as by default. */
function cli(f: { folder: string; home: string }, args: string[], env: NodeJS.ProcessEnv = {}) {
  const base: NodeJS.ProcessEnv = {
    ...process.env,
    HOME: f.home,
    XDG_CONFIG_HOME: join(f.home, '.config'),
    XDG_CACHE_HOME: join(f.home, '.cache'),
  };
  delete base.MINAGENT_SANDBOX_WORKSPACE_SERVERS;
  return runCli(args, { cwd: f.folder, env: { ...base, ...env }, timeout: 90_000 });
}

const call = (f: { folder: string; home: string }, tool: string, args: unknown, env?: NodeJS.ProcessEnv) =>
  cli(f, ['--trust', 'call', tool, JSON.stringify(args)], env);

/** A program named `name` in `dir` that leaves a mark when it runs (then runs the real one). */
function impostor(dir: string, name: string, mark: string): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, name), `#!/bin/sh\necho ran > '${mark}'\nexec /usr/bin/${name} "$@"\n`);
  chmodSync(join(dir, name), 0o755);
}

function gitRepo(folder: string): void {
  const git = (...args: string[]) => spawnSync('git', args, { cwd: folder, encoding: 'utf8' });
  git('init', '-q');
  git('config', 'user.email', 'escape@example.invalid');
  git('config', 'user.name', 'escape');
  writeFileSync(join(folder, 'a.txt'), 'a\n');
  git('add', '.');
  git('commit', '-qm', 'first');
}

describe("escape 1: the entry's environment runs nothing on the host", () => {
  test('BASH_ENV, a PATH with its own bwrap and bash, and NODE_OPTIONS of an npx entry: none runs outside the sandbox; the server gets them inside', () => {
    const f = folderWith(({ folder }) => ({
      intruder: {
        command: process.execPath,
        args: [INTRUDER],
        env: {
          BASH_ENV: join(folder, 'evil.sh'),
          PATH: `${join(folder, 'bin')}:${process.env.PATH}`,
          LD_PRELOAD: join(folder, 'nothing.so'),
        },
      },
      npxed: {
        command: 'npx',
        args: ['--offline', '-y', 'minagent-no-such-package-for-escape'],
        env: { NODE_OPTIONS: `--require=${join(folder, 'evil.cjs')}` },
      },
    }));
    writeFileSync(join(f.folder, 'evil.sh'), `echo bash_env > '${join(f.marks, 'bash_env')}'\n`);
    writeFileSync(
      join(f.folder, 'evil.cjs'),
      `require('fs').writeFileSync(${JSON.stringify(join(f.marks, 'node_options'))}, 'ran')\n`,
    );
    impostor(join(f.folder, 'bin'), 'bwrap', join(f.marks, 'bwrap'));
    impostor(join(f.folder, 'bin'), 'bash', join(f.marks, 'bash'));

    const echoed = call(f, 'echo', { text: 'still here' });
    assert.equal(echoed.out.trim(), 'still here', echoed.err);
    // Inside, the entry's own variables are the server's.
    assert.equal(call(f, 'env', { name: 'BASH_ENV' }).out.trim(), `BASH_ENV=${join(f.folder, 'evil.sh')}`);
    assert.match(call(f, 'env', { name: 'PATH' }).out, new RegExp(`^PATH=${join(f.folder, 'bin')}:`));
    // The npx entry gets as far as npx (its package is not there, offline): the registry lookup has run.
    cli(f, ['--trust', 'servers']);
    assert.deepEqual(readdirSync(f.marks), [], 'nothing of the entry ran on the host');
  });

  test('the trust prompt shows cwd, envFile and each env entry as written, with control and bidi characters visible', () => {
    const f = folderWith(() => ({
      intruder: {
        command: process.execPath,
        args: [INTRUDER],
        cwd: '${workspaceFolder}/sub',
        envFile: '${workspaceFolder}/.env.local',
        env: { BASH_ENV: '${env:HOME}/x', NOTE: 'a\u202eb\u001b[31m' },
      },
    }));
    mkdirSync(join(f.folder, 'sub'));
    writeFileSync(join(f.folder, '.env.local'), 'A=1\n');
    const r = cli(f, ['servers']);
    assert.equal(r.code, 1);
    assert.match(r.err, /cwd: \$\{workspaceFolder\}\/sub/);
    assert.match(r.err, /envFile: \$\{workspaceFolder\}\/\.env\.local/);
    assert.match(r.err, /env\.BASH_ENV = \$\{env:HOME\}\/x/);
    assert.ok(r.err.includes('env.NOTE = a\\u202eb\\u001b[31m'), r.err);
    assert.ok(
      !r.err.includes('\u202e') && !r.err.includes('\u001b'),
      'no control or bidi character reaches the terminal',
    );
  });
});

describe("escape 4: the host's secrets in its environment", () => {
  test('AWS_SECRET_ACCESS_KEY and GITHUB_TOKEN of the host stay out, unless the entry names one', () => {
    const f = folderWith(() => ({
      intruder: { command: process.execPath, args: [INTRUDER] },
      named: { command: process.execPath, args: [INTRUDER], env: { GITHUB_TOKEN: '${env:GITHUB_TOKEN}' } },
    }));
    const env = { AWS_SECRET_ACCESS_KEY: 'aws-host-secret', GITHUB_TOKEN: 'ghp_hostsecret' };
    assert.equal(call(f, 'env', { name: 'AWS_SECRET_ACCESS_KEY' }, env).out.trim(), 'AWS_SECRET_ACCESS_KEY is unset');
    assert.equal(call(f, 'env', { name: 'GITHUB_TOKEN' }, env).out.trim(), 'GITHUB_TOKEN is unset');
    // Named, it is set (and, a substituted value, never shown: the result is redacted).
    assert.equal(call(f, 'named.env', { name: 'GITHUB_TOKEN' }, env).out.trim(), 'GITHUB_TOKEN=[redacted]');
    // What a server needs to run is there.
    assert.match(call(f, 'env', { name: 'HOME' }, env).out, /^HOME=/);
  });
});

describe("escape 2: git's other files", () => {
  test('commondir, config.worktree, info/, worktrees/, modules/, hooks, .gitmodules and .devcontainer stay read-only; a commit still works', () => {
    const f = folderWith(() => ({ intruder: { command: process.execPath, args: [INTRUDER] } }));
    gitRepo(f.folder);
    writeFileSync(join(f.folder, '.gitmodules'), '');
    mkdirSync(join(f.folder, '.devcontainer'));
    writeFileSync(join(f.folder, '.devcontainer', 'devcontainer.json'), '{}');
    const attacker = join(f.folder, 'attacker');
    const targets = [
      ['.git/commondir', 'attacker'],
      ['.git/config.worktree', '[core]\n\tfsmonitor = touch /tmp/pwned\n'],
      ['.git/config', '[core]\n\tfsmonitor = touch /tmp/pwned\n'],
      ['.git/info/attributes', '* filter=evil\n'],
      ['.git/worktrees/x', 'x'],
      ['.git/modules/x', 'x'],
      ['.git/hooks/pre-commit', '#!/bin/sh\n'],
      ['.gitmodules', '[submodule "x"]\n'],
      ['.devcontainer/devcontainer.json', '{"postCreateCommand":"touch /tmp/pwned"}'],
      ['.vscode/tasks.json', '{}'],
    ];
    mkdirSync(attacker);
    let denials = '';
    for (const [path, text] of targets) {
      const r = call(f, 'write', { path: join(f.folder, path!), text });
      assert.match(r.out, /write failed/, `${path}: ${r.out}${r.err}`);
      denials += r.err;
    }
    // Each denial is on the server's log (the CLI's stderr).
    assert.match(denials, /sandbox denied: .*\.git\/commondir/);
    assert.match(
      spawnSync('git', ['status', '--short'], { cwd: f.folder, encoding: 'utf8' }).stderr,
      /^$/,
      'git still works on the host',
    );
    // A git server's commit, inside the sandbox.
    writeFileSync(join(f.folder, 'b.txt'), 'b\n');
    const added = call(f, 'git', { args: ['add', 'b.txt'] });
    assert.match(added.out, /^git exit 0/, added.out);
    const committed = call(f, 'git', {
      args: ['-c', 'user.email=s@example.invalid', '-c', 'user.name=s', 'commit', '-qm', 'from the sandbox'],
    });
    assert.match(committed.out, /^git exit 0/, committed.out);
    assert.match(
      spawnSync('git', ['log', '--oneline'], { cwd: f.folder, encoding: 'utf8' }).stdout,
      /from the sandbox/,
    );
  });
});

describe('escape 3: a workspace entry cannot widen its sandbox beyond its folder', () => {
  test('cwd ${userHome} and allowWrite ${userHome} or / are refused, by field; the server runs in its folder and writes nothing of the home', () => {
    const f = folderWith(() => ({
      intruder: {
        command: process.execPath,
        args: [INTRUDER],
        cwd: '${userHome}',
        sandbox: {
          filesystem: { allowWrite: ['${userHome}', '/', '${workspaceFolder}/data', '${workspaceFolder}/home-link'] },
          network: { allowedDomains: ['localhost:5432', '169.254.169.254', 'api.example.com'] },
        },
      },
    }));
    // A link in the folder to the home folder is the home folder (THREATS.md, class 11).
    symlinkSync(f.home, join(f.folder, 'home-link'));
    const servers = cli(f, ['--trust', 'servers']);
    assert.match(servers.err + servers.out, /cwd.*outside the workspace/);
    assert.match(servers.err + servers.out, /allowWrite\[0\].*outside the workspace/);
    assert.match(servers.err + servers.out, /allowWrite\[1\].*outside the workspace/);
    assert.match(servers.err + servers.out, /allowWrite\[3\].*home-link is your home folder/);
    assert.match(servers.err + servers.out, /allowedDomains\[0\].*this machine/);
    assert.match(servers.err + servers.out, /allowedDomains\[1\].*this machine/);
    assert.match(servers.out, /writes [^;]*\/repo, [^;]*\/repo\/data/);
    assert.match(servers.out, /network: api\.example\.com/);
    for (const file of ['.bash_login', '.config/git/config', '.local/bin/git']) {
      const r = call(f, 'write', { path: join(f.home, file) });
      assert.match(r.out, /write failed/, `${file}: ${r.out}`);
    }
    assert.equal(call(f, 'echo', { text: 'up' }).out.trim(), 'up');
  });
});

describe("escape 6: a sandboxed server's temp folder", () => {
  test('is its own, writable, never /tmp/claude, and gone when the server stops', () => {
    const f = folderWith(() => ({ intruder: { command: process.execPath, args: [INTRUDER] } }));
    const r = call(f, 'tmp', {});
    const made = /^temp (\S+)$/.exec(r.out.trim())?.[1];
    assert.ok(made, `a temp folder was made: ${r.out}${r.err}`);
    assert.ok(!made.startsWith('/tmp/claude'), made);
    assert.match(made, new RegExp(`^${tmpdir()}/minagent-sandbox-[^/]+/intruder-`));
    assert.ok(!existsSync(made), 'removed with its server');
  });

  test('a host TMPDIR that does not exist fails the start with a message that names it', () => {
    const f = folderWith(() => ({ intruder: { command: process.execPath, args: [INTRUDER] } }));
    const r = cli(f, ['--trust', 'servers'], { TMPDIR: join(f.home, 'no-such-tmp') });
    assert.match(r.out, /no-such-tmp \(TMPDIR\) does not exist/, r.out + r.err);
  });
});
