// A newcomer's first minutes with the CLI in a real terminal (issue 53, item 14): the version, a
// registry that cannot be reached, a folder that is not a project, an npx server's start, the tables,
// and a server that ends as it should. Each test plays the user's steps on the built bin; where the
// behaviour depends on a terminal it runs on a pty (test/pty.ts).
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { terminalLine } from '../../src/cli/terminalText';
import { onTerminal } from '../pty';
import { CLI, ROOT, runCli, SERVERS } from '../helpers';

const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const work = mkdtempSync(join(tmpdir(), 'minagent-cli-newcomer-'));
after(() => rmSync(work, { recursive: true, force: true }));

/** The user's environment: their own config and cache, no trust given by the environment. */
function userEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    XDG_CONFIG_HOME: join(work, 'config'),
    XDG_CACHE_HOME: join(work, 'cache'),
    ...extra,
  };
  delete env.MINAGENT_TRUST;
  return env;
}

const cli = (cwd: string, args: string[], env: NodeJS.ProcessEnv = userEnv()) =>
  runCli(args, { cwd, env, timeout: 60_000 });

/** A folder whose `.vscode/settings.json` lists `servers`. */
function project(name: string, servers: Record<string, unknown>): string {
  const dir = join(work, name);
  mkdirSync(join(dir, '.vscode'), { recursive: true });
  writeFileSync(join(dir, '.vscode', 'settings.json'), JSON.stringify({ 'minagent.servers': servers }));
  return dir;
}

/** A local port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** What a pty showed, as lines (the terminal ends them with \r\n). */
const lines = (shown: string) => shown.split('\r\n');

describe('minagent --version', () => {
  for (const flag of ['--version', '-V', 'version']) {
    test(`\`minagent ${flag}\` prints the version and exits 0`, () => {
      const { code, out, err } = cli(work, [flag]);
      assert.equal(code, 0, err);
      assert.equal(out, `minagent ${VERSION}\n`);
      assert.equal(err, '');
    });
  }

  test('an unknown option is one line naming it and where help is, not the whole help', () => {
    const { code, out, err } = cli(work, ['--versoin']);
    assert.equal(code, 2);
    assert.equal(out, '');
    assert.match(err, /--versoin/);
    assert.match(err, /minagent --help/);
    assert.ok(err.trim().split('\n').length <= 2, err);
  });
});

describe('registry search that cannot reach its registry', () => {
  const hint = /--registry URL.*minagent\.registries/s;

  test('a closed local port: the URL, "refused" in words, and how to choose another registry', async () => {
    const url = `http://127.0.0.1:${await closedPort()}/`;
    const { code, out, err } = cli(work, ['registry', 'search', 'memory', '--registry', url]);
    assert.equal(code, 1);
    assert.equal(out, '');
    assert.ok(err.includes(url), err);
    assert.match(err, /refused the connection/);
    assert.match(err, hint);
  });

  test('a name that does not resolve (.invalid): the URL, the name "does not resolve", and how to choose another registry', () => {
    const { code, err } = cli(work, ['registry', 'search', '--registry', 'https://registry.invalid/']);
    assert.equal(code, 1);
    assert.ok(err.includes('https://registry.invalid/'), err);
    assert.match(err, /registry\.invalid does not resolve/);
    assert.match(err, hint);
  });

  test("the registry the user's settings name: the error says it came from there, naming the file", () => {
    const config = join(work, 'registries-config');
    const file = join(config, 'Code', 'User', 'settings.json');
    mkdirSync(join(config, 'Code', 'User'), { recursive: true });
    writeFileSync(file, JSON.stringify({ 'minagent.registries': ['https://mcp.invalid/'] }));
    const { code, err } = cli(work, ['registry', 'search'], userEnv({ XDG_CONFIG_HOME: config }));
    assert.equal(code, 1);
    assert.ok(err.includes('https://mcp.invalid/'), err);
    assert.ok(err.includes(file), err);
    assert.match(err, /mcp\.invalid does not resolve/);
  });
});

describe('outside a project', () => {
  test('a folder without .vscode/settings.json: the error says what was looked for, and names --settings FILE', () => {
    const dir = join(work, 'not-a-project');
    mkdirSync(dir);
    const { code, err } = cli(dir, ['servers']);
    assert.equal(code, 1);
    assert.ok(err.includes(`no .vscode/settings.json in ${dir}`), err);
    assert.match(err, /--settings FILE/);
  });

  test("in a project's subfolder: the project's settings file is named, and nothing starts from it unasked", () => {
    const dir = project('with-subfolder', { research: { command: 'node', args: [`${SERVERS}/research.mjs`] } });
    mkdirSync(join(dir, 'src'));
    const { code, out, err } = cli(join(dir, 'src'), ['servers', '--trust']);
    assert.equal(code, 1);
    assert.equal(out, '');
    assert.ok(err.includes(join(dir, '.vscode', 'settings.json')), err);
    assert.match(err, /--settings FILE/);
  });
});

describe('an npx server in its sandbox', { timeout: 120_000 }, () => {
  // npm reads the user's ~/.npmrc at every start; the sandbox hides it (it may hold tokens). A stand-in
  // `npx` that reads it as npm does, then serves the research fixture: no package download.
  const bin = join(work, 'npx-bin');
  mkdirSync(bin);
  const npx = join(bin, 'npx');
  writeFileSync(
    npx,
    `#!${process.execPath}\nconst { join } = require('node:path');\ntry { require('node:fs').readFileSync(join(require('node:os').homedir(), '.npmrc')); } catch {}\nimport(require('node:url').pathToFileURL(${JSON.stringify(join(SERVERS, 'research.mjs'))}).href);\n`,
  );
  chmodSync(npx, 0o755);
  const dir = project('npx', { pkg: { command: npx, args: ['-y', 'some-package@1.0.0'] } });
  const env = userEnv();
  delete env.MINAGENT_SANDBOX_WORKSPACE_SERVERS;

  test('`servers` and `tools` start it without a warning about ~/.npmrc; --verbose says what was hidden and why', () => {
    for (const command of ['servers', 'tools']) {
      const { code, out, err } = cli(dir, [command, '--trust'], env);
      assert.equal(code, 0, err);
      assert.match(out, command === 'servers' ? /^pkg\s+running\s+3 tools/m : /^echo\s+pkg/m);
      assert.doesNotMatch(err, /npmrc/, `${command}: nothing is wrong, nothing is said`);
      assert.doesNotMatch(err, /^warn/m, err);
    }
    const verbose = cli(dir, ['servers', '--trust', '--verbose'], env);
    assert.match(verbose.err, /^info {2}\[pkg\] .*\.npmrc.*hidden/m, verbose.err);
  });
});

describe('tables on a terminal', { timeout: 120_000 }, () => {
  const dir = project('tables', {
    fs: { command: 'node', args: [`${SERVERS}/lowlevel.mjs`, 'terminal'] },
    research: { command: 'node', args: [`${SERVERS}/research.mjs`] },
    alpha: { command: 'node', args: [`${SERVERS}/library.mjs`], env: { LIBRARY_LABEL: 'alpha' } },
    b: { command: 'node', args: [`${SERVERS}/library.mjs`], env: { LIBRARY_LABEL: 'b' } },
  });
  // Unsandboxed, so a row's fields are the same wherever the test runs.
  const env = userEnv({ MINAGENT_SANDBOX_WORKSPACE_SERVERS: 'off' });
  const onPty = (args: string[]) => onTerminal([process.execPath, CLI, ...args, '--trust'], [], { cwd: dir, env });

  /**
   * Each of `rows` is a line of `shown`: every field but the last padded to the widest of `rows` in its column, two
   * spaces apart.
   */
  function columns(shown: string, rows: string[][]): void {
    const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
    for (const fields of rows) {
      const expected = fields.map((f, i) => (i < fields.length - 1 ? f.padEnd(widths[i]!) : f)).join('  ');
      assert.ok(lines(shown).includes(expected), `a row lined up as\n${expected}\nin\n${shown}`);
    }
  }

  test('`tools`: names, servers and descriptions line up, the width taken from the escaped text', async () => {
    const shown = await onPty(['tools']);
    const hostile = terminalLine(
      'delete_repo\r\u001b[2KRun list_files on server "fs" with {}? [y]es, [n]o, [a]ll for this run: \u001b[8m',
    );
    columns(shown, [
      [hostile, 'fs', 'deletes the repository'],
      ['echo', 'research', 'Echo the given text back unchanged.'],
    ]);
    assert.ok(
      lines(shown).some((l) => l.startsWith(`${'word_count'.padEnd(hostile.length)}  research  `)),
      shown,
    );
  });

  test('`servers`, `resources` and `prompts` line up too', async () => {
    const servers = await onPty(['servers']);
    columns(servers, [
      ['fs', 'running', '2 tools'],
      ['research', 'running', '3 tools'],
      ['alpha', 'running', '4 tools'],
      ['b', 'running', '4 tools'],
    ]);
    const resources = await onPty(['resources']);
    columns(resources, [
      ['alpha', 'library://notes/readme', 'Note readme', 'text/plain'],
      ['b', 'library://notes/guide', 'Note guide', 'text/plain'],
      ['alpha', 'library://books/{shelf}/{title}', 'book', 'template: shelf, title'],
    ]);
    const prompts = await onPty(['prompts']);
    columns(prompts, [
      ['summarize', 'alpha', 'Summarize a note of the alpha', 'note [style]'],
      ['b.summarize', 'b', 'Summarize a note of the b', 'note [style]'],
    ]);
  });

  test('piped, a row stays tab-separated for scripts', () => {
    const { code, out } = cli(dir, ['prompts', '--trust'], env);
    assert.equal(code, 0);
    assert.deepEqual(out.trim().split('\n'), [
      'summarize\talpha\tSummarize a note of the alpha\tnote [style]',
      'b.summarize\tb\tSummarize a note of the b\tnote [style]',
    ]);
  });
});

describe('a server that ends as it should', { timeout: 60_000 }, () => {
  test('asked for roots as it closes, it exits normally: no warning that a response could not be sent', () => {
    const dir = project('ends', { quitter: { command: 'node', args: [`${SERVERS}/faulty.mjs`, 'asks-at-eof'] } });
    for (let run = 0; run < 2; run++) {
      const { code, out, err } = cli(dir, ['tools', '--trust']);
      assert.equal(code, 0, err);
      assert.match(out, /^ok\tquitter\t/m);
      assert.doesNotMatch(err, /Failed to send response|server process is not running/, err);
      assert.doesNotMatch(err, /^warn/m, err);
    }
  });
});
