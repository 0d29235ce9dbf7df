// The shapes of VS Code's MCP configuration reference (and the portable Copilot format) parse with no entry lost:
// every field is used or reported by name.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseServers } from '../../src/core/mcp/config/parseServers';
import type { StdioServerConfig } from '../../src/core/mcp/config/serverConfig';
import { parseServerFileText } from '../../src/core/mcp/config/serverFiles';

const ctx = { workspaceFolder: '/work/project', userHome: '/home/me' };

/** The servers of a file's text, parsed as MinAgent reads that file; no problem of severity error is allowed. */
function parsed(text: string, label = '.vscode/mcp.json') {
  const file = parseServerFileText(text, label);
  const result = parseServers(file.servers, { ...ctx, input: (id) => `value-of-${id}` }, label);
  assert.deepEqual(
    result.problems.filter((p) => p.severity === 'error'),
    [],
  );
  assert.equal(result.servers.length, Object.keys(file.servers).length, 'no entry lost');
  return { ...result, inputs: file.inputs };
}

describe("VS Code's MCP configuration reference", () => {
  test('a local server run with npx', () => {
    const { servers } = parsed(
      `{ "servers": { "memory": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"] } } }`,
    );
    assert.equal(servers[0]!.type, 'stdio');
    assert.deepEqual((servers[0] as StdioServerConfig).args, ['-y', '@modelcontextprotocol/server-memory']);
  });

  test('a sandboxed server: allowWrite, denyRead, denyWrite, allowedDomains and deniedDomains', () => {
    const { servers, problems } = parsed(`{
      // comments and trailing commas, as VS Code allows
      "servers": {
        "myServer": {
          "type": "stdio", "command": "npx", "args": ["-y", "@example/mcp-server"],
          "sandboxEnabled": true,
          "sandbox": {
            "filesystem": { "allowWrite": ["\${workspaceFolder}"], "denyRead": ["\${userHome}/.ssh"],
                            "denyWrite": ["\${workspaceFolder}/secrets"] },
            "network": { "allowedDomains": ["api.example.com", "*.cdn.example.com"], "deniedDomains": ["ads.cdn.example.com"] },
          },
        },
      },
    }`);
    assert.deepEqual(problems, []);
    const sandbox = (servers[0] as StdioServerConfig).sandbox;
    assert.ok(sandbox);
    assert.deepEqual(sandbox.allowWrite, ['/work/project']);
    assert.deepEqual(sandbox.denyRead, ['/home/me/.ssh']);
    assert.deepEqual(sandbox.denyWrite, ['/work/project/secrets']);
    assert.deepEqual(sandbox.deniedDomains, ['ads.cdn.example.com']);
  });

  test('a remote server, and one with OAuth', () => {
    const { servers } = parsed(`{ "servers": {
      "context7": { "type": "http", "url": "https://mcp.context7.com/mcp" },
      "slack": { "type": "http", "url": "https://mcp.slack.com/mcp", "oauth": { "clientId": "example-client-id" } }
    } }`);
    assert.deepEqual(
      servers.map((s) => s.type),
      ['http', 'http'],
    );
    assert.equal(servers[1]!.type === 'http' && servers[1]!.oauth?.clientId, 'example-client-id');
  });

  test('inputs: promptString, pickString and command, referenced from env', () => {
    const { servers, inputs } = parsed(`{
      "inputs": [
        { "type": "promptString", "id": "perplexity-key", "description": "Perplexity API Key", "password": true },
        { "type": "pickString", "id": "region", "description": "Region", "options": ["eu", "us"], "default": "eu" },
        { "type": "command", "id": "token", "command": "myExtension.getToken", "args": { "scope": "read" } }
      ],
      "servers": { "perplexity": { "type": "stdio", "command": "npx", "args": ["-y", "server-perplexity-ask"],
        "env": { "PERPLEXITY_API_KEY": "\${input:perplexity-key}", "REGION": "\${input:region}", "TOKEN": "\${input:token}" } } }
    }`);
    assert.deepEqual(
      inputs.map((i) => i.type),
      ['promptString', 'pickString', 'command'],
    );
    assert.deepEqual(inputs[1]!.options, ['eu', 'us']);
    assert.equal(inputs[2]!.command, 'myExtension.getToken');
    assert.equal((servers[0] as StdioServerConfig).env.REGION, 'value-of-region');
  });

  test('development mode: dev.watch is kept, dev.debug is reported by name and the entry kept', () => {
    const { servers, problems } = parsed(`{ "servers": { "dev": { "command": "node", "args": ["build/index.js"],
      "dev": { "watch": "src/**/*.ts", "debug": { "type": "node" } } } } }`);
    assert.deepEqual(servers[0]!.watch, ['src/**/*.ts']);
    assert.deepEqual(
      problems.map((p) => [p.field, p.severity]),
      [['dev.debug', 'warning']],
    );
  });

  test('a server on a Unix socket, with a subpath', () => {
    const { servers } = parsed(
      `{ "servers": { "sock": { "type": "http", "url": "unix:///tmp/server.sock#/mcp/subpath" } } }`,
    );
    assert.equal(servers[0]!.type === 'http' && servers[0]!.url, 'unix:///tmp/server.sock#/mcp/subpath');
  });

  test('a server installed from the gallery keeps its entry (gallery, version)', () => {
    const { servers, problems } = parsed(`{ "servers": { "github": { "type": "http",
      "url": "https://api.example.com/mcp/", "gallery": "https://gallery.example.com", "version": "1.0.0" } } }`);
    assert.equal(servers.length, 1);
    assert.deepEqual(problems, []);
  });

  test('an unknown key, at the top or inside sandbox, is reported by its path and the entry kept', () => {
    const { servers, problems } = parsed(`{ "servers": { "x": { "command": "node", "colour": "red",
      "sandboxEnabled": true, "sandbox": { "filesystem": { "allowExec": ["/bin"] }, "proxy": {} } } } }`);
    assert.equal(servers.length, 1);
    assert.deepEqual(problems.map((p) => p.field).sort(), ['colour', 'sandbox.filesystem.allowExec', 'sandbox.proxy']);
  });
});

describe('the portable (Copilot) format', () => {
  test('mcpServers, type "local", a tools filter, and ["*"] for all tools', () => {
    const { servers, problems } = parsed(
      `{ "mcpServers": {
        "serena": { "type": "local", "command": "uvx", "args": ["serena"], "tools": ["find_symbol", "read_file"] },
        "azure": { "type": "stdio", "command": "npx", "args": ["-y", "@azure/mcp"], "tools": ["*"], "env": {} },
        "cloudflare": { "type": "sse", "url": "https://docs.example.com/sse", "tools": ["*"] }
      } }`,
      '.mcp.json',
    );
    assert.deepEqual(problems, []);
    assert.deepEqual(
      servers.map((s) => [s.name, s.type, s.tools]),
      [
        ['serena', 'stdio', ['find_symbol', 'read_file']],
        ['azure', 'stdio', undefined],
        ['cloudflare', 'sse', undefined],
      ],
    );
  });
});
