// `minagent registry search|add` against a local registry serving the v0.1 API (fixtures/registry):
// the listing as text and JSON, a hostile registry's text made harmless on the terminal, an npm
// server added and started from the entry it wrote, a secret given without a terminal kept out of
// the settings (in the CLI's inputs file) yet handed to the server, a remote with a URL variable,
// and the refusals that name what is missing.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parseSettingsText } from '../../src/core/base/jsonc';
import { ROOT } from '../helpers';
import { fetchForNpx, NPX_FROM_CACHE } from '../npxPackages';
import { onTerminal } from '../pty';

const CLI = join(ROOT, 'dist', 'cli.js');
const FIXTURES = join(ROOT, 'fixtures', 'registry');
interface Fixture {
  url: string;
  close(): Promise<void>;
}
const start = async (dirs: string[]): Promise<Fixture> =>
  ((await import(join(FIXTURES, 'registry.mjs'))) as { startRegistry(o: object): Promise<Fixture> }).startRegistry({
    dirs,
    pageSize: 4,
  });

const work = mkdtempSync(join(tmpdir(), 'minagent-cli-registry-'));
mkdirSync(join(work, '.vscode'));
const settingsFile = join(work, '.vscode', 'settings.json');
const config = join(work, 'config');

function cli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      {
        cwd: work,
        encoding: 'utf8',
        timeout: 120_000,
        env: {
          ...process.env,
          ...NPX_FROM_CACHE,
          XDG_CONFIG_HOME: config,
          XDG_CACHE_HOME: join(work, 'cache'),
          ...env,
        },
      },
      (err, out, errText) => {
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, out, err: errText });
      },
    );
  });
}
const settings = () =>
  parseSettingsText(readFileSync(settingsFile, 'utf8'), settingsFile) as {
    'minagent.servers': Record<string, Record<string, unknown>>;
  };

describe('minagent registry', () => {
  let registry: Fixture;
  let hostile: Fixture;
  /** `minagent registry add NAME --registry <the local one> --settings <the work folder's>`, and the rest. */
  const add = (name: string, ...rest: string[]) =>
    cli(['registry', 'add', name, '--registry', registry.url, '--settings', settingsFile, ...rest]);
  before(async () => {
    // The two real npm servers the entries added here run (`npx -y`), fetched before the starts the tests watch.
    await fetchForNpx(['@modelcontextprotocol/server-memory@2026.7.4', '@modelcontextprotocol/server-github@2025.4.8']);
    registry = await start([join(FIXTURES, 'servers')]);
    hostile = await start([join(FIXTURES, 'hostile')]);
    writeFileSync(settingsFile, '{\n  // my own comment stays\n  "editor.tabSize": 2\n}\n');
  });
  after(async () => {
    await registry.close();
    await hostile.close();
  });

  test('search: each server with its version, title, description and the exact command line adding it writes', async () => {
    const { code, out } = await cli(['registry', 'search', 'memory', '--registry', registry.url]);
    assert.equal(code, 0);
    assert.match(out, /^io\.github\.modelcontextprotocol\/server-memory {2}2026\.8\.31 {2}Memory$/m);
    assert.match(out, /^ {4}npm: npx -y @modelcontextprotocol\/server-memory@2026\.8\.31$/m);
    const json = JSON.parse((await cli(['registry', 'search', '--registry', registry.url, '--json'])).out) as Array<{
      name: string;
      adds: Array<{ kind: string; runs: string }>;
    }>;
    assert.equal(json.length, 6, 'every page read');
    assert.deepEqual(
      json.find((s) => s.name === 'io.github.modelcontextprotocol/server-time')!.adds.map((a) => a.runs),
      ['uvx mcp-server-time==2026.5.2', 'docker run -i --rm docker.io/mcp/time:2026.5.2'],
    );
    assert.deepEqual(
      json.find((s) => s.name === 'io.github.modelcontextprotocol/server-github')!.adds.map((a) => a.runs),
      ['GITHUB_PERSONAL_ACCESS_TOKEN=<secret> npx -y @modelcontextprotocol/server-github@2025.4.8'],
    );
    // A URL template's variable shows as what will be asked, not as if the template were the address.
    assert.deepEqual(
      json.find((s) => s.name === 'com.example.mcp/weather')!.adds.map((a) => a.runs),
      ['http://127.0.0.1:<port>/mcp'],
    );
  });

  test('search on a hostile registry: no escape reaches the terminal, what cannot be added says why, a document past the bounds is named', async () => {
    const { code, out, err } = await cli(['registry', 'search', '--registry', hostile.url]);
    assert.equal(code, 0);
    assert.doesNotMatch(out + err, /[\u001b\u0007\u202e]/);
    assert.match(
      out,
      /cannot add package npm "--registry=http:\/\/evil\.example\/": "--registry=http:\/\/evil\.example\/" is not an npm package name/,
    );
    assert.match(out, /cannot add remote streamable-http https:\/\/mcp\.evil\.example\/mcp: holds "\$\{"/);
    assert.match(err, /skipped a document of .*: server "com\.example\.hostile\/huge": description/);
  });

  test('add: an older version of a real npm server is written (comments kept) and starts from the entry', async () => {
    const added = await add(
      'io.github.modelcontextprotocol/server-memory@2026.7.4',
      '--set',
      `MEMORY_FILE_PATH=${join(work, 'graph.jsonl')}`,
      '--yes',
    );
    assert.equal(added.code, 0, added.err);
    assert.match(added.err, /npx -y @modelcontextprotocol\/server-memory@2026\.7\.4/);
    assert.match(readFileSync(settingsFile, 'utf8'), /my own comment stays/);
    assert.deepEqual(settings()['minagent.servers'].memory, {
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-memory@2026.7.4'],
      env: { MEMORY_FILE_PATH: join(work, 'graph.jsonl') },
      registry: { url: registry.url, name: 'io.github.modelcontextprotocol/server-memory', version: '2026.7.4' },
    });
    const run = await cli(['servers', '--settings', settingsFile, '--trust', '--sandbox', 'off']);
    assert.match(run.out, /^memory\trunning\t9 tools/m, run.err);
  });

  test('add: a secret given without a terminal goes to the inputs file (0600), the settings hold ${input:}, and the server gets it', async () => {
    const missing = await add('io.github.modelcontextprotocol/server-github', '--yes');
    assert.equal(missing.code, 2);
    assert.match(
      missing.err,
      /needs "GITHUB_PERSONAL_ACCESS_TOKEN" \(A personal access token \(repo scope\)\.\): give it with --set 'env\.GITHUB_PERSONAL_ACCESS_TOKEN=VALUE'/,
    );
    const added = await add(
      'io.github.modelcontextprotocol/server-github',
      '--set',
      'GITHUB_PERSONAL_ACCESS_TOKEN=ghp_registry_secret_1234',
      '--yes',
    );
    assert.equal(added.code, 0, added.err);
    assert.doesNotMatch(readFileSync(settingsFile, 'utf8') + added.out + added.err, /ghp_registry_secret_1234/);
    assert.deepEqual(settings()['minagent.servers'].github!.env, {
      GITHUB_PERSONAL_ACCESS_TOKEN: '${input:github.env.GITHUB_PERSONAL_ACCESS_TOKEN}',
    });
    const inputs = join(config, 'minagent', 'inputs.json');
    assert.match(readFileSync(inputs, 'utf8'), /ghp_registry_secret_1234/);
    assert.equal(statSync(inputs).mode & 0o777, 0o600);
    const run = await cli(['servers', '--settings', settingsFile, '--trust', '--sandbox', 'off']);
    assert.match(run.out, /^github\trunning\t\d+ tools/m, run.err);
    assert.doesNotMatch(run.err, /input .* has no value/);
    // Another folder's entry of the same name and command does not get the value.
    const other = join(mkdtempSync(join(tmpdir(), 'minagent-cli-registry-other-')), 'settings.json');
    writeFileSync(other, JSON.stringify({ 'minagent.servers': { github: settings()['minagent.servers'].github } }));
    const elsewhere = await cli(['servers', '--settings', other, '--trust', '--sandbox', 'off']);
    assert.match(elsewhere.err, /input "github\.env\.GITHUB_PERSONAL_ACCESS_TOKEN" has no value/);
  });

  test('add on a terminal: the secret is asked without echo, the exact command line shown, and written once confirmed', async () => {
    const file = join(work, 'terminal.json');
    const shown = await onTerminal(
      [
        process.execPath,
        CLI,
        'registry',
        'add',
        'io.github.modelcontextprotocol/server-github',
        '--registry',
        registry.url,
        '--settings',
        file,
      ],
      [
        ['GITHUB_PERSONAL_ACCESS_TOKEN (A personal access token (repo scope).) required: ', 'ghp_typed_on_terminal_42'],
        ['Write this entry? [y/N] ', 'y'],
      ],
      { cwd: work, env: { ...process.env, XDG_CONFIG_HOME: config } },
    );
    assert.doesNotMatch(shown, /ghp_typed_on_terminal_42/, 'the typed secret is not shown');
    assert.match(
      shown,
      /GITHUB_PERSONAL_ACCESS_TOKEN=\$\{input:github\.env\.GITHUB_PERSONAL_ACCESS_TOKEN\} npx -y @modelcontextprotocol\/server-github@2025\.4\.8/,
    );
    assert.match(shown, /added "github"/);
    assert.match(readFileSync(join(config, 'minagent', 'inputs.json'), 'utf8'), /ghp_typed_on_terminal_42/);
  });

  test('add: a remote with a URL variable becomes an HTTP entry; a name taken, a bad --set and a missing terminal are refused', async () => {
    const added = await add('com.example.mcp/weather', '--set', 'url.port=9400', '--yes');
    assert.equal(added.code, 0, added.err);
    assert.deepEqual(settings()['minagent.servers'].weather, {
      type: 'http',
      url: 'http://127.0.0.1:9400/mcp',
      headers: { 'X-Units': 'metric' },
      registry: { url: registry.url, name: 'com.example.mcp/weather', version: '1.4.0' },
    });
    const again = await add('com.example.mcp/weather', '--yes');
    assert.equal(again.code, 2);
    assert.match(again.err, /already has a server named "weather"; choose another with --name/);
    const badSet = await add('com.example.mcp/weather', '--name', 'w2', '--set', 'nope=1', '--yes');
    assert.match(badSet.err, /--set "nope": the server asks for url\.port, header\.X-Units/);
    const unconfirmed = await add('com.example.mcp/weather', '--name', 'w3');
    assert.equal(unconfirmed.code, 2);
    assert.match(unconfirmed.err, /no terminal to confirm on: add --yes to write it/);
    assert.equal(settings()['minagent.servers'].w3, undefined);
    assert.equal(existsSync(join(work, 'w3')), false);
  });
});
