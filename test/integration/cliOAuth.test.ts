// The CLI's OAuth: a loopback redirect and a printed address, tokens in a 0600 file in the user's config folder.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { ROOT } from '../helpers';
import { followInBrowser, startOAuthFixture, type OAuthFixture } from '../oauthFixture';

const CLI = join(ROOT, 'dist', 'cli.js');
/** Each test's own limit (a sign-in is a few HTTP round trips; the machine may be busy). */
const PER_TEST = { timeout: 45_000 };
const fixtures: OAuthFixture[] = [];
after(() => fixtures.forEach((f) => f.stop()));

interface Run {
  code: number | null;
  out: string;
  err: string;
}

/** Runs the CLI without a terminal; `onErr` sees stderr as it arrives (to play the user's browser). */
function cli(work: string, args: string[], onErr?: (text: string) => void): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [CLI, '--trust', ...args, '--settings', join(work, '.vscode', 'settings.json')],
      {
        cwd: work,
        env: { ...process.env, XDG_CONFIG_HOME: join(work, 'config'), HOME: work },
        stdio: ['pipe', 'pipe', 'pipe'],
      },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d));
    child.stderr.on('data', (d: Buffer) => {
      err += d;
      onErr?.(err);
    });
    child.on('close', (code) => resolve({ code, out, err }));
  });
}

async function workspace(): Promise<{ work: string; f: OAuthFixture }> {
  const f = await startOAuthFixture();
  fixtures.push(f);
  const work = mkdtempSync(join(tmpdir(), 'minagent-cli-oauth-'));
  mkdirSync(join(work, '.vscode'));
  writeFileSync(
    join(work, '.vscode', 'settings.json'),
    JSON.stringify({ 'minagent.servers': { remote: { type: 'http', url: f.mcp } } }),
  );
  return { work, f };
}

describe('minagent CLI and OAuth', () => {
  // Five runs of the CLI, each a fresh Node process: the longest test here.
  test('without a terminal a server that needs sign-in is named with the command; login prints the address and waits for the browser', {
    timeout: 120_000,
  }, async () => {
    const { work, f } = await workspace();
    const before = await cli(work, ['servers']);
    assert.match(before.out, /^remote\tsign in\t0 tools\tsign in needed/m);
    assert.match(before.err, /server "remote" needs a sign-in: run `minagent login remote`/);

    let opened = false;
    const login = await cli(work, ['login', 'remote'], (err) => {
      const url = /^ {2}(http:\/\/\S+\/authorize\?\S+)\n/m.exec(err)?.[1];
      if (url && !opened) {
        opened = true;
        void followInBrowser(new URL(url)); // the user opens the printed address
      }
    });
    assert.equal(login.code, 0, login.err);
    assert.match(
      login.err,
      new RegExp(
        `Sign in to server "remote" at 127\\.0\\.0\\.1:${new URL(f.as).port} \\(authorization server 127\\.0\\.0\\.1:${new URL(f.as).port}\\)`,
      ),
      'the authorization server is named before the address',
    );
    assert.match(login.err, /it returns to http:\/\/127\.0\.0\.1:\d+\/callback\/127\.0\.0\.1-\d+-[0-9a-f]{10}\)/);
    assert.match(login.out, /signed in to "remote" \(2 tools\)/);

    const file = join(work, 'config', 'minagent', 'oauth.json');
    assert.equal(statSync(file).mode & 0o777, 0o600);
    const tokens = f.tokens();
    assert.ok(
      tokens.every((t) => readFileSync(file, 'utf8').includes(t) || f.events.some((e) => e.refresh_token === t)),
    );

    const call = await cli(work, ['call', 'echo', '{"text":"hi"}']);
    assert.equal(call.code, 0, call.err);
    assert.equal(call.out.trim(), '[oauth] hi');
    for (const run of [before, login, call])
      for (const t of f.tokens())
        assert.ok(!run.out.includes(t) && !run.err.includes(t), 'no token on stdout or stderr');

    const logout = await cli(work, ['logout', 'remote']);
    assert.match(logout.out, /signed out of "remote"/);
    assert.match((await cli(work, ['servers'])).out, /^remote\tsign in\t0 tools\tsign in needed/m);
  });

  test('--sign-in fetch completes a sign-in without a browser, as a test suite needs', PER_TEST, async () => {
    const { work } = await workspace();
    const run = await cli(work, ['call', 'admin_op', '{}', '--sign-in', 'fetch']);
    assert.equal(run.code, 0, run.err);
    assert.match(run.out, /admin done with scopes .*admin/, 'the sign-in and the step-up both ran headless');
  });

  test(
    'attack: an authorization endpoint with another scheme is never printed or opened; the error names the server',
    PER_TEST,
    async () => {
      const f = await startOAuthFixture(
        '--authorization-endpoint',
        'vscode://vscode.git/clone?url=https%3A%2F%2Fevil.example%2Fr.git',
      );
      fixtures.push(f);
      const work = mkdtempSync(join(tmpdir(), 'minagent-cli-oauth-'));
      mkdirSync(join(work, '.vscode'));
      writeFileSync(
        join(work, '.vscode', 'settings.json'),
        JSON.stringify({ 'minagent.servers': { evil: { type: 'http', url: f.mcp } } }),
      );
      const login = await cli(work, ['login', 'evil', '--sign-in', 'print']);
      assert.notEqual(login.code, 0);
      assert.doesNotMatch(login.err, /vscode:\/\/|Sign in to server/, 'the address was not printed');
      assert.match(
        login.err,
        /server "evil": refused to open its authorization endpoint: it uses the scheme "vscode:"/,
      );
    },
  );

  test('a bad --sign-in value is a usage error', PER_TEST, async () => {
    const { work } = await workspace();
    const run = await cli(work, ['servers', '--sign-in', 'maybe']);
    assert.equal(run.code, 2);
    assert.match(run.err, /--sign-in must be one of print, fetch, none/);
  });
});
