import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { fieldPath, locateEntry, locateServers } from '../../src/core/entryLocation';

const at = (text: string, loc: { offset: number; length: number } | undefined) =>
  loc ? text.slice(loc.offset, loc.offset + loc.length) : undefined;

const SETTINGS = `{
  // comments and trailing commas, as VS Code writes settings
  "editor.tabSize": 2,
  "minagent.servers": {
    "research": { "command": "node", "args": ["research.mjs"] },
    "typo": { "comand": "node", "env": { "TOKEN": "x" } },
  },
}`;

describe('finding a server entry in a settings file', () => {
  test('the entry key, or the field at fault when it is there', () => {
    assert.equal(at(SETTINGS, locateEntry(SETTINGS, { kind: 'settings' }, 'typo')), '"typo"');
    assert.equal(
      at(SETTINGS, locateEntry(SETTINGS, { kind: 'settings' }, 'typo', 'command')),
      '"typo"',
      'a missing field: the entry',
    );
    assert.equal(at(SETTINGS, locateEntry(SETTINGS, { kind: 'settings' }, 'typo', 'env.TOKEN')), '"x"');
    assert.equal(at(SETTINGS, locateEntry(SETTINGS, { kind: 'settings' }, 'research', 'args[0]')), '"research.mjs"');
    assert.equal(locateEntry(SETTINGS, { kind: 'settings' }, 'absent'), undefined);
  });

  test('nested "minagent": { "servers" }, a .code-workspace file, and MCP files', () => {
    const nested = '{ "minagent": { "servers": { "a": { "url": "http://x" } } } }';
    assert.equal(at(nested, locateEntry(nested, { kind: 'settings' }, 'a', 'url')), '"http://x"');
    const ws = '{ "folders": [], "settings": { "minagent.servers": { "a": {} } } }';
    assert.equal(at(ws, locateEntry(ws, { kind: 'settings', workspaceFile: true }, 'a')), '"a"');
    const mcp = '{ "inputs": [], "servers": { "fromfile": { "command": "node" } } }';
    assert.equal(at(mcp, locateEntry(mcp, { kind: 'mcp', key: 'servers' }, 'fromfile')), '"fromfile"');
    assert.equal(locateEntry(mcp, { kind: 'mcp', key: 'mcpServers' }, 'fromfile'), undefined);
    assert.equal(at(SETTINGS, locateServers(SETTINGS, { kind: 'settings' })), '"minagent.servers"');
  });

  test('field paths', () => {
    assert.deepEqual(fieldPath('args[2]'), ['args', 2]);
    assert.deepEqual(fieldPath('args.1'), ['args', 1]);
    assert.deepEqual(fieldPath('headers.Authorization'), ['headers', 'Authorization']);
    assert.deepEqual(fieldPath(''), []);
  });
});
