// Nothing in a folder name or an argument is run by a shell: a real server started from a folder
// named with shell metacharacters, with such arguments, gets them verbatim and nothing else runs.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { parseServers } from '../../src/core/mcp/config/parseServers';
import { ServerHub } from '../../src/core/mcp/hub/serverHub';
import { SERVERS } from '../helpers';

test('a folder name and arguments with shell metacharacters run nothing extra', { timeout: 30_000 }, async () => {
  const root = mkdtempSync(join(tmpdir(), 'minagent-shell-'));
  const folder = join(root, 'a&touch pwned&', '$(touch x)', '`touch y`;touch z|touch w');
  mkdirSync(folder, { recursive: true });
  const hostile = [
    'a&touch pwned&',
    '$(touch x)',
    '`touch y`',
    ';touch z',
    '|touch w',
    '> out',
    '%PATH%',
    '"quoted" and \'single\'',
    'back\\slash\\',
  ];
  const { servers, problems } = parseServers(
    { g: { command: process.execPath, args: [join(SERVERS, 'guarded.mjs'), ...hostile], cwd: '${workspaceFolder}' } },
    { workspaceFolder: folder },
  );
  assert.deepEqual(problems, []);
  const hub = new ServerHub();
  try {
    hub.reconcile(servers);
    await hub.whenIdle();
    assert.equal(hub.server('g')!.state.kind, 'running');
    const seen = JSON.parse(await hub.registry.call('whoami', {})) as { argv: string[]; cwd: string };
    assert.deepEqual(seen.argv, hostile, 'the server got every argument exactly as written');
    assert.equal(seen.cwd, folder, 'and the folder as its working directory');
  } finally {
    await hub.closeAll();
  }
  const created = (dir: string) => readdirSync(dir).filter((f) => ['pwned', 'x', 'y', 'z', 'w', 'out'].includes(f));
  for (const dir of [root, folder, join(root, 'a&touch pwned&'), process.cwd()])
    assert.deepEqual(created(dir), [], `nothing was created in ${dir}`);
  assert.equal(existsSync(join(folder, 'pwned')), false);
});
