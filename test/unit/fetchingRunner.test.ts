import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fetchingRunner as runnerOf } from '../../src/core/mcp/connection/fetchingRunner';

const fetchingRunner = (command: string, args: string[]) =>
  runnerOf({ type: 'stdio', name: 's', command, args, env: {}, cwd: '/', autoApprove: [] });

test('a command line that downloads what it runs is named by its runner; one that runs a program as it is is not', () => {
  assert.equal(fetchingRunner('npx', ['-y', '@modelcontextprotocol/server-github@2025.4.8']), 'npx');
  assert.equal(fetchingRunner('/usr/local/bin/uvx', ['mcp-server-time']), 'uvx');
  assert.equal(fetchingRunner('C:\\Program Files\\nodejs\\NPX.CMD', ['-y', 'x']), 'npx');
  assert.equal(fetchingRunner('docker', ['run', '-i', '--rm', 'mcp/time']), 'docker run');
  assert.equal(fetchingRunner('pnpm', ['dlx', 'some-server']), 'pnpm dlx');
  assert.equal(fetchingRunner('npm', ['exec', '--yes', 'some-server']), 'npm exec');
  // The same programs doing something else, and programs that run what is already there.
  assert.equal(fetchingRunner('docker', ['exec', '-i', 'box', 'server']), undefined);
  assert.equal(fetchingRunner('npm', ['run', 'mcp']), undefined);
  assert.equal(fetchingRunner('node', ['server.mjs']), undefined);
  assert.equal(fetchingRunner('/opt/npx-tools/server', []), undefined);
  assert.equal(
    runnerOf({ type: 'http', name: 'r', url: 'https://example.invalid/npx', headers: {}, autoApprove: [] }),
    undefined,
  );
});
