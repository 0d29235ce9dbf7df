// What an ${input:} value is bound to: the entry it was given for (issue 22, item 1). A pulled
// .vscode/mcp.json that points the entry elsewhere gets another key; a version bump keeps it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { inputBinding, packageName, rebindNotice } from '../../src/core/mcp/config/inputBinding';

const FILE = '.vscode/mcp.json';
const github = {
  command: 'npx',
  args: ['-y', '@modelcontextprotocol/server-github@1.2.0'],
  env: { GITHUB_TOKEN: '${input:gh-token}' },
};
const key = (entry: unknown, origin = FILE) => inputBinding(entry, origin).key;

test('attack: pointing the entry at another command, argument, URL, file, environment or folder changes the key', () => {
  const base = key(github);
  const changed: [string, unknown, string?][] = [
    ['another command', { ...github, command: 'node' }],
    ['another package', { ...github, args: ['-y', '@evil/server-github@1.2.0'] }],
    ['an extra argument', { ...github, args: [...github.args, '--proxy=http://127.0.0.1:9'] }],
    ['an npm alias', { ...github, args: ['-y', '@modelcontextprotocol/server-github@npm:evil-pkg'] }],
    ['a git source', { ...github, args: ['-y', '@modelcontextprotocol/server-github@github:evil/repo'] }],
    ['a local file', { ...github, args: ['-y', '@modelcontextprotocol/server-github@file:../evil'] }],
    ['a tarball URL', { ...github, args: ['-y', '@modelcontextprotocol/server-github@https://evil.example/x.tgz'] }],
    ['code injected through env', { ...github, env: { ...github.env, NODE_OPTIONS: '--require=./pwn.cjs' } }],
    ['an env file', { ...github, envFile: '${workspaceFolder}/.env' }],
    ['another working folder', { ...github, cwd: '${workspaceFolder}/evil' }],
    ['an http entry', { type: 'http', url: 'https://api.example/mcp' }],
    ['another file', github, '.mcp.json'],
  ];
  for (const [what, entry, origin] of changed) assert.notEqual(key(entry, origin), base, what);

  const http = {
    type: 'http',
    url: 'https://api.githubcopilot.example/mcp/',
    headers: { Authorization: 'Bearer ${input:gh-token}' },
  };
  assert.notEqual(key({ ...http, url: 'https://evil.example/mcp/' }), key(http), 'another URL');
  assert.notEqual(key({ ...http, url: 'https://api.githubcopilot.example:8443/mcp/' }), key(http), 'another port');
  assert.notEqual(key({ ...http, type: 'sse' }), key(http), 'another transport');
  assert.equal(
    key({ ...http, headers: { Authorization: 'token ${input:gh-token}' } }),
    key(http),
    'headers go to the same URL',
  );
});

test('a version-only change of the same package keeps the key: npx, uvx, docker, a pin added or moved', () => {
  assert.equal(key({ ...github, args: ['-y', '@modelcontextprotocol/server-github@1.3.0'] }), key(github));
  assert.equal(key({ ...github, args: ['-y', '@modelcontextprotocol/server-github'] }), key(github), 'unpinned');
  assert.equal(
    key({ ...github, args: ['-y', '@modelcontextprotocol/server-github@latest'] }),
    key(github),
    'a dist-tag',
  );
  assert.equal(key({ ...github, command: 'npx' }), key({ ...github, type: 'stdio' }), 'stdio is the default type');
  const uvx = { command: 'uvx', args: ['mcp-server-fetch==2025.1.0'] };
  assert.equal(key({ ...uvx, args: ['mcp-server-fetch==2025.4.7'] }), key(uvx));
  assert.equal(key({ ...uvx, args: ['mcp-server-fetch@2025.4.7'] }), key(uvx));
  const docker = {
    command: 'docker',
    args: ['run', '-i', '--rm', '-e', 'GITHUB_TOKEN', 'ghcr.io/github/github-mcp-server:v0.1.0'],
  };
  assert.equal(
    key({ ...docker, args: [...docker.args.slice(0, -1), 'ghcr.io/github/github-mcp-server:v0.2.1'] }),
    key(docker),
  );
  assert.notEqual(
    key({ ...docker, args: [...docker.args.slice(0, -1), 'ghcr.io/evil/github-mcp-server:v0.1.0'] }),
    key(docker),
  );
  // Env keys in another order are the same entry.
  const two = { command: 'node', args: ['s.js'], env: { A: '1', B: '${input:b}' } };
  assert.equal(key({ ...two, env: { B: '${input:b}', A: '1' } }), key(two));
});

test('a version is a version only under a package runner, and never a host, port, path or alias', () => {
  assert.equal(packageName('@scope/pkg@1.2.0'), '@scope/pkg');
  assert.equal(packageName('pkg@^1.2'), 'pkg');
  assert.equal(packageName('pkg==1.0'), 'pkg');
  assert.equal(packageName('org/img:2'), 'org/img');
  for (const arg of [
    'user@evil.example',
    'localhost:8080',
    '127.0.0.1:8080',
    'pkg@npm:other',
    'pkg@../evil',
    'pkg@github:evil/x',
    '-y',
    './server.js@1',
    'https://host:443',
  ]) {
    assert.equal(packageName(arg), arg, arg);
  }
  // ssh (not a package runner): user@1.2.3.4 to user@5.6.7.8 is another host, asked again.
  const ssh = { command: 'ssh', args: ['mcp@10.0.0.1', 'serve'] };
  assert.notEqual(key({ ...ssh, args: ['mcp@10.0.0.2', 'serve'] }), key(ssh));
});

test('the notice says what the entry ran and what it runs now, as written (placeholders, never values), bounded', () => {
  const b = inputBinding(github, FILE);
  assert.match(b.runs, /^npx -y @modelcontextprotocol\/server-github@1\.2\.0$/);
  const moved = inputBinding({ ...github, command: 'node', args: ['/tmp/x/collect.mjs'] }, FILE);
  assert.equal(
    rebindNotice('github', moved, b.runs),
    'Server "github" now runs node /tmp/x/collect.mjs instead of npx -y @modelcontextprotocol/server-github@1.2.0; enter the value again for it.',
  );
  assert.match(
    rebindNotice('github', inputBinding({ ...github, cwd: '/elsewhere' }, FILE), b.runs),
    /now runs npx .* with a different origin, environment or working folder/,
  );
  assert.match(
    rebindNotice('github', b, undefined),
    /cannot tell which entry the stored value was given for: enter it again for server "github" \(npx /,
  );
  const long = inputBinding({ command: 'node', args: ['x'.repeat(1000)] }, FILE);
  assert.ok(long.runs.length < 400);
});
