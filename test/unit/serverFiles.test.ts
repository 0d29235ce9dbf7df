// Where the MCP files of VS Code and Copilot users are, which entry of a name wins, and the portable format's
// variables.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { parseServers } from '../../src/core/mcp/config/parseServers';
import type { StdioServerConfig } from '../../src/core/mcp/config/serverConfig';
import {
  claimServers,
  parseServerFileText,
  readServerFile,
  toolServerFiles,
  withAlsoIn,
  workspaceServerFiles,
} from '../../src/core/mcp/config/serverFiles';
import { toRegistryTool } from '../../src/core/mcp/tools/toolAdapter';
import { countTools, uncountedNote } from '../../src/core/toolRegistry/toolCounts';

describe('MCP files', () => {
  test("the workspace's three files, then VS Code's profile mcp.json and Copilot's file ($COPILOT_HOME first)", () => {
    assert.deepEqual(
      workspaceServerFiles('/w').map((f) => [f.label, f.path, f.scope]),
      [
        ['.vscode/mcp.json', '/w/.vscode/mcp.json', 'workspace'],
        ['.mcp.json', '/w/.mcp.json', 'workspace'],
        ['.github/mcp.json', '/w/.github/mcp.json', 'workspace'],
      ],
    );
    assert.deepEqual(
      toolServerFiles('/data/User', {}, '/home/me').map((f) => [f.label, f.path, f.scope]),
      [
        ["VS Code's user mcp.json", '/data/User/mcp.json', 'tool'],
        ['~/.copilot/mcp-config.json', '/home/me/.copilot/mcp-config.json', 'tool'],
      ],
    );
    assert.equal(
      toolServerFiles(undefined, { COPILOT_HOME: '/opt/cp' }, '/home/me')[0]!.path,
      '/opt/cp/mcp-config.json',
    );
  });

  test('a broken file is an error naming it; servers that are not an object too', () => {
    assert.throws(
      () => parseServerFileText('{ "servers": { ', '.mcp.json'),
      /^Error: \.mcp\.json:1:\d+: invalid JSONC/,
    );
    assert.throws(() => parseServerFileText('{ "mcpServers": [] }', '.mcp.json'), /"mcpServers" must be an object/);
  });

  test('a name defined again later shows once: the first source runs, the others are named on it', () => {
    const taken = new Map([['research', 'settings']]);
    const vscode = claimServers(taken, '.vscode/mcp.json', { research: {}, fromfile: {} });
    const copilot = claimServers(taken, '~/.copilot/mcp-config.json', { fromfile: {}, cli: {} });
    assert.deepEqual(Object.keys(vscode.own), ['fromfile']);
    assert.deepEqual(vscode.again, ['research']);
    assert.deepEqual(Object.keys(copilot.own), ['cli']);
    const alsoIn = new Map([
      ['research', ['.vscode/mcp.json']],
      ['fromfile', ['~/.copilot/mcp-config.json']],
    ]);
    assert.deepEqual(withAlsoIn([{ name: 'research' }, { name: 'cli' }], alsoIn), [
      { name: 'research', alsoIn: ['.vscode/mcp.json'] },
      { name: 'cli' },
    ]);
  });

  test('the portable format reads ${NAME} and ${NAME:-default} from the environment, as a secret', () => {
    const env = { API_KEY: 'k-123456789' };
    const entry = { command: 'x', env: { KEY: '${API_KEY}', REGION: '${REGION:-eu}' } };
    const portable = parseServers({ s: entry }, { env, portable: true });
    const s = portable.servers[0] as StdioServerConfig;
    assert.deepEqual(s.env, { KEY: 'k-123456789', REGION: 'eu' });
    assert.deepEqual(s.secrets, ['k-123456789']);
    // VS Code's own format has no such variable: reported by name.
    const own = parseServers({ s: entry }, { env });
    assert.equal(own.servers.length, 0);
    assert.match(own.problems[0]!.message, /unknown variable \$\{API_KEY\}/);
  });

  test("an entry's tools list keeps the others from the model, and the counts say why", () => {
    const route = async () => ({ text: '' }) as never;
    const tools = ['read', 'write'].map((name) =>
      toRegistryTool({ name, inputSchema: { type: 'object' } }, 's', name, route, ['read']),
    );
    assert.deepEqual(
      tools.map((t) => [t.name, t.visibility?.model ?? true, t.leftOutByEntry ?? false]),
      [
        ['read', true, false],
        ['write', false, true],
      ],
    );
    const counts = countTools(tools);
    assert.equal(counts.model, 1);
    assert.match(uncountedNote(counts)!, /1 tool is left out by the server's "tools" list in its entry/);
  });
});

describe('an MCP file that is not what it seems', () => {
  test('a link out of the workspace, a FIFO and a file past 1 MB are refused by name, never waited on', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'minagent-mcpfile-'));
    try {
      const outside = join(dir, 'outside.json');
      writeFileSync(outside, '{ "mcpServers": { "x": { "command": "node" } } }');
      const folder = join(dir, 'ws');
      mkdirSync(join(folder, '.vscode'), { recursive: true });
      mkdirSync(join(folder, '.github'));
      const [vscodeFile, mcpJson, githubFile] = workspaceServerFiles(folder);
      symlinkSync(outside, mcpJson!.path);
      await assert.rejects(
        readServerFile(mcpJson!),
        /^Error: \.mcp\.json: not read .*: it is a link to a file outside/,
      );
      execFileSync('mkfifo', [githubFile!.path]);
      await assert.rejects(readServerFile(githubFile!), /\.github\/mcp\.json: not read .*: it is not a regular file/);
      writeFileSync(vscodeFile!.path, `{ "servers": {}, "pad": "${'x'.repeat(1024 * 1024)}" }`);
      await assert.rejects(readServerFile(vscodeFile!), /larger than the 1 MB limit for MCP files/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
