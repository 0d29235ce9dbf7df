// From a registry's server.json to a minagent.servers entry: every package type and a remote, with
// required, secret, default and choice variables; and what a hostile document tries (an option for
// a package name, ${env:} in a header, a URL variable that moves the host, control characters).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { buildEntry, plansOf, previewOf, type Plan } from '../../src/core/serverRegistry/launch';
import { shellWord } from '../../src/core/serverRegistry/shownCommand';
import { parseServerJson, registryText, type ServerJson } from '../../src/core/serverRegistry/serverJson';
import { ROOT } from '../helpers';

const FIXTURES = join(ROOT, 'fixtures', 'registry');
const docs = (dir: string) =>
  readdirSync(join(FIXTURES, dir))
    .filter((f) => f.endsWith('.json'))
    .map((f) => ({ file: f, ...(JSON.parse(readFileSync(join(FIXTURES, dir, f), 'utf8')) as { server: unknown }) }));
const REGISTRY = { url: 'http://127.0.0.1:1/', name: 'x', version: '1' };
const build = (server: ServerJson, plan: Plan, answers: Record<string, string> = {}, name = 'srv') =>
  buildEntry(server, plan, answers, { name, registry: { ...REGISTRY, name: server.name, version: server.version } });
const only = (server: ServerJson, kind: string) => {
  const plan = plansOf(server).plans.find((p) => p.kind === kind);
  assert.ok(plan, `a ${kind} plan for ${server.name}`);
  return plan;
};

/** The schema's rules (2025-12-11) that a publisher's document must meet, as the registry's validator applies them. */
// biome-ignore lint/suspicious/noExplicitAny: a publisher's document of any shape, read as the registry reads it
function schemaProblems(doc: Record<string, any>): string[] {
  const out: string[] = [];
  if (
    typeof doc.name !== 'string' ||
    !/^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/.test(doc.name) ||
    doc.name.length < 3 ||
    doc.name.length > 200
  )
    out.push('name');
  if (typeof doc.description !== 'string' || doc.description.length < 1 || doc.description.length > 100)
    out.push('description (1-100 characters)');
  if (typeof doc.version !== 'string' || doc.version.length > 255 || /^[\^~><=]|\.x$|\*|\s/.test(doc.version))
    out.push('version');
  for (const p of doc.packages ?? []) {
    for (const k of ['registryType', 'identifier', 'transport']) if (p[k] === undefined) out.push(`package ${k}`);
    if (['npm', 'pypi', 'nuget'].includes(p.registryType) && (typeof p.version !== 'string' || p.version === 'latest'))
      out.push('package version');
    for (const a of [...(p.runtimeArguments ?? []), ...(p.packageArguments ?? [])]) {
      if (a.type === 'positional' && a.value === undefined && a.valueHint === undefined)
        out.push('positional value or valueHint');
      if (a.type === 'named' && typeof a.name !== 'string') out.push('named name');
    }
    for (const e of p.environmentVariables ?? []) if (typeof e.name !== 'string') out.push('environment variable name');
    if ((p.runtimeArguments ?? []).length && !p.runtimeHint) out.push('runtimeHint with runtimeArguments');
  }
  for (const r of doc.remotes ?? []) {
    if (!['streamable-http', 'sse'].includes(r.type)) out.push('remote type');
    if (typeof r.url !== 'string' || !/^(https?:\/\/|\{)/.test(r.url)) out.push('remote url');
  }
  if (doc.$schema !== 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json')
    out.push('$schema');
  return out;
}

describe("the fixture registry's documents", () => {
  test("each meets the schema's rules and MinAgent reads it", () => {
    for (const d of docs('servers')) {
      assert.deepEqual(schemaProblems(d.server as Record<string, unknown>), [], d.file);
      assert.doesNotThrow(() => parseServerJson(d.server), d.file);
    }
    // The check itself: a description past 100 characters, a version range and a package without its version are
    // caught.
    assert.deepEqual(
      schemaProblems({
        $schema: 'x',
        name: 'a/b',
        description: 'x'.repeat(101),
        version: '^1.0.0',
        packages: [{ registryType: 'npm', identifier: 'p', transport: { type: 'stdio' } }],
      }),
      ['description (1-100 characters)', 'version', 'package version', '$schema'],
    );
  });
});

describe('mapping a package to an entry', () => {
  const doc = (file: string) => parseServerJson(docs('servers').find((d) => d.file === file)!.server);

  test('npm: npx -y package@version; an optional variable left empty is not written, one given is', () => {
    const memory = doc('memory-2026.8.31.json');
    const plan = only(memory, 'npm');
    assert.deepEqual(
      plan.asks.map((a) => [a.id, a.required, a.secret, a.format]),
      [['env.MEMORY_FILE_PATH', false, false, 'filepath']],
    );
    const bare = build(memory, plan);
    assert.deepEqual(bare.entry, {
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-memory@2026.8.31'],
      registry: { url: REGISTRY.url, name: 'io.github.modelcontextprotocol/server-memory', version: '2026.8.31' },
    });
    assert.equal(bare.shown, 'npx -y @modelcontextprotocol/server-memory@2026.8.31');
    const given = build(memory, plan, { 'env.MEMORY_FILE_PATH': '/home/me/graph.jsonl' });
    assert.deepEqual(given.entry.env, { MEMORY_FILE_PATH: '/home/me/graph.jsonl' });
    assert.equal(
      given.shown,
      'MEMORY_FILE_PATH=/home/me/graph.jsonl npx -y @modelcontextprotocol/server-memory@2026.8.31',
    );
  });

  test('a required positional argument is asked and goes after the package; missing, the error names it', () => {
    const fs = doc('filesystem.json');
    const plan = only(fs, 'npm');
    assert.deepEqual(
      plan.asks.map((a) => [a.label, a.required]),
      [['allowed_folder', true]],
    );
    assert.deepEqual(build(fs, plan, { 'arg.allowed_folder': '/work/project' }).entry.args, [
      '-y',
      '@modelcontextprotocol/server-filesystem@2026.8.31',
      '/work/project',
    ]);
    assert.throws(() => build(fs, plan), /"allowed_folder" is required/);
  });

  test('a secret becomes ${input:NAME.ID} in the entry and its value is kept apart', () => {
    const gh = doc('github.json');
    const plan = only(gh, 'npm');
    assert.deepEqual(
      plan.asks.map((a) => [a.id, a.required, a.secret]),
      [['env.GITHUB_PERSONAL_ACCESS_TOKEN', true, true]],
    );
    const built = build(gh, plan, { 'env.GITHUB_PERSONAL_ACCESS_TOKEN': 'ghp_secret123456' }, 'github');
    assert.deepEqual(built.entry.env, {
      GITHUB_PERSONAL_ACCESS_TOKEN: '${input:github.env.GITHUB_PERSONAL_ACCESS_TOKEN}',
    });
    assert.deepEqual(built.secrets, { 'github.env.GITHUB_PERSONAL_ACCESS_TOKEN': 'ghp_secret123456' });
    assert.doesNotMatch(JSON.stringify(built.entry) + built.shown, /ghp_secret/);
  });

  test('pypi: uvx package==version with its named argument; oci: docker run -i --rm image:tag', () => {
    const time = doc('time-python.json');
    const py = only(time, 'pypi');
    assert.deepEqual(build(time, py, { 'arg.--local-timezone': 'Europe/Paris' }).entry.args, [
      'mcp-server-time==2026.5.2',
      '--local-timezone',
      'Europe/Paris',
    ]);
    assert.equal(build(time, py).entry.command, 'uvx');
    const oci = only(time, 'oci');
    const built = build(time, oci);
    assert.equal(built.shown, 'docker run -i --rm docker.io/mcp/time:2026.5.2');
    assert.equal(oci.runtimeHint, 'docker');
  });

  test('nuget: dnx package@version --yes; runtime arguments before the package, package arguments after, defaults filled', () => {
    const server = parseServerJson({
      name: 'io.example/dotnet',
      description: 'x',
      version: '1.0.0',
      packages: [
        {
          registryType: 'nuget',
          identifier: 'Example.Mcp.Server',
          version: '1.0.0',
          transport: { type: 'stdio' },
          runtimeHint: 'dnx',
          runtimeArguments: [{ type: 'named', name: '--verbosity', value: 'quiet' }],
          packageArguments: [
            { type: 'named', name: '--mode', default: 'fast', choices: ['fast', 'safe'] },
            { type: 'positional', value: 'serve' },
          ],
        },
      ],
    });
    const plan = only(server, 'nuget');
    assert.deepEqual(build(server, plan).entry.args, [
      '--verbosity',
      'quiet',
      'Example.Mcp.Server@1.0.0',
      '--yes',
      '--mode',
      'fast',
      'serve',
    ]);
    assert.throws(() => build(server, plan, { 'arg.--mode': 'reckless' }), /"--mode" must be one of fast, safe/);
  });

  test("a package's own registry is used only when chosen, as --registry before the package", () => {
    const server = parseServerJson({
      name: 'io.example/own',
      description: 'x',
      version: '1.0.0',
      packages: [
        {
          registryType: 'npm',
          registryBaseUrl: 'https://npm.example.com/',
          identifier: 'own-server',
          version: '1.0.0',
          transport: { type: 'stdio' },
        },
      ],
    });
    const plan = only(server, 'npm');
    assert.equal(plan.registryBaseUrl, 'https://npm.example.com/');
    assert.deepEqual(build(server, plan).entry.args, ['-y', 'own-server@1.0.0']);
    const chosen = buildEntry(server, plan, {}, { name: 'own', registry: REGISTRY, useRegistryBaseUrl: true });
    assert.deepEqual(chosen.entry.args, ['-y', '--registry=https://npm.example.com/', 'own-server@1.0.0']);
    assert.equal(chosen.shown, 'npx -y --registry=https://npm.example.com/ own-server@1.0.0');
  });

  test('a remote: the URL variable asked, a header with choices, written as an HTTP entry', () => {
    const weather = doc('weather-remote.json');
    const plan = only(weather, 'remote');
    assert.deepEqual(
      plan.asks.map((a) => [a.id, a.required, a.default, a.choices]),
      [
        ['url.port', true, '8931', undefined],
        ['header.X-Units', false, 'metric', ['metric', 'imperial']],
      ],
    );
    const built = build(weather, plan, { 'url.port': '9100', 'header.X-Units': 'imperial' }, 'weather');
    assert.deepEqual(built.entry, {
      type: 'http',
      url: 'http://127.0.0.1:9100/mcp',
      headers: { 'X-Units': 'imperial' },
      registry: { url: REGISTRY.url, name: 'com.example.mcp/weather', version: '1.4.0' },
    });
  });

  test("issue 53: the gallery's preview of a URL template shows each variable as what the user will be asked (<port>), not as if the template were the URL", () => {
    assert.equal(
      previewOf(doc('weather-remote.json'), only(doc('weather-remote.json'), 'remote')),
      'http://127.0.0.1:<port>/mcp',
    );
    const tenant = parseServerJson({
      name: 'io.example/r',
      description: 'x',
      version: '1',
      remotes: [
        {
          type: 'streamable-http',
          url: 'https://{tenant}.example.com/{v}/mcp',
          variables: { tenant: { isRequired: true } },
        },
      ],
    });
    assert.equal(
      previewOf(tenant, only(tenant, 'remote')),
      'https://<tenant>.example.com/{v}/mcp',
      "braces that name no variable are the document's text",
    );
  });

  test('a header whose value holds a secret variable: its fixed text is written as it is, only what the user typed is a secret', () => {
    const server = parseServerJson({
      name: 'io.example/remote',
      description: 'x',
      version: '2.0.0',
      remotes: [
        {
          type: 'sse',
          url: 'https://{tenant}.mcp.example.com/sse',
          variables: { tenant: { isRequired: true } },
          headers: [
            {
              name: 'Authorization',
              value: 'Bearer {token}',
              variables: { token: { isSecret: true, isRequired: true } },
            },
          ],
        },
      ],
    });
    const plan = only(server, 'remote');
    const built = build(
      server,
      plan,
      { 'url.tenant': 'acme', 'header.Authorization.token': 'tok_abcdef123' },
      'remote',
    );
    assert.deepEqual(built.entry, {
      type: 'sse',
      url: 'https://acme.mcp.example.com/sse',
      headers: { Authorization: 'Bearer ${input:remote.header.Authorization.token}' },
      registry: { url: REGISTRY.url, name: 'io.example/remote', version: '2.0.0' },
    });
    assert.deepEqual(built.secrets, { 'remote.header.Authorization.token': 'tok_abcdef123' });
  });

  test('a fixed value marked secret, or a default the user did not type, is shown and written as it is, never an ${input:}', () => {
    const server = parseServerJson({
      name: 'io.example/fixed',
      description: 'x',
      version: '1.0.0',
      packages: [
        {
          registryType: 'npm',
          identifier: 'ok-pkg',
          version: '1.0.0',
          transport: { type: 'stdio' },
          runtimeArguments: [{ type: 'positional', value: '--loglevel=warn', isSecret: true }],
          packageArguments: [{ type: 'named', name: '--token', isSecret: true, default: 'their-token' }],
          environmentVariables: [
            { name: 'A', value: 'fixed value', isSecret: true },
            { name: 'B', value: 'pre-{key}', variables: { key: { isSecret: true, default: 'their-key' } } },
            { name: 'C', isSecret: true },
          ],
        },
      ],
    });
    const plan = only(server, 'npm');
    const defaults = build(server, plan, {}, 'fixed');
    assert.deepEqual(defaults.entry.args, ['-y', '--loglevel=warn', 'ok-pkg@1.0.0', '--token', 'their-token']);
    assert.deepEqual(defaults.entry.env, { A: 'fixed value', B: 'pre-their-key' });
    assert.deepEqual(defaults.secrets, {});
    assert.equal(
      defaults.shown,
      "A='fixed value' B=pre-their-key npx -y --loglevel=warn ok-pkg@1.0.0 --token their-token",
    );
    const typed = build(server, plan, { 'arg.--token': 'my-token', 'env.B.key': 'my-key', 'env.C': 'my-c' }, 'fixed');
    assert.deepEqual(typed.entry.env, {
      A: 'fixed value',
      B: 'pre-${input:fixed.env.B.key}',
      C: '${input:fixed.env.C}',
    });
    assert.deepEqual(typed.secrets, {
      'fixed.arg.--token': 'my-token',
      'fixed.env.B.key': 'my-key',
      'fixed.env.C': 'my-c',
    });
  });
});

describe('a hostile document', () => {
  const hostile = (file: string) => docs('hostile').find((d) => d.file === file)!.server;

  test('a package named like an option (--registry=...) cannot be added', () => {
    const { plans, unusable } = plansOf(parseServerJson(hostile('option-injection.json')));
    assert.deepEqual(plans, []);
    assert.match(unusable[0]!.problem, /"--registry=http:\/\/evil\.example\/" is not an npm package name/);
  });

  test('${env:...} in a header (your environment handed to a remote host) cannot be added', () => {
    const { plans, unusable } = plansOf(parseServerJson(hostile('env-exfiltration.json')));
    assert.deepEqual(plans, []);
    assert.match(unusable[0]!.problem, /holds "\$\{"/);
  });

  test('a URL variable cannot move the request to another host, and a typed ${env:} is not written either', () => {
    const server = parseServerJson({
      name: 'io.example/r',
      description: 'x',
      version: '1',
      remotes: [
        {
          type: 'streamable-http',
          url: 'https://{tenant}.example.com/mcp',
          variables: { tenant: { isRequired: true } },
        },
      ],
    });
    const plan = only(server, 'remote');
    assert.throws(
      () => build(server, plan, { 'url.tenant': 'evil.example/x?' }),
      /"tenant" \(in the URL\) must be letters/,
    );
    const time = parseServerJson({
      name: 'io.example/t',
      description: 'x',
      version: '1',
      packages: [
        {
          registryType: 'npm',
          identifier: 'x',
          version: '1.0.0',
          transport: { type: 'stdio' },
          environmentVariables: [{ name: 'A' }],
        },
      ],
    });
    assert.throws(() => build(time, only(time, 'npm'), { 'env.A': '${env:HOME}' }), /holds "\$\{"/);
  });

  test('flags, variable names, versions and types that are not what they claim are refused, naming what', () => {
    const pkg = (over: Record<string, unknown>) =>
      plansOf(
        parseServerJson({
          name: 'io.example/p',
          description: 'x',
          version: '1',
          packages: [
            { registryType: 'npm', identifier: 'ok-pkg', version: '1.0.0', transport: { type: 'stdio' }, ...over },
          ],
        }),
      ).unusable[0]?.problem;
    assert.match(
      pkg({ packageArguments: [{ type: 'named', name: '--x; rm -rf ~' }] })!,
      /argument name "--x; rm -rf ~" is not a flag/,
    );
    assert.match(pkg({ environmentVariables: [{ name: 'LD_PRELOAD=/tmp/x' }] })!, /environment variable name/);
    assert.match(pkg({ version: '^1.0.0' })!, /not an exact version/);
    assert.match(pkg({ version: '-v' })!, /not an exact version/);
    assert.match(pkg({ registryType: 'mcpb' })!, /MCPB bundles are not supported/);
    assert.match(pkg({ registryType: 'cargo' })!, /registry type "cargo" is not one MinAgent runs/);
    assert.match(pkg({ transport: { type: 'streamable-http', url: 'http://localhost:3000/mcp' } })!, /speaks stdio/);
    assert.equal(pkg({}), undefined);
  });

  test('an enormous document is refused by its bounds, naming the field', () => {
    assert.throws(() => parseServerJson(hostile('huge.json')), /server "com\.example\.hostile\/huge": description: /);
  });

  test('a runner option is refused where the launcher reads it; what a server itself reads, or an option that does not move the code, is not', () => {
    const usable = (registryType: string, identifier: string, over: Record<string, unknown>) =>
      plansOf(
        parseServerJson({
          name: 'io.example/p',
          description: 'x',
          version: '1',
          packages: [{ registryType, identifier, version: '1.0.0', transport: { type: 'stdio' }, ...over }],
        }),
      ).unusable.map((u) => u.problem);
    // The server's own options, after the package: npx, uvx and docker hand them over untouched.
    assert.deepEqual(
      usable('npm', 'ok-pkg', {
        packageArguments: [
          { type: 'named', name: '--registry', value: 'https://npm.example/' },
          { type: 'positional', value: '-v' },
        ],
      }),
      [],
    );
    assert.deepEqual(
      usable('oci', 'example/time', {
        packageArguments: [
          { type: 'positional', value: '-v' },
          { type: 'named', name: '--network', value: 'x' },
        ],
      }),
      [],
    );
    // Launcher options that do not change where the code comes from.
    assert.deepEqual(
      usable('oci', 'example/time', {
        runtimeArguments: [
          { type: 'named', name: '-e', value: 'TZ=UTC' },
          { type: 'positional', value: '--init' },
          { type: 'positional', value: '-eVOLUME=1' },
        ],
      }),
      [],
    );
    assert.deepEqual(
      usable('npm', 'ok-pkg', {
        runtimeArguments: [
          { type: 'positional', value: '--loglevel=warn' },
          { type: 'positional', value: '-y' },
        ],
      }),
      [],
    );
    // A choice the document offers is checked too, and what the user types for a runtime argument when the entry is
    // built.
    assert.match(
      usable('npm', 'ok-pkg', {
        runtimeArguments: [{ type: 'positional', valueHint: 'mode', choices: ['--quiet', '--prefix=/tmp/x'] }],
      })[0]!,
      /runtime argument "--prefix=\/tmp\/x" carries --prefix/,
    );
    const asked = parseServerJson({
      name: 'io.example/q',
      description: 'x',
      version: '1',
      packages: [
        {
          registryType: 'npm',
          identifier: 'ok-pkg',
          version: '1.0.0',
          transport: { type: 'stdio' },
          runtimeArguments: [{ type: 'positional', valueHint: 'flag', isSecret: true }],
        },
      ],
    });
    assert.throws(
      () => build(asked, only(asked, 'npm'), { 'runtime.flag': '--registry=http://127.0.0.1:9/' }),
      /^Error: runtime argument "\$\{input:srv\.runtime\.flag\}" carries --registry/,
    );
  });

  test('the command line a confirmation shows makes newlines and direction overrides visible, as escapes a shell reads back', () => {
    const server = parseServerJson(docs('runner-options').find((d) => d.file === 'invisible.json')!.server);
    const plan = only(server, 'npm');
    const line =
      "MEMORY_FILE_PATH=$'/tmp/graph\\u202elnosj.jsonl' npx -y @modelcontextprotocol/server-memory@2026.7.4 $'ok\\nnpx -y @modelcontextprotocol/server-memory@2026.7.4'";
    assert.equal(build(server, plan).shown, line);
    assert.equal(previewOf(server, plan), line);
    assert.equal(shellWord("it's \\ \u001b[2J"), "$'it\\'s \\\\ \\u001b[2J'");
    const remote = parseServerJson({
      name: 'io.example/r',
      description: 'x',
      version: '1',
      remotes: [{ type: 'streamable-http', url: 'https://mcp.example.com/\u202e/mcp' }],
    });
    assert.equal(previewOf(remote, only(remote, 'remote')), 'https://mcp.example.com/\\u202e/mcp');
    assert.equal(build(remote, only(remote, 'remote')).shown, 'https://mcp.example.com/\\u202e/mcp');
  });

  test('control characters, terminal escapes and direction overrides are taken out of text for people', () => {
    const doc = parseServerJson(hostile('escapes.json'));
    const shown = registryText(`${doc.title} ${doc.description}`);
    assert.doesNotMatch(shown, /[\u0000-\u001f\u007f-\u009f\u202e]/);
    assert.match(shown, /<b>bold<\/b>/, 'HTML stays text (escaped where it is shown)');
  });
});
