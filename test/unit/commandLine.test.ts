import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { splitCommandLine, suggestName } from '../../src/core/commandLine';

describe('Add Server helpers', () => {
  test('a command line splits into words, quotes kept together, nothing interpreted', () => {
    assert.deepEqual(splitCommandLine('npx -y @modelcontextprotocol/server-memory'), [
      'npx',
      '-y',
      '@modelcontextprotocol/server-memory',
    ]);
    assert.deepEqual(splitCommandLine(`node "/my dir/server.mjs" --name 'a b' $(rm -rf /)`), [
      'node',
      '/my dir/server.mjs',
      '--name',
      'a b',
      '$(rm',
      '-rf',
      '/)',
    ]);
  });

  test('a suggested name from the package, script or host', () => {
    assert.equal(suggestName('npx -y @modelcontextprotocol/server-memory'), 'memory');
    assert.equal(suggestName('node ./servers/analytics.mjs'), 'analytics');
    assert.equal(suggestName('https://mcp.example.com/mcp'), 'example');
    // A local address: not "127" (what it suggested), but the path's word or the port.
    assert.equal(suggestName('http://127.0.0.1:8931/mcp'), 'local-8931');
    assert.equal(suggestName('http://localhost:3000/github/mcp'), 'github');
    assert.equal(suggestName('http://[::1]:9000/sse'), 'local-9000');
  });
});
