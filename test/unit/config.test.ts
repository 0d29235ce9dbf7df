import assert from 'node:assert/strict';
import fs, { mkdtempSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { mock, test } from 'node:test';
import { describeProblem } from '../../src/core/mcp/config/describe';
import { parseHubSettings } from '../../src/core/mcp/config/hubSettings';
import { parseServers } from '../../src/core/mcp/config/parseServers';
import { readEnvFiles } from '../../src/core/mcp/config/envFiles';
import { serverEnvironment } from '../../src/core/mcp/config/env';
import { parseSettingsText } from '../../src/core/base/jsonc';
import { loadConfig } from '../../src/core/settingsFile';

const ctx = { workspaceFolder: '/ws', env: { TOKEN: 'sekret', HOME: '/home/u' } };

test('variables expand: workspaceFolder, userHome, env', () => {
  const { servers, problems } = parseServers(
    {
      s: {
        command: 'node',
        args: ['${workspaceFolder}/x.js', '${userHome}/y'],
        env: { T: '${env:TOKEN}', N: 3 },
        cwd: 'sub',
      },
    },
    ctx,
  );
  assert.deepEqual(problems, []);
  const s = servers[0]!;
  assert.ok(s.type === 'stdio');
  assert.deepEqual(s.args, ['/ws/x.js', `${homedir()}/y`]);
  assert.deepEqual(s.env, { T: 'sekret', N: '3' });
  assert.equal(s.cwd, '/ws/sub');
});

test('cwd defaults to the workspace folder; type is inferred from url', () => {
  const { servers } = parseServers(
    { a: { command: 'x' }, b: { url: 'http://127.0.0.1:1/mcp', headers: { Authorization: 'Bearer ${env:TOKEN}' } } },
    ctx,
  );
  assert.equal(servers[0]!.type === 'stdio' && servers[0]!.cwd, '/ws');
  assert.deepEqual(servers[1], {
    name: 'b',
    type: 'http',
    url: 'http://127.0.0.1:1/mcp',
    headers: { Authorization: 'Bearer sekret' },
    autoApprove: [],
    secrets: ['sekret', 'Bearer sekret'],
  });
});

test('each bad field is a problem naming server and field, and the others still parse', () => {
  const raw = {
    good: { command: 'node' },
    t1: { command: 5 },
    t2: { command: 'x', args: 'not-an-array' },
    t3: { command: 'x', env: { A: { nested: true } } },
    t4: { type: 'websocket', url: 'ws://x' },
    t5: { command: 'x', timeout: -1 },
    t6: { command: 'x', args: ['${env:NOPE_NOT_SET}'] },
    t7: { type: 'http', url: 'not a url' },
    t8: { command: 'x', disabled: 'yes' },
    t9: 'just a string',
    t10: { command: 'x', namespace: 'has.dot' },
    t11: { type: 'sse' },
    t12: { command: 'x', autoApprove: 'all' },
    t13: { command: 'x', cwd: '${workspaceFolder}' },
  };
  const { servers, problems } = parseServers(raw, { env: {} });
  assert.deepEqual(
    servers.map((s) => s.name),
    ['good'],
  );
  const fields = Object.fromEntries(problems.filter((p) => p.severity === 'error').map((p) => [p.server, p.field]));
  assert.deepEqual(fields, {
    t1: 'command',
    t2: 'args',
    t3: 'env.A',
    t4: 'type',
    t5: 'timeout',
    t6: 'args[0]',
    t7: 'url',
    t8: 'disabled',
    t9: '',
    t10: 'namespace',
    t11: 'url',
    t12: 'autoApprove',
    t13: 'cwd',
  });
  assert.match(
    describeProblem(problems.find((p) => p.server === 't6')!),
    /server "t6", field "args\[0\]": environment variable NOPE_NOT_SET is not set/,
  );
});

test('unknown fields warn; disabled entries are listed apart; envFile is read', () => {
  const dir = mkdtempSync(join(tmpdir(), 'minagent-cfg-'));
  writeFileSync(join(dir, '.env'), 'FROM_FILE=1\nOVERRIDDEN=file\n');
  const { servers, disabled, problems } = parseServers(
    {
      a: { comand: 'x', command: 'y', envFile: '.env', env: { OVERRIDDEN: 'entry' } },
      off: { command: 'z', disabled: true },
    },
    { workspaceFolder: dir },
  );
  assert.deepEqual(disabled, ['off']);
  assert.deepEqual(
    problems.map((p) => [p.field, p.severity]),
    [['comand', 'warning']],
  );
  assert.deepEqual(servers[0]!.type === 'stdio' && servers[0]!.env, { FROM_FILE: '1', OVERRIDDEN: 'entry' });
  const missing = parseServers({ a: { command: 'y', envFile: 'nope.env' } }, { workspaceFolder: dir });
  assert.equal(missing.problems[0]!.field, 'envFile');
});

test('env files read ahead (as the extension does) give the same servers and problems, with no synchronous read', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'minagent-cfg-'));
  writeFileSync(join(dir, '.env'), 'FROM_FILE=1\nOVERRIDDEN=file\n');
  const raw = {
    a: { command: 'y', envFile: '${workspaceFolder}/.env', env: { OVERRIDDEN: 'entry' } },
    b: { command: 'y', envFile: 'nope.env' },
  };
  const ctx = { workspaceFolder: dir };
  const envFiles = await readEnvFiles(raw, ctx);
  const sync = mock.method(fs, 'openSync');
  try {
    const ahead = parseServers(raw, { ...ctx, envFiles });
    assert.equal(sync.mock.callCount(), 0, 'parsing read no file');
    assert.deepEqual(ahead.servers[0]!.type === 'stdio' && ahead.servers[0]!.env, {
      FROM_FILE: '1',
      OVERRIDDEN: 'entry',
    });
    assert.deepEqual(
      ahead.problems.map((p) => [p.server, p.field]),
      [['b', 'envFile']],
    );
    assert.match(ahead.problems[0]!.message, /cannot read nope\.env: ENOENT/);
  } finally {
    sync.mock.restore();
  }
  assert.deepEqual(parseServers(raw, { ...ctx, envFiles }), parseServers(raw, ctx));
});

test('hub settings: bad values warn and fall back to defaults', () => {
  const problems: Parameters<typeof parseHubSettings>[1] = [];
  const s = parseHubSettings(
    (k) => ({ conflictPolicy: 'overwrite', callTimeout: 'soon', maxOutputChars: 1000 })[k],
    problems,
  );
  assert.equal(s.conflictPolicy, 'prefix');
  assert.equal(s.maxOutputChars, 1000);
  assert.deepEqual(
    problems.map((p) => p.field),
    ['minagent.conflictPolicy', 'minagent.callTimeout'],
  );
});

test('settings files are JSONC; errors give line and column', () => {
  const cfg = loadConfig(
    parseSettingsText('{\n // comment\n "minagent.servers": { "a": { "command": "x", }, },\n}', 's.json'),
    ctx,
  );
  assert.deepEqual(
    cfg.servers.map((s) => s.name),
    ['a'],
  );
  assert.throws(
    () => parseSettingsText('{\n "a": [1,,]\n}', 's.json'),
    /^Error: s\.json:2:10: invalid JSONC \(ValueExpected\)$/,
  );
  const nested = loadConfig({ minagent: { servers: { b: { command: 'x' } }, conflictPolicy: 'error' } }, ctx);
  assert.equal(nested.settings.conflictPolicy, 'error');
  assert.deepEqual(
    nested.servers.map((s) => s.name),
    ['b'],
  );
});

test('the server environment inherits PATH, drops editor internals, and lets the entry win', () => {
  const env = serverEnvironment(
    { PATH: '/custom' },
    { PATH: '/usr/bin', HOME: '/h', VSCODE_IPC_HOOK: 'x', ELECTRON_RUN_AS_NODE: '1' },
  );
  assert.deepEqual(env, { PATH: '/custom', HOME: '/h' });
  assert.equal(serverEnvironment({}, { PATH: '/usr/bin' }).PATH, '/usr/bin');
});

test("a substituted value naming a folder or file of this machine is not a secret (redacting it broke the server's resource URIs); a credential is", () => {
  const dir = mkdtempSync(join(tmpdir(), 'minagent-data-dir-'));
  const envFile = join(dir, '.env');
  writeFileSync(envFile, `DATA_FILE=${envFile}\nAPI_TOKEN=tok-0123456789abcdef\n`);
  const { servers } = parseServers(
    {
      s: {
        command: 'node',
        args: ['${env:DATA}'],
        env: { T: '${env:TOKEN_LONG}', GONE: '${env:MISSING_PATH}' },
        envFile,
      },
    },
    {
      workspaceFolder: '/ws',
      env: { DATA: dir, TOKEN_LONG: 'sekret-0123456789', MISSING_PATH: '/no/such/folder/here' },
    },
  );
  const secrets = servers[0]!.secrets ?? [];
  assert.ok(!secrets.includes(dir), 'an existing folder is not a secret');
  assert.ok(!secrets.includes(envFile), 'an existing file named in an env file is not a secret');
  assert.ok(secrets.includes('sekret-0123456789'));
  assert.ok(secrets.includes('tok-0123456789abcdef'));
  // A path that does not exist here is not known to be one: it stays secret.
  assert.ok(secrets.includes('/no/such/folder/here'));
});

test('"apps": false sets a server to show its apps as text; a non-boolean is a problem naming the field', () => {
  const { servers, problems } = parseServers(
    {
      text: { command: 'node', apps: false },
      shown: { command: 'node', apps: true },
      plain: { command: 'node' },
      odd: { command: 'node', apps: 'no' },
    },
    { env: {} },
  );
  assert.deepEqual(
    servers.map((s) => [s.name, s.apps]),
    [
      ['text', false],
      ['shown', undefined],
      ['plain', undefined],
    ],
  );
  assert.deepEqual(
    problems.map((p) => [p.server, p.field]),
    [['odd', 'apps']],
  );
});
