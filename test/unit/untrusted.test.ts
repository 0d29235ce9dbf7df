// Untrusted means inert: every minagent setting is restricted and scoped on purpose, and the user's
// own servers in an untrusted workspace start in the home folder and read no env file from it.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { parseServers } from '../../src/core/mcp/config/parseServers';
import type { StdioServerConfig } from '../../src/core/mcp/config/serverConfig';
import { ROOT } from '../helpers';

const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  capabilities: { untrustedWorkspaces: { supported: string; restrictedConfigurations: string[] } };
  contributes: {
    configuration:
      | { properties: Record<string, { scope?: string }> }
      | Array<{ properties: Record<string, { scope?: string }> }>;
  };
};
const groups = Array.isArray(manifest.contributes.configuration)
  ? manifest.contributes.configuration
  : [manifest.contributes.configuration];
const properties = Object.assign({}, ...groups.map((g) => g.properties)) as Record<string, { scope?: string }>;

describe('manifest', () => {
  test('every minagent setting is restricted in an untrusted workspace', () => {
    assert.equal(manifest.capabilities.untrustedWorkspaces.supported, 'limited');
    assert.deepEqual(
      [...manifest.capabilities.untrustedWorkspaces.restrictedConfigurations].sort(),
      Object.keys(properties).sort(),
    );
  });

  test('approvals and the scripted model file can be set only in user settings (application and machine scope); every setting has a scope', () => {
    assert.equal(properties['minagent.chat.approval']?.scope, 'application');
    assert.equal(properties['minagent.chat.scriptFile']?.scope, 'machine');
    for (const [key, p] of Object.entries(properties)) assert.ok(p.scope, `${key} has a scope`);
  });
});

describe('user servers in an untrusted workspace', () => {
  const dir = mkdtempSync(join(tmpdir(), 'minagent-untrusted-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const home = join(dir, 'home');
  const repo = join(dir, 'repo');
  mkdirSync(home);
  mkdirSync(repo);
  writeFileSync(join(repo, '.env'), 'PLANTED=by-the-repo\n');
  writeFileSync(join(home, 'mine.env'), 'MINE=1\n');
  symlinkSync(join(repo, '.env'), join(home, 'linked.env'));

  const parse = (entry: Record<string, unknown>, untrusted: boolean) => {
    const r = parseServers(
      { s: { command: 'node', ...entry } },
      { workspaceFolder: repo, userHome: home, ...(untrusted ? { untrusted: true } : {}) },
      'settings',
    );
    return { server: r.servers[0] as StdioServerConfig | undefined, problems: r.problems };
  };

  test('trusted: the workspace folder is the default cwd and its env file is read (as before)', () => {
    const { server } = parse({ envFile: '${workspaceFolder}/.env' }, false);
    assert.equal(server?.cwd, repo);
    assert.equal(server?.env.PLANTED, 'by-the-repo');
  });

  test('untrusted: the default cwd is the home folder', () => {
    const { server, problems } = parse({}, true);
    assert.equal(server?.cwd, home);
    assert.deepEqual(problems, []);
  });

  test('untrusted: a cwd inside the workspace is replaced by home, with a warning naming the field', () => {
    const { server, problems } = parse({ cwd: '${workspaceFolder}' }, true);
    assert.equal(server?.cwd, home);
    assert.deepEqual(
      problems.map((p) => [p.server, p.field, p.severity]),
      [['s', 'cwd', 'warning']],
    );
    assert.match(
      problems[0]!.message,
      /inside the untrusted workspace \(or reached through a link there\); the server starts in/,
    );
  });

  test('untrusted: an env file inside the workspace (directly or through a link) is not read; one in home is', () => {
    for (const envFile of ['${workspaceFolder}/.env', join(home, 'linked.env')]) {
      const { server, problems } = parse({ envFile }, true);
      assert.ok(server, 'the server still starts');
      assert.equal(server.env.PLANTED, undefined, envFile);
      assert.deepEqual(
        problems.map((p) => [p.field, p.severity]),
        [['envFile', 'warning']],
      );
      assert.match(
        problems[0]!.message,
        /is inside the untrusted workspace \(or reached through a link there\); it is not read/,
      );
    }
    const mine = parse({ envFile: 'mine.env' }, true);
    assert.equal(mine.server?.env.MINE, '1', 'a relative env file resolves against home');
  });
});
