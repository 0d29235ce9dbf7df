// Issue 22, item 2: an untrusted repository escapes through links, other roots and env files that
// never end. Played with real folders, links, a FIFO and /dev/zero, through parseServers and
// readEnvFiles as the extension (read ahead) and the CLI (read while parsing) call them.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { parseServers } from '../../src/core/mcp/config/parseServers';
import { readEnvFiles } from '../../src/core/mcp/config/envFiles';
import type { ConfigProblem, StdioServerConfig } from '../../src/core/mcp/config/serverConfig';
import type { VariableContext } from '../../src/core/mcp/config/variables';

const dir = mkdtempSync(join(tmpdir(), 'minagent-links-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const home = join(dir, 'home');
// A cloned repository opened at clone/sub: the whole clone is the repository's.
const clone = join(dir, 'clone');
const sub = join(clone, 'sub');
// A multi-root workspace's second folder.
const second = join(dir, 'second');
for (const d of [home, sub, second, join(clone, 'tools'), join(dir, 'elsewhere')]) mkdirSync(d, { recursive: true });
const PWN = `NODE_OPTIONS=--require ${join(clone, 'pwn.cjs')}\n`;
writeFileSync(join(clone, 'evil.env'), PWN);
symlinkSync('../evil.env', join(sub, '.env'));
symlinkSync('../tools', join(sub, 'tools'));
writeFileSync(join(dir, 'elsewhere', 'second.env'), PWN);
symlinkSync(join(dir, 'elsewhere', 'second.env'), join(second, '.env'));
symlinkSync(join(second, '.env'), join(home, 'via-second.env'));
writeFileSync(join(home, 'mine.env'), 'MINE=1\n');

const untrusted: VariableContext = {
  workspaceFolder: sub,
  workspaceFolders: [sub, second],
  userHome: home,
  untrusted: true,
};

/** Both ways the configuration is loaded: env files read ahead (the extension) and read while parsing (the CLI). */
async function bothWays(
  entry: Record<string, unknown>,
  ctx: VariableContext,
): Promise<Array<{ server?: StdioServerConfig; problems: ConfigProblem[]; read: Map<string, string | Error> }>> {
  const raw = { s: { command: 'node', ...entry } };
  const read = await readEnvFiles(raw, ctx);
  const ahead = parseServers(raw, { ...ctx, envFiles: read }, 'settings');
  const whileParsing = parseServers(raw, ctx, 'settings');
  return [ahead, whileParsing].map((r) => ({
    server: r.servers[0] as StdioServerConfig | undefined,
    problems: r.problems,
    read,
  }));
}

describe('an untrusted workspace reaches nothing through links or other roots', () => {
  test('clone/sub/.env -> ../evil.env (outside the folder) is not read: the server starts without NODE_OPTIONS, with a warning on envFile', async () => {
    for (const { server, problems, read } of await bothWays({ envFile: '${workspaceFolder}/.env' }, untrusted)) {
      assert.ok(server, 'the server still starts');
      assert.equal(server.env.NODE_OPTIONS, undefined);
      assert.deepEqual(
        problems.map((p) => [p.server, p.field, p.severity]),
        [['s', 'envFile', 'warning']],
      );
      assert.match(
        problems[0]!.message,
        new RegExp(
          `^${join(sub, '.env')} is inside the untrusted workspace \\(or reached through a link there\\); it is not read$`,
        ),
      );
      assert.equal(read.size, 0, 'the file was never opened');
    }
  });

  test('a link in the second folder of a multi-root workspace: named directly, or reached from home through it', async () => {
    for (const envFile of [join(second, '.env'), join(home, 'via-second.env')]) {
      for (const { server, problems, read } of await bothWays({ envFile }, untrusted)) {
        assert.equal(server?.env.NODE_OPTIONS, undefined, envFile);
        assert.deepEqual(
          problems.map((p) => [p.server, p.field, p.severity]),
          [['s', 'envFile', 'warning']],
          envFile,
        );
        assert.equal(read.size, 0);
      }
    }
  });

  test('cwd through a link in the folder, or in the second folder, is replaced by home with a warning on cwd', async () => {
    for (const cwd of ['${workspaceFolder}/tools', second]) {
      for (const { server, problems } of await bothWays({ cwd }, untrusted)) {
        assert.equal(server?.cwd, home, cwd);
        assert.deepEqual(
          problems.map((p) => [p.server, p.field, p.severity]),
          [['s', 'cwd', 'warning']],
          cwd,
        );
      }
    }
  });

  test("what is the user's own is still read: a file in home, and the same links in a trusted workspace", async () => {
    for (const { server, problems } of await bothWays({ envFile: 'mine.env' }, untrusted)) {
      assert.deepEqual(problems, []);
      assert.equal(server?.env.MINE, '1');
    }
    const { untrusted: _, ...trusted } = untrusted;
    for (const { server, problems } of await bothWays(
      { envFile: '${workspaceFolder}/.env', cwd: '${workspaceFolder}/tools' },
      trusted,
    )) {
      assert.deepEqual(problems, []);
      assert.equal(server?.env.NODE_OPTIONS, PWN.slice('NODE_OPTIONS='.length, -1));
      assert.equal(server?.cwd, join(sub, 'tools'));
    }
  });
});

describe('env files are bounded', () => {
  const big = join(home, 'big.env');
  writeFileSync(big, `BIG=${'x'.repeat(2 * 1024 * 1024)}\n`);
  symlinkSync('/dev/zero', join(home, 'zero.env'));
  const fifo = join(home, 'fifo.env');
  execFileSync('mkfifo', [fifo]);
  writeFileSync(join(home, 'limit.env'), `AT_LIMIT=${'y'.repeat(1024 * 1024 - 'AT_LIMIT=\n'.length)}\n`);
  const trusted: VariableContext = { workspaceFolder: sub, userHome: home };

  for (const [label, envFile, why] of [
    ['/dev/zero', '/dev/zero', /it is not a regular file \(a device, a FIFO or a folder\)/],
    ['a link to /dev/zero', join(home, 'zero.env'), /it is not a regular file/],
    ['a FIFO with no writer', fifo, /it is not a regular file/],
    ['a 2 MB file', big, /it is larger than the 1 MB limit for env files \(2097157 bytes\)/],
  ] as const) {
    test(`${label} is refused at once with an error naming the server, envFile and the file`, {
      timeout: 20_000,
    }, async () => {
      // Read ahead (the extension) first: the unbounded read took seconds and ~650 MB for /dev/zero and
      // never ended for a FIFO; parsing while reading (the CLI) would then block this thread.
      const started = performance.now();
      const read = await readEnvFiles({ s: { command: 'node', envFile } }, trusted);
      const ms = performance.now() - started;
      assert.ok(ms < 1_500, `refused without reading it (took ${Math.round(ms)} ms)`);
      assert.ok([...read.values()].every((v) => v instanceof Error));
      for (const { server, problems } of await bothWays({ envFile }, trusted)) {
        assert.equal(server, undefined);
        assert.deepEqual(
          problems.map((p) => [p.server, p.field, p.severity]),
          [['s', 'envFile', 'error']],
        );
        assert.match(
          problems[0]!.message,
          new RegExp(`^cannot read ${envFile.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: `),
        );
        assert.match(problems[0]!.message, why);
      }
    });
  }

  test('a file of exactly 1 MB is read whole', async () => {
    for (const { server, problems } of await bothWays({ envFile: join(home, 'limit.env') }, trusted)) {
      assert.deepEqual(problems, []);
      assert.equal(server?.env.AT_LIMIT?.length, 1024 * 1024 - 'AT_LIMIT=\n'.length);
    }
    assert.ok(existsSync(fifo));
  });
});
