// The CLI says "failed" when it means failed: with the only server failing to connect, every verb
// names it and why, list commands exit 1 (JSON carries the failed server), and call, read and
// prompt name the server that might have had the name instead of a bare "unknown".
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { CLI, runCli, SERVERS } from '../helpers';

const work = mkdtempSync(join(tmpdir(), 'minagent-cli-failed-'));
after(() => rmSync(work, { recursive: true, force: true }));

function folder(name: string, servers: Record<string, unknown>): string {
  const dir = join(work, name);
  mkdirSync(join(dir, '.vscode'), { recursive: true });
  writeFileSync(join(dir, '.vscode', 'settings.json'), JSON.stringify({ 'minagent.servers': servers }));
  return dir;
}
const cli = (dir: string, args: string[]) => runCli([...args, '--trust'], { cwd: dir, timeout: 60_000 });

// The only server exits at start with a reason on stderr.
const GIT = { command: 'node', args: ['-e', 'console.error("fatal: not a git repository"); process.exit(3)'] };
const WHY =
  /server "git" did not connect: server process exited with code 3 during startup; stderr: fatal: not a git repository/;

describe('every verb with a server that failed to connect', { timeout: 120_000 }, () => {
  const only = folder('only', { git: GIT });

  test('servers, tools, resources, prompts: exit 1, the server and its error on stderr (servers: in its row)', () => {
    const servers = cli(only, ['servers']);
    assert.equal(servers.code, 1);
    assert.match(
      servers.out,
      /^git\terror\t0 tools\tserver process exited with code 3 during startup; stderr: fatal: not a git repository/,
    );
    for (const verb of ['tools', 'resources', 'prompts']) {
      const r = cli(only, [verb]);
      assert.equal(r.code, 1, verb);
      assert.equal(r.out, '', verb);
      assert.match(r.err, WHY, verb);
    }
  });

  test('--json carries the failed server with its error, and exits 1', () => {
    for (const [verb, key] of [
      ['tools', 'tools'],
      ['resources', 'resources'],
      ['prompts', 'prompts'],
    ] as const) {
      const r = cli(only, [verb, '--json']);
      assert.equal(r.code, 1, verb);
      const json = JSON.parse(r.out) as Record<string, unknown> & { failed: Array<{ server: string; error: string }> };
      assert.deepEqual(json[key], [], verb);
      assert.deepEqual(
        json.failed.map((f) => f.server),
        ['git'],
        verb,
      );
      assert.match(json.failed[0]!.error, /exited with code 3 during startup; stderr: fatal: not a git repository/);
    }
  });

  test('call, read and prompt name the failed server that might have had it (exit 1), never "(none)" alone or "use --server"', () => {
    const call = cli(only, ['call', 'git_log']);
    assert.equal(call.code, 1);
    assert.match(
      call.err,
      /minagent: unknown tool "git_log"; available tools: \(none\); server "git" \(server process exited with code 3 during startup; stderr: fatal: not a git repository\) did not connect, so its tools are not known\n$/,
    );
    const read = cli(only, ['read', 'git://log/HEAD']);
    assert.equal(read.code, 1);
    assert.match(
      read.err,
      /minagent: no running server lists <git:\/\/log\/HEAD>; server "git" \(.*\) did not connect, so its resources are not known\n$/,
    );
    assert.doesNotMatch(read.err, /--server/);
    const named = cli(only, ['read', 'git://log/HEAD', '--server', 'git']);
    assert.equal(named.code, 1);
    assert.match(named.err, /minagent: server "git" did not connect: server process exited with code 3/);
    const prompt = cli(only, ['prompt', 'commit_message']);
    assert.equal(prompt.code, 1);
    assert.match(
      prompt.err,
      /minagent: unknown prompt "commit_message"; prompts: \(none\); server "git" \(.*\) did not connect, so its prompts are not known\n$/,
    );
  });

  test('chat still runs (the model may answer without tools) and names the failed server', () => {
    const script = join(work, 'final.json');
    writeFileSync(script, JSON.stringify([{ final: 'no tools today' }]));
    const r = cli(only, ['chat', 'hi', '--script', script]);
    assert.equal(r.code, 0);
    assert.match(r.out, /final: no tools today/);
    assert.match(r.err, WHY);
  });

  test('beside a running server: lists exit 0 with what runs, and still name the failed one; a prefixed name points at its server', () => {
    const both = folder('both', { research: { command: 'node', args: [`${SERVERS}/research.mjs`] }, git: GIT });
    const tools = cli(both, ['tools']);
    assert.equal(tools.code, 0);
    assert.match(tools.out, /^echo\tresearch\t/m);
    assert.match(tools.err, WHY);
    const call = cli(both, ['call', 'git.git_log']);
    assert.equal(call.code, 1);
    assert.match(
      call.err,
      /unknown tool "git\.git_log"; available tools: echo, search_corpus, word_count; server "git" \(.*\) did not connect, so its tools are not known/,
    );
  });
});

test('a server that never answers but prints its secret on stderr: the timeout in the terminal says what stderr said, the secret redacted', () => {
  const secret = 'tok-timeout-stderr-7c1e9a';
  const dir = join(work, 'leaky');
  mkdirSync(join(dir, '.vscode'), { recursive: true });
  const script =
    "process.stderr.write('fatal: cannot reach the API with token ' + process.env.API_TOKEN + '\\n'); process.stdin.resume(); setInterval(() => {}, 1 << 30);";
  const settings = {
    'minagent.connectTimeout': 1000,
    'minagent.servers': { leaky: { command: 'node', args: ['-e', script], env: { API_TOKEN: '${env:LEAKY_TOKEN}' } } },
  };
  writeFileSync(join(dir, '.vscode', 'settings.json'), JSON.stringify(settings));
  const r = spawnSync(process.execPath, [CLI, 'servers', '--trust'], {
    cwd: dir,
    encoding: 'utf8',
    timeout: 60_000,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, LEAKY_TOKEN: secret },
  });
  assert.equal(r.status, 1);
  assert.match(
    r.stdout,
    /^leaky\terror\t0 tools\tdid not answer initialize within 1000 ms, nor in a patient 1000 ms more \(its process was still running\); stderr: fatal: cannot reach the API with token \[redacted\]/m,
    r.stdout + r.stderr,
  );
  assert.ok(!(r.stdout + r.stderr).includes(secret), r.stdout + r.stderr);
});
