// Issue 51, item 5: a registry cannot add what the user never sees. `minagent registry search|add`
// against local registries serving the v0.1 API (fixtures/registry/runner-options): real packages
// with something added. A fixed value marked secret is shown and written as it is, never turned into
// an `${input:}`; an option that changes where the launcher's code comes from (npx, uvx, docker, dnx)
// is refused by name, in every form, naming the server, the argument and the option; a newline or a
// direction override in what runs shows as an escape; and a cloned folder's settings do not choose
// the registry (user settings only).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parseSettingsText } from '../../src/core/base/jsonc';
import { ROOT } from '../helpers';
import { NPX_FROM_CACHE } from '../npxPackages';

const CLI = join(ROOT, 'dist', 'cli.js');
const FIXTURES = join(ROOT, 'fixtures', 'registry');
interface Fixture {
  url: string;
  requests: string[];
  close(): Promise<void>;
}
const start = async (dir: string): Promise<Fixture> =>
  ((await import(join(FIXTURES, 'registry.mjs'))) as { startRegistry(o: object): Promise<Fixture> }).startRegistry({
    dirs: [join(FIXTURES, dir)],
    pageSize: 10,
  });

const work = mkdtempSync(join(tmpdir(), 'minagent-cli-registry-hidden-'));
mkdirSync(join(work, '.vscode'));
const settingsFile = join(work, '.vscode', 'settings.json');
const config = join(work, 'config');
const inputsFile = join(config, 'minagent', 'inputs.json');

function cli(args: string[], cwd = work): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      {
        cwd,
        encoding: 'utf8',
        timeout: 60_000,
        env: { ...process.env, ...NPX_FROM_CACHE, XDG_CONFIG_HOME: config, XDG_CACHE_HOME: join(work, 'cache') },
      },
      (err, out, errText) => {
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, out, err: errText });
      },
    );
  });
}
const servers = () =>
  (
    parseSettingsText(readFileSync(settingsFile, 'utf8'), settingsFile) as {
      'minagent.servers': Record<string, Record<string, unknown>>;
    }
  )['minagent.servers'];

describe('a registry that adds what the user never sees', () => {
  let registry: Fixture;
  /** `minagent registry add NAME --yes` from the hostile registry into the work folder's settings. */
  const add = (name: string) =>
    cli(['registry', 'add', name, '--registry', registry.url, '--settings', settingsFile, '--yes']);
  before(async () => {
    registry = await start('runner-options');
    writeFileSync(settingsFile, '{}\n');
  });
  after(() => registry.close());

  test('attack: the real memory server with a fixed --registry marked secret is refused, naming the server, the argument and the option; nothing is written', async () => {
    const added = await add('com.example.hostile/memory');
    assert.equal(added.code, 1, added.err);
    assert.match(
      added.err,
      /cannot add com\.example\.hostile\/memory: package npm "@modelcontextprotocol\/server-memory": runtime argument "--registry=http:\/\/127\.0\.0\.1:9\/" carries --registry, an option of npx that changes where the code comes from or what it may reach/,
    );
    assert.equal(servers(), undefined, 'no entry written');
    assert.ok(
      !existsSync(inputsFile) || !readFileSync(inputsFile, 'utf8').includes('127.0.0.1:9'),
      'nothing kept as a secret',
    );
    const search = await cli(['registry', 'search', 'memory', '--registry', registry.url]);
    assert.match(
      search.out,
      /cannot add package npm "@modelcontextprotocol\/server-memory": runtime argument "--registry=http:\/\/127\.0\.0\.1:9\/" carries --registry/,
    );
    assert.doesNotMatch(search.out, /input:|<secret>/);
  });

  test('every form of a runner option is refused by name: npx, uvx, docker, and dnx (which reads its package arguments too)', async () => {
    const found = JSON.parse(
      (await cli(['registry', 'search', 'options', '--registry', registry.url, '--json'])).out,
    ) as Array<{ name: string; adds: unknown[]; unusable: Array<{ what: string; problem: string }> }>;
    const problems = (name: string) => {
      const s = found.find((f) => f.name === name);
      assert.ok(s, name);
      assert.deepEqual(s.adds, [], `${name}: no way to add it is left`);
      return s.unusable.map((u) => u.problem);
    };
    const expect = (name: string, patterns: RegExp[]) => {
      const got = problems(name);
      assert.equal(got.length, patterns.length, got.join('\n'));
      patterns.forEach((p, i) => assert.match(got[i]!, p));
    };
    const option = (argument: string, name: string, runner: string, where = 'runtime') =>
      new RegExp(
        `^${where} argument "${argument.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}" carries ${name}, an option of ${runner} that changes where the code comes from or what it may reach`,
      );
    const EVIL = 'http://127.0.0.1:9/';
    expect('com.example.hostile/npx-options', [
      option(`--registry ${EVIL}`, '--registry', 'npx'),
      option('--registry', '--registry', 'npx'),
      option('--userconfig=/tmp/their-npmrc', '--userconfig', 'npx'),
      option('--prefix /tmp/their-prefix', '--prefix', 'npx'),
      option(`--@modelcontextprotocol:registry=${EVIL}`, '--@modelcontextprotocol:registry', 'npx'),
      option(`--regis=${EVIL}`, '--registry', 'npx'),
      option(`-reg=${EVIL}`, '--registry', 'npx'),
      option('-p their-package', '--package', 'npx'),
      /^runtime argument "--" ends the options of npx: what follows would be read as what to run/,
      option(`--registry=${EVIL}`, '--registry', 'npx'),
      option(`--registry=${EVIL}`, '--registry', 'npx'),
      /^environment variable npm_config_registry is read by npx and changes where the code comes from or what it may reach/,
      /^environment variable NODE_OPTIONS is read by npx/,
    ]);
    expect('com.example.hostile/uvx-options', [
      option(`--index-url ${EVIL}`, '--index-url', 'uvx'),
      option(`--extra-index-url=${EVIL}`, '--extra-index-url', 'uvx'),
      option('-i', '--index-url', 'uvx'),
      option('--from their-package', '--from', 'uvx'),
      option('--with=their-package', '--with', 'uvx'),
      /^environment variable UV_INDEX_URL is read by uvx/,
    ]);
    expect('com.example.hostile/docker-options', [
      option('-v /:/host', '--volume', 'docker'),
      option('-iv/:/host', '--volume', 'docker'),
      option('--privileged', '--privileged', 'docker'),
      option('--network=host', '--network', 'docker'),
      option('--mount type=bind,src=/,dst=/host', '--mount', 'docker'),
      /^environment variable DOCKER_HOST is read by docker/,
    ]);
    expect('com.example.hostile/dnx-options', [
      option(`--source ${EVIL}`, '--source', 'dnx'),
      option(`--add-source:${EVIL}`, '--add-source', 'dnx', 'package'),
      /^package argument "@\/tmp\/their-arguments\.rsp" is read by dnx as a file of more arguments/,
    ]);
  });

  test('a fixed value marked secret is shown and written as it is; nothing is kept as a secret', async () => {
    const search = await cli(['registry', 'search', 'fixed-secret', '--registry', registry.url]);
    assert.match(
      search.out,
      /^ {4}npm: MEMORY_FILE_PATH='\/tmp\/their graph\.jsonl' npx -y --loglevel=warn @modelcontextprotocol\/server-memory@2026\.7\.4$/m,
    );
    const added = await add('com.example.hostile/fixed-secret');
    assert.equal(added.code, 0, added.err);
    assert.match(
      added.err,
      /^ {4}MEMORY_FILE_PATH='\/tmp\/their graph\.jsonl' npx -y --loglevel=warn @modelcontextprotocol\/server-memory@2026\.7\.4$/m,
    );
    assert.doesNotMatch(added.err, /secrets kept/);
    const entry = servers()['fixed-secret']!;
    assert.deepEqual(entry.args, ['-y', '--loglevel=warn', '@modelcontextprotocol/server-memory@2026.7.4']);
    assert.deepEqual(entry.env, { MEMORY_FILE_PATH: '/tmp/their graph.jsonl' });
    assert.ok(
      !existsSync(inputsFile) || !readFileSync(inputsFile, 'utf8').includes('their graph'),
      'the fixed value is not kept as a secret',
    );
  });

  test('a newline and a direction override in what runs are shown as escapes a shell would read back, in the search and the confirmation', async () => {
    const line = `MEMORY_FILE_PATH=$'/tmp/graph\\u202elnosj.jsonl' npx -y @modelcontextprotocol/server-memory@2026.7.4 $'ok\\nnpx -y @modelcontextprotocol/server-memory@2026.7.4'`;
    const search = await cli(['registry', 'search', 'invisible', '--registry', registry.url]);
    assert.ok(search.out.includes(`    npm: ${line}\n`), search.out);
    const added = await add('com.example.hostile/invisible');
    assert.equal(added.code, 0, added.err);
    assert.ok(added.err.includes(`    ${line}\n`), added.err);
    assert.doesNotMatch(added.out + added.err + search.out, /\u202e/);
    assert.deepEqual(servers().invisible!.env, { MEMORY_FILE_PATH: '/tmp/graph\u202elnosj.jsonl' }, 'written as it is');
  });
});

describe("a cloned folder's settings", () => {
  let mine: Fixture;
  let theirs: Fixture;
  before(async () => {
    mine = await start('servers');
    theirs = await start('runner-options');
  });
  after(async () => {
    await mine.close();
    await theirs.close();
  });

  test("attack: a folder's minagent.registries is not read by registry search or add; the user's settings are", async () => {
    const folder = mkdtempSync(join(tmpdir(), 'minagent-cloned-'));
    mkdirSync(join(folder, '.vscode'));
    writeFileSync(join(folder, '.vscode', 'settings.json'), JSON.stringify({ 'minagent.registries': [theirs.url] }));
    mkdirSync(join(config, 'Code', 'User'), { recursive: true });
    writeFileSync(join(config, 'Code', 'User', 'settings.json'), JSON.stringify({ 'minagent.registries': [mine.url] }));
    const search = await cli(['registry', 'search', 'memory'], folder);
    assert.equal(search.code, 0, search.err);
    assert.match(search.out, /^io\.github\.modelcontextprotocol\/server-memory {2}2026\.8\.31/m);
    const added = await cli(['registry', 'add', 'io.github.modelcontextprotocol/server-memory', '--yes'], folder);
    assert.equal(added.code, 0, added.err);
    const written = parseSettingsText(readFileSync(join(folder, '.vscode', 'settings.json'), 'utf8'), 'settings') as {
      'minagent.servers': Record<string, { registry: { url: string } }>;
    };
    assert.equal(written['minagent.servers'].memory!.registry.url, mine.url);
    assert.deepEqual(theirs.requests, [], "the folder's registry was never asked");
  });
});
