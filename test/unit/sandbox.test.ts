import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { connect, createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { parseServers } from '../../src/core/mcp/config/parseServers';
import type { StdioServerConfig } from '../../src/core/mcp/config/serverConfig';
import { sandboxFor, sandboxReason, type SandboxRules } from '../../src/core/mcp/sandbox/decision';
import { npmConfigRead, sandboxPolicy } from '../../src/core/mcp/sandbox/policy';
import { preloadPath } from '../../src/core/mcp/sandbox/preload';
import { hostRefusal, writeRefusal } from '../../src/core/mcp/sandbox/bounds';
import {
  helperEnvironment,
  HOST_PATH,
  insideCommand,
  sandboxedServerEnvironment,
} from '../../src/core/mcp/sandbox/environment';
import { shellQuote } from '../../src/core/mcp/sandbox/runtime';
import { serverIdentity } from '../../src/core/mcp/config/identity';

const ctx = {
  home: '/home/u',
  cacheRoot: '/home/u/.cache/minagent',
  privatePaths: ['/home/u/.vscode-data'],
  workspaceFolders: ['/ws'],
};
const rules = (over: Partial<SandboxRules> = {}): SandboxRules => ({
  workspaceServers: 'always',
  fromWorkspace: (c) => c.origin !== 'user settings',
  context: ctx,
  ...over,
});
const stdio = (over: Partial<StdioServerConfig> = {}): StdioServerConfig => ({
  type: 'stdio',
  name: 's',
  command: 'node',
  args: ['s.js'],
  env: {},
  cwd: '/ws',
  autoApprove: [],
  ...over,
});

test("a workspace's server runs in a sandbox by default, and its entry cannot turn that off; only the user takes it out, per server", () => {
  const fromRepo = stdio({ origin: '.vscode/mcp.json', sandbox: false });
  assert.equal(
    sandboxReason(fromRepo, rules()),
    'workspace',
    'sandbox: false written by the repository counts for nothing',
  );
  assert.equal(
    sandboxReason(fromRepo, rules({ exempt: (id) => id === serverIdentity(fromRepo) })),
    undefined,
    'the user took this one out',
  );
  assert.equal(
    sandboxReason(
      stdio({ origin: '.vscode/mcp.json', args: ['other.js'] }),
      rules({ exempt: (id) => id === serverIdentity(fromRepo) }),
    ),
    'workspace',
    'another command is another server',
  );
  assert.equal(
    sandboxReason(stdio({ origin: 'workspace settings' }), rules({ workspaceServers: 'off' })),
    undefined,
    'the user turned the rule off',
  );
  assert.equal(
    sandboxReason(
      stdio({ origin: 'workspace settings', sandbox: { allowWrite: [], denyRead: [], allowedDomains: [] } }),
      rules({ workspaceServers: 'off' }),
    ),
    'entry',
    'an entry that asks is still sandboxed',
  );
});

test("the user's own servers run in a sandbox only when their entry asks; HTTP servers never (nothing runs here)", () => {
  assert.equal(sandboxReason(stdio({ origin: 'user settings' }), rules()), undefined);
  assert.equal(
    sandboxReason(
      stdio({ origin: 'user settings', sandbox: { allowWrite: [], denyRead: [], allowedDomains: [] } }),
      rules(),
    ),
    'entry',
  );
  assert.equal(
    sandboxReason(
      { type: 'http', name: 'h', url: 'https://x.test/mcp', headers: {}, autoApprove: [], origin: '.vscode/mcp.json' },
      rules(),
    ),
    undefined,
  );
  assert.equal(
    sandboxReason(stdio({ origin: '.vscode/mcp.json' }), undefined),
    undefined,
    'a host without sandbox rules',
  );
});

test('the default policy: secrets unreadable, writes only in the cwd, no network; an npx server gets its own npm cache and its registry', () => {
  const plain = sandboxFor(stdio({ origin: '.vscode/mcp.json' }), rules())!;
  for (const secret of [
    '/home/u/.ssh',
    '/home/u/.aws',
    '/home/u/.config/gcloud',
    '/home/u/.config/Code',
    '/home/u/.vscode-data',
    '/ws/.env*',
  ])
    assert.ok(plain.denyRead.includes(secret), secret);
  assert.deepEqual(plain.allowWrite, ['/ws']);
  assert.deepEqual(plain.allowedDomains, []);
  const npx = sandboxPolicy(
    stdio({
      command: 'npx',
      args: ['-y', 'some-server'],
      sandbox: { allowWrite: ['/data'], denyRead: ['/ws/private'], allowedDomains: ['api.example.com'] },
    }),
    'entry',
    { ...ctx, npmRegistry: 'http://registry.test:4873/' },
  );
  assert.match(npx.npmCache!, /^\/home\/u\/\.cache\/minagent\/npm\/[0-9a-f]{16}$/);
  assert.deepEqual(npx.allowWrite, ['/ws', npx.npmCache, '/data']);
  assert.deepEqual(npx.allowedDomains, ['api.example.com', 'registry.test:4873']);
  assert.ok(npx.denyRead.includes('/ws/private') && npx.denyRead.includes('/home/u/.npmrc'));
  const other = sandboxPolicy(stdio({ command: 'npx', args: ['-y', 'another-server'] }), 'entry', ctx);
  assert.notEqual(
    other.npmCache,
    npx.npmCache,
    "one server's cache is not another's: what one plants there another never runs",
  );
});

test("npm's own read of the hidden ~/.npmrc is told from a server's reads of other hidden files; only an npx server's", () => {
  const npx = sandboxPolicy(stdio({ command: 'npx', args: ['-y', 'some-server'] }), 'entry', ctx);
  const note = (path: string) =>
    `read ${JSON.stringify(path)}: hidden by the sandbox (under ${JSON.stringify(path)}; ...)`;
  assert.equal(npmConfigRead(npx, note('/home/u/.npmrc')), true);
  assert.equal(npmConfigRead(npx, note('/home/u/.ssh/id_rsa')), false);
  assert.equal(npmConfigRead(npx, note('/home/u/.npmrc.bak')), false);
  assert.equal(
    npmConfigRead(sandboxPolicy(stdio(), 'entry', ctx), note('/home/u/.npmrc')),
    false,
    'a server that is not npx reading it is a denial like any other',
  );
});

test("entries: sandbox true, an object, or VS Code's sandboxEnabled with sandbox; a bad host names the field; ignored on HTTP", () => {
  const parsed = parseServers(
    {
      a: { command: 'node', sandbox: true },
      b: {
        command: 'node',
        sandboxEnabled: true,
        sandbox: {
          filesystem: { allowWrite: ['data'] },
          network: { allowedDomains: ['*.example.com', 'localhost:8080'] },
        },
      },
      c: { command: 'node', sandbox: false },
      d: { command: 'node', sandbox: { network: { allowedDomains: ['http://evil.test/path'] } } },
      e: { url: 'https://x.test/mcp', sandbox: true },
    },
    { workspaceFolder: '/ws' },
  );
  const byName = Object.fromEntries(parsed.servers.map((s) => [s.name, s]));
  assert.deepEqual((byName.a as StdioServerConfig).sandbox, { allowWrite: [], denyRead: [], allowedDomains: [] });
  assert.deepEqual((byName.b as StdioServerConfig).sandbox, {
    allowWrite: ['/ws/data'],
    denyRead: [],
    allowedDomains: ['*.example.com', 'localhost:8080'],
  });
  assert.equal((byName.c as StdioServerConfig).sandbox, false);
  assert.equal(byName.d, undefined);
  assert.ok(
    parsed.problems.some(
      (p) => p.server === 'd' && p.field === 'sandbox.network.allowedDomains.0' && /host name/.test(p.message),
    ),
  );
  assert.ok(parsed.problems.some((p) => p.server === 'e' && p.field === 'sandbox' && p.severity === 'warning'));
});

/**
 * A proxy as the sandbox's: it opens a tunnel only to `allowed` (host:port, a name that resolves
 * nowhere, dialled at `port` on loopback) and refuses any other with 403; it records what it was asked.
 */
async function proxy(allowed: string, port: number): Promise<{ server: Server; port: number; asked: string[] }> {
  const asked: string[] = [];
  const server = createServer((client) =>
    client.once('data', (head) => {
      const wanted = /^CONNECT (\S+) HTTP/.exec(head.toString('latin1'))?.[1] ?? '';
      asked.push(wanted);
      if (wanted !== allowed) {
        client.end('HTTP/1.1 403 Forbidden\r\n\r\n');
        return;
      }
      const upstream = connect(port, '127.0.0.1', () => {
        client.write('HTTP/1.1 200 Connection established\r\n\r\n');
        client.pipe(upstream).pipe(client);
      });
      // One side closing while the other still writes (EPIPE, ECONNRESET) ends the tunnel, as a proxy's does.
      upstream.on('error', () => client.destroy());
      client.on('error', () => upstream.destroy());
    }),
  );
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, port: (server.address() as { port: number }).port, asked };
}

test("the preload takes a Node server's fetch and sockets through the proxy: the allowed host answers, another is refused with ECONNREFUSED", async () => {
  // It answers once the request has come, as an HTTP server does (answering before it left the client's
  // write racing the close).
  const target = createServer((s) =>
    s.once('data', () => s.end('HTTP/1.1 200 OK\r\ncontent-length: 5\r\nconnection: close\r\n\r\nhello')),
  );
  await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
  const port = (target.address() as { port: number }).port;
  const p = await proxy(`api.test:${port}`, port);
  const script = `
    const net = require('node:net');
    (async () => {
      const ok = await fetch('http://api.test:${port}/').then(async (r) => r.status + ' ' + await r.text(), (e) => 'failed ' + (e.cause?.code ?? e.message));
      const denied = await fetch('http://other.test:${port}/').then((r) => 'status ' + r.status, (e) => 'failed ' + (e.cause?.code ?? e.message));
      const raw = await new Promise((resolve) => { const s = net.connect(${port}, 'api.test', () => { s.write('GET / HTTP/1.0\\r\\n\\r\\n'); }); let d = ''; s.on('data', (c) => d += c); s.on('end', () => resolve(d.split('\\r\\n\\r\\n')[1])); s.on('error', (e) => resolve('failed ' + e.code)); });
      console.log(JSON.stringify({ ok, denied, raw }));
    })();`;
  try {
    const { stdout } = await promisify(execFile)(process.execPath, ['--require', preloadPath(), '-e', script], {
      env: { ...process.env, MINAGENT_IN_SANDBOX: '1', HTTP_PROXY: `http://user%20id:secret@127.0.0.1:${p.port}` },
    });
    assert.deepEqual(JSON.parse(stdout), { ok: '200 hello', denied: 'failed ECONNREFUSED', raw: 'hello' });
    assert.deepEqual(p.asked, [`api.test:${port}`, `other.test:${port}`, `api.test:${port}`]);
  } finally {
    p.server.close();
    target.close();
  }
});

test('the preload is a file that ships: beside the sources here, copied beside the bundles by the build', () => {
  assert.equal(join(__dirname, '..', '..', 'src', 'core', 'mcp', 'sandbox', 'netPreload.cjs'), preloadPath());
});

test("the editor and the CLI use the same npm cache for a workspace's npx server; a user's server with the same command line another", () => {
  const line = { command: 'npx', args: ['-y', 'some-server'] };
  const editor = sandboxPolicy(stdio({ ...line, origin: 'workspace settings' }), 'workspace', ctx);
  const cli = sandboxPolicy(stdio(line), 'workspace', ctx);
  assert.equal(editor.npmCache, cli.npmCache);
  assert.notEqual(
    sandboxPolicy(stdio({ ...line, origin: 'user settings' }), 'entry', ctx).npmCache,
    editor.npmCache,
    "nothing a workspace's server plants in its cache runs in the user's",
  );
});

test("the environments: MinAgent's host-side helpers get a fixed PATH and nothing that runs code; the server the host's basics and its entry's env; its values travel under inert names", () => {
  const host = {
    PATH: '/home/u/.nvm/bin:/usr/bin',
    HOME: '/home/u',
    LANG: 'C.UTF-8',
    BASH_ENV: '/x',
    NODE_OPTIONS: '--require /x',
    LD_PRELOAD: '/x.so',
    BASH_FUNC_ls: '() { :; }',
    AWS_SECRET_ACCESS_KEY: 'k',
    GITHUB_TOKEN: 't',
  };
  const helper = helperEnvironment(host);
  assert.deepEqual(helper, { HOME: '/home/u', LANG: 'C.UTF-8', PATH: HOST_PATH });
  const server = sandboxedServerEnvironment({ GITHUB_TOKEN: 'named', BASH_ENV: '/ws/rc' }, host);
  assert.deepEqual(server, {
    PATH: '/home/u/.nvm/bin:/usr/bin',
    HOME: '/home/u',
    LANG: 'C.UTF-8',
    GITHUB_TOKEN: 'named',
    BASH_ENV: '/ws/rc',
  });
  const { line, carriers } = insideCommand('node', ["it's.js"], { TOKEN: 'sec ret', 'odd-name': 'v' }, shellQuote);
  assert.ok(!line.includes('sec ret') && !line.includes("'v'"), 'no value in the command line');
  assert.deepEqual(Object.values(carriers).sort(), ['sec ret', 'v']);
  assert.match(
    line,
    /^export 'TOKEN'="\$__MINAGENT_ENV_0"; unset __MINAGENT_ENV_0; exec \/usr\/bin\/env -u __MINAGENT_ENV_1 'odd-name'="\$__MINAGENT_ENV_1" 'node' 'it'\\''s\.js'$/,
  );
});

test("a workspace entry's bounds: its folders, never home, / or a folder holding home; no host of this machine or its network", () => {
  const b = { folders: ['/ws'], home: '/home/u' };
  assert.equal(writeRefusal('/ws/data', b), undefined);
  for (const p of ['/', '/home/u', '/home', '/elsewhere', '/ws/../home/u']) assert.ok(writeRefusal(p, b), p);
  for (const h of [
    'localhost:5432',
    '127.0.0.1',
    '[::1]:8080',
    '10.1.2.3',
    '192.168.0.1',
    '172.20.0.1',
    '169.254.169.254',
    'printer.local',
    'metadata.google.internal',
    '[fd00::1]',
  ])
    assert.ok(hostRefusal(h), h);
  for (const h of ['api.example.com', '*.example.com', '8.8.8.8', 'example.com:8443'])
    assert.equal(hostRefusal(h), undefined, h);
  const policy = sandboxPolicy(
    stdio({
      origin: '.vscode/mcp.json',
      cwd: '/home/u',
      sandbox: { allowWrite: ['/ws/out', '/tmp'], denyRead: [], allowedDomains: ['localhost:5432', 'api.example.com'] },
    }),
    'workspace',
    ctx,
  );
  assert.equal(policy.cwd, '/ws');
  assert.deepEqual(policy.allowWrite, ['/ws', '/ws/out']);
  assert.deepEqual(policy.allowedDomains, ['api.example.com']);
  assert.deepEqual(
    policy.refused.map((r) => r.split(':')[0]),
    ['cwd', 'sandbox.filesystem.allowWrite[1]', 'sandbox.network.allowedDomains[0]'],
  );
  const mine = sandboxPolicy(
    stdio({
      origin: 'user settings',
      cwd: '/home/u',
      sandbox: { allowWrite: ['/tmp'], denyRead: [], allowedDomains: ['localhost:5432'] },
    }),
    'entry',
    ctx,
  );
  assert.deepEqual(
    [mine.cwd, mine.allowWrite, mine.allowedDomains, mine.refused],
    ['/home/u', ['/home/u', '/tmp'], ['localhost:5432'], []],
    "the user's own settings may widen",
  );
});

test('deniedDomains wins over allowedDomains: a covered host goes, and so does a wildcard it cannot be cut out of', () => {
  const sandbox = {
    allowWrite: [],
    denyRead: [],
    allowedDomains: ['api.example.com', 'ads.example.com', '*.cdn.example.com', 'docs.example.org'],
    deniedDomains: ['ads.example.com', 'evil.cdn.example.com', '*.example.org'],
  };
  const policy = sandboxPolicy(stdio({ sandbox }), 'entry', ctx);
  assert.deepEqual(policy.allowedDomains, ['api.example.com']);
  assert.equal(policy.refused.length, 3);
  assert.match(
    policy.refused.join('\n'),
    /\*\.cdn\.example\.com is dropped: deniedDomains has evil\.cdn\.example\.com, which the sandbox cannot cut out of a wildcard/,
  );
});

test('denyWrite from the entry reaches the policy, beside what it may write', () => {
  const sandbox = {
    allowWrite: ['/work/project'],
    denyRead: [],
    denyWrite: ['/work/project/secrets'],
    allowedDomains: [],
  };
  const policy = sandboxPolicy(stdio({ sandbox }), 'entry', ctx);
  assert.deepEqual(policy.denyWrite, ['/work/project/secrets']);
  assert.ok(policy.allowWrite.includes('/work/project'));
});
