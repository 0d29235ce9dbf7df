// The CLI runs a folder's servers in a sandbox by default: `minagent servers` says so with the
// policy, a write outside the folder is denied and logged, `--sandbox off` runs them as the user's
// own, and where no sandbox can be had the server does not start at all (it is not run unsandboxed).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { CLI, isAlive, ppidOf, runCli, SERVERS, waitFor } from '../helpers';

const work = mkdtempSync(join(tmpdir(), 'minagent-cli-sandbox-'));
const outside = join(mkdtempSync(join(tmpdir(), 'minagent-cli-outside-')), 'planted.txt');
mkdirSync(join(work, '.vscode'));
writeFileSync(
  join(work, '.vscode', 'settings.json'),
  JSON.stringify({
    'minagent.servers': { intruder: { command: process.execPath, args: [join(SERVERS, 'intruder.mjs')] } },
  }),
);

/** The environment of a CLI run: its config and cache in `dir` (not in the folder it runs in). */
function cliEnv(dir: string, env: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  // The suite runs the CLI's servers unsandboxed (scripts/test.mjs); here the default is what is tested.
  const base: NodeJS.ProcessEnv = {
    ...process.env,
    XDG_CONFIG_HOME: join(dir, 'config'),
    XDG_CACHE_HOME: join(dir, 'cache'),
  };
  delete base.MINAGENT_SANDBOX_WORKSPACE_SERVERS;
  return { ...base, ...env };
}

const cli = (args: string[], env: NodeJS.ProcessEnv = {}) =>
  runCli(['--trust', ...args], { cwd: work, env: cliEnv(work, env), timeout: 60_000 });

/**
 * A repository whose settings list one sandboxed server with a tool that works for a while (faulty.mjs
 * slow, given the repository's path as a mark it ignores).
 */
function repoWithSlowServer(): string {
  const repo = mkdtempSync(join(tmpdir(), 'minagent-cli-repo-'));
  mkdirSync(join(repo, '.git', 'hooks'), { recursive: true });
  writeFileSync(join(repo, '.git', 'HEAD'), 'ref: refs/heads/main\n');
  writeFileSync(join(repo, '.git', 'config'), '[core]\n\trepositoryformatversion = 0\n');
  mkdirSync(join(repo, '.vscode'));
  writeFileSync(
    join(repo, '.vscode', 'settings.json'),
    JSON.stringify({
      'minagent.servers': { slow: { command: process.execPath, args: [join(SERVERS, 'faulty.mjs'), 'slow', repo] } },
    }),
  );
  return repo;
}

/** Whether the server of `repo` (repoWithSlowServer) runs: its own process, not the shells that start it. */
function serverRuns(repo: string): boolean {
  return readdirSync('/proc').some((name) => {
    try {
      const argv = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0');
      return argv.includes(repo) && argv.some((a) => a.endsWith('faulty.mjs'));
    } catch {
      return false;
    }
  });
}

/** The CLI started in `folder` without waiting for it: its process, and its exit code and stdout once done. */
function cliIn(folder: string, args: string[]) {
  const child = spawn(process.execPath, [CLI, '--trust', ...args], {
    cwd: folder,
    env: cliEnv(mkdtempSync(join(tmpdir(), 'minagent-cli-home-'))),
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; out: string }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal, out })),
  );
  return { child, exited };
}

function commOf(pid: string): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return undefined; // gone meanwhile
  }
}

/** The sandbox library's bridges (socat) that `pid` started. */
function bridgesOf(pid: number): number[] {
  return readdirSync('/proc')
    .filter((n) => /^\d+$/.test(n) && ppidOf(Number(n)) === pid)
    .filter((n) => commOf(n) === 'socat')
    .map(Number);
}

describe('minagent and the sandbox', () => {
  test("servers: a folder's server runs in a sandbox by default, and the line says what it may write and reach", () => {
    const { code, out } = cli(['servers']);
    assert.equal(code, 0);
    assert.match(out, new RegExp(`^intruder\\trunning\\t9 tools\\tsandboxed: writes ${work}; network: none$`, 'm'));
  });

  test('call: a write outside the folder is denied, and stderr says what was denied and how to allow it', () => {
    const { out, err } = cli(['call', 'write', JSON.stringify({ path: outside })]);
    assert.match(out, /write failed: EROFS/);
    assert.equal(existsSync(outside), false);
    assert.match(
      err,
      new RegExp(
        `sandbox denied: deny openat ${outside} \\(to allow it, add the folder to the entry's sandbox\\.filesystem\\.allowWrite\\)`,
      ),
    );
  });

  test("--sandbox off: the server runs as the user's own", () => {
    const servers = cli(['--sandbox', 'off', 'servers']);
    assert.match(servers.out, /^intruder\trunning\t9 tools$/m);
    const { out } = cli(['--sandbox', 'off', 'call', 'write', JSON.stringify({ path: outside })]);
    assert.match(out, /wrote/);
    assert.equal(existsSync(outside), true);
  });

  test('where no sandbox can be had (no bubblewrap on PATH) the server does not start, and its line says why', () => {
    const { code, out } = cli(['servers'], { PATH: join(work, 'empty-path') });
    assert.equal(code, 1);
    assert.match(
      out,
      /^intruder\terror\t0 tools\tcannot start in a sandbox: .*bubblewrap.*; the server was not started without one/m,
    );
  });

  test('a rule other than always or off is refused, naming the flag', () => {
    const { code, err } = cli(['--sandbox', 'sometimes', 'servers']);
    assert.equal(code, 2);
    assert.match(err, /--sandbox must be one of always, off/);
  });

  test('the folder it runs in gets nothing of the sandbox while its server works (no empty .bashrc, .mcp.json, .claude…)', async () => {
    const repo = repoWithSlowServer();
    const { exited } = cliIn(repo, ['call', 'slow', JSON.stringify({ ms: 3000, silent: true })]);
    const seen = new Set<string>();
    let done = false;
    void exited.then(() => (done = true));
    while (!done) {
      for (const name of readdirSync(repo)) seen.add(name);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const { code, out } = await exited;
    assert.equal(code, 0, out);
    assert.match(out, /^done after \d+ ms$/m, 'the call ran in the sandbox');
    // The library held the place of each absent name below the host's working directory with an empty
    // file or folder while any sandbox ran: a dozen of them, in the user's repository.
    assert.deepEqual([...seen].sort(), ['.git', '.vscode']);
  });

  for (const signal of ['SIGKILL', 'SIGHUP'] as const) {
    test(`${signal === 'SIGKILL' ? 'killed outright' : 'its terminal closed (SIGHUP)'}, it leaves no sandbox process behind`, async () => {
      const repo = repoWithSlowServer();
      const { child, exited } = cliIn(repo, ['call', 'slow', JSON.stringify({ ms: 20_000, silent: true })]);
      await waitFor('the server to run in its sandbox', () => serverRuns(repo), 30_000);
      const bridges = bridgesOf(child.pid!);
      assert.ok(bridges.length > 0, 'the sandbox library bridges its proxy with socat');
      child.kill(signal);
      const end = await exited;
      // As for Ctrl+C: the servers are closed first, and the exit code says which signal.
      if (signal === 'SIGHUP') assert.equal(end.code, 129, end.out);
      await waitFor(
        () => `the bridges ${bridges.join(', ')} to end`,
        () => bridges.every((pid) => !isAlive(pid)),
        10_000,
      );
      assert.deepEqual(readdirSync(repo).sort(), ['.git', '.vscode']);
    });
  }
});
