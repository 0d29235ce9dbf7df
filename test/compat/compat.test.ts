// The compatibility suite: third-party MCP servers from npm (compat/package.json, pinned), each
// driven through the minagent CLI and through the SDK's own client (`@modelcontextprotocol/sdk`,
// what the MCP Inspector and most hosts use) on the same server, over stdio and, where the server
// offers it, Streamable HTTP. Both must see the same tools, the same text from one call, the same
// resources (and the first one's text) and the same prompts. Run by `npm run compat`.
import assert from 'node:assert/strict';
import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { freePort, ROOT, waitFor } from '../helpers';
import { COMPAT_MODULES, COMPAT_SERVERS, entryOf, node24, type CompatServer } from './servers';

const CLI = join(ROOT, 'dist', 'cli.js');
const work = mkdtempSync(join(tmpdir(), 'minagent-compat-'));
const repo = join(work, 'repo');
const children: ChildProcess[] = [];

before(() => {
  mkdirSync(repo);
  const git = (...args: string[]) => spawnSync('git', args, { cwd: repo, encoding: 'utf8' });
  git('init', '-q');
  writeFileSync(join(repo, 'a.txt'), 'hello\n');
  git('add', '.');
  git('-c', 'user.email=compat@example.invalid', '-c', 'user.name=compat', 'commit', '-qm', 'first');
  // What the linter lints: a file with an unused variable, under a flat config that reports it.
  mkdirSync(join(work, 'lint'));
  writeFileSync(
    join(work, 'lint', 'eslint.config.mjs'),
    "export default [{ rules: { 'no-unused-vars': 'error' } }];\n",
  );
  writeFileSync(join(work, 'lint', 'bad.js'), 'const unused = 1;\n');
});
after(() => {
  for (const c of children) c.kill('SIGKILL');
  rmSync(work, { recursive: true, force: true });
});

/** What one client saw of a server. */
interface Seen {
  tools: string[];
  call: { text: string; error: boolean };
  resources: string[];
  firstResource?: string;
  prompts: string[];
}

const withRepo = (args: Record<string, unknown>): Record<string, unknown> =>
  JSON.parse(JSON.stringify(args).replaceAll('{repo}', repo).replaceAll('{work}', work)) as Record<string, unknown>;
/** "MCP error -32603: MCP error -32603: x" -> "x": the SDK's own prefix, which each client words its own way. */
const bare = (message: string) => message.replace(/^(MCP error -?\d+: )+/, '');

async function bySdk(server: CompatServer, transport: Transport): Promise<Seen> {
  const client = new Client({ name: 'compat-sdk', version: '1.0.0' });
  try {
    await client.connect(transport, { timeout: 60_000 });
    const caps = client.getServerCapabilities() ?? {};
    const tools = (await client.listTools()).tools.map((t) => t.name).sort();
    let call: Seen['call'];
    try {
      const r = (await client.callTool({ name: server.call.tool, arguments: withRepo(server.call.args) }, undefined, {
        timeout: 60_000,
      })) as { content?: Array<{ type: string; text?: string }>; isError?: boolean };
      call = {
        text: (r.content ?? [])
          .filter((b) => b.type === 'text')
          .map((b) => b.text)
          .join('\n'),
        error: !!r.isError,
      };
    } catch (err) {
      call = { text: bare((err as Error).message), error: true };
    }
    const resources = caps.resources ? (await client.listResources()).resources.map((r) => r.uri).sort() : [];
    const first = resources[0];
    const firstResource =
      first === undefined
        ? undefined
        : ((await client.readResource({ uri: first })).contents[0] as { text?: string } | undefined)?.text;
    const prompts = caps.prompts ? (await client.listPrompts()).prompts.map((p) => p.name).sort() : [];
    return { tools, call, resources, prompts, ...(firstResource !== undefined ? { firstResource } : {}) };
  } finally {
    await client.close().catch(() => undefined);
  }
}

async function byCli(
  folder: string,
  server: CompatServer,
  first: string | undefined,
  sandboxed = false,
): Promise<Seen> {
  // Not spawnSync: a synchronous wait froze the other tests' SDK clients in this process, and the
  // suite, which waits more than it computes, ran about one test at a time.
  const run = (...args: string[]) =>
    new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
      // Sandboxed: as by default (npm run compat turns the sandbox off for the comparison runs).
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        XDG_CONFIG_HOME: join(folder, 'config'),
        ...(sandboxed ? { MINAGENT_SANDBOX_WORKSPACE_SERVERS: 'always' } : {}),
      };
      execFile(
        process.execPath,
        [CLI, ...args, '--trust'],
        { cwd: folder, encoding: 'utf8', timeout: 120_000, maxBuffer: 16 * 1024 * 1024, env },
        (error, out, err) => {
          resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, out, err });
        },
      );
    });
  const json = async <T>(verb: string): Promise<T> => {
    const r = await run(verb, '--json');
    assert.equal(r.code, 0, `minagent ${verb}: ${r.err}`);
    return JSON.parse(r.out) as T;
  };
  if (sandboxed) {
    const servers = await run('servers');
    assert.match(servers.out, /\tsandboxed: writes /, `the server runs in its sandbox: ${servers.out}${servers.err}`);
  }
  // MinAgent's own read_resource tool (for a server with resources) is not the server's.
  const tools = (await json<{ tools: Array<{ name: string; server: string }> }>('tools')).tools
    .filter((t) => t.server === server.name)
    .map((t) => t.name)
    .sort();
  const called = await run('call', server.call.tool, JSON.stringify(withRepo(server.call.args)));
  const text = called.out.replace(/\n$/, '');
  let call: Seen['call'] = { text, error: false };
  if (called.code !== 0) {
    // {"error": ...}: the server's error, in MinAgent's words around it.
    const error = (JSON.parse(text) as { error?: string }).error;
    assert.equal(typeof error, 'string', `minagent call: ${called.out}${called.err}`);
    call = { text: bare(error!), error: true };
  }
  const resources = (await json<{ resources: Array<{ uri: string }> }>('resources')).resources.map((r) => r.uri).sort();
  const prompts = (await json<{ prompts: Array<{ name: string }> }>('prompts')).prompts.map((p) => p.name).sort();
  let firstResource: string | undefined;
  if (first !== undefined) {
    const read = await run('read', first);
    assert.equal(read.code, 0, `minagent read: ${read.err}`);
    firstResource = read.out.replace(/\n$/, '');
  }
  return { tools, call, resources, prompts, ...(firstResource !== undefined ? { firstResource } : {}) };
}

function folderFor(name: string, entry: Record<string, unknown>): string {
  const folder = join(work, name);
  mkdirSync(join(folder, '.vscode'), { recursive: true });
  writeFileSync(
    join(folder, '.vscode', 'settings.json'),
    JSON.stringify({ 'minagent.servers': { [name.replace(/-.*/, '')]: entry } }),
  );
  return folder;
}

function compare(server: CompatServer, sdk: Seen, cli: Seen): void {
  assert.ok(sdk.tools.length > 0, 'the server lists tools');
  assert.deepEqual(cli.tools, sdk.tools, 'tool names');
  assert.equal(
    cli.call.error,
    sdk.call.error,
    `whether ${server.call.tool} failed: ${cli.call.text} / ${sdk.call.text}`,
  );
  // An error thrown as JSON-RPC is told in each client's own words around the server's message.
  if (sdk.call.error)
    assert.ok(
      cli.call.text.includes(sdk.call.text) || sdk.call.text.includes(cli.call.text),
      `${server.call.tool}'s error: ${JSON.stringify(cli.call.text)} vs ${JSON.stringify(sdk.call.text)}`,
    );
  else assert.equal(cli.call.text, sdk.call.text, `${server.call.tool}'s text`);
  assert.match(sdk.call.text, server.call.expect, 'the call reached the server');
  assert.deepEqual(cli.resources, sdk.resources, 'resources');
  assert.equal(cli.firstResource, sdk.firstResource, "the first resource's text");
  assert.deepEqual(cli.prompts, sdk.prompts, 'prompts');
}

/** Starts a server on its HTTP port and resolves once it accepts connections. */
async function serveHttp(server: CompatServer): Promise<{ url: string; child: ChildProcess }> {
  const http = server.http!;
  const port = await freePort();
  const child = spawn(process.execPath, [entryOf(server), ...(http.args?.(port) ?? [])], {
    cwd: work,
    env: { ...process.env, ...server.env, ...http.env?.(port) },
    stdio: ['pipe', 'ignore', 'pipe'],
  });
  children.push(child);
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const url = `http://${http.host ?? '127.0.0.1'}:${port}${http.path}`;
  await waitFor(
    () => `${server.name} to serve HTTP on ${port}: ${stderr.slice(-500)}`,
    async () => {
      if (child.exitCode !== null) throw new Error(`${server.name} exited: ${stderr.slice(-500)}`);
      return fetch(`http://127.0.0.1:${port}/`).then(
        () => true,
        () => false,
      );
    },
    30_000,
  );
  return { url, child };
}

/** A server's stdio entry, and what the SDK's client sees of it run from that entry. */
async function overStdio(server: CompatServer) {
  const entry = {
    command: process.execPath,
    args: [entryOf(server), ...(server.args ?? [])],
    ...(server.env ? { env: server.env } : {}),
  };
  const sdk = await bySdk(
    server,
    new StdioClientTransport({
      command: entry.command,
      args: entry.args,
      env: { ...(process.env as Record<string, string>), ...server.env },
      cwd: work,
      stderr: 'ignore',
    }),
  );
  return { entry, sdk };
}

/** `minagent ARGS --trust` run in a folder, its servers in the sandbox (a workspace's, always sandboxed). */
const sandboxedCli =
  (folder: string) =>
  (...args: string[]) =>
    spawnSync(process.execPath, [CLI, ...args, '--trust'], {
      cwd: folder,
      encoding: 'utf8',
      timeout: 120_000,
      env: { ...process.env, XDG_CONFIG_HOME: join(folder, 'config'), MINAGENT_SANDBOX_WORKSPACE_SERVERS: 'always' },
    });

const installed = existsSync(join(ROOT, 'compat', 'node_modules'));

describe('a git server commits in the default sandbox', { timeout: 5 * 60_000 }, () => {
  test('@cyanheads/git-mcp-server stages and commits in its folder (a repository), and the commit is there on the host', async () => {
    const server = COMPAT_SERVERS.find((s) => s.name === 'git')!;
    const folder = folderFor('git-commits', { command: process.execPath, args: [entryOf(server)] });
    const git = (...args: string[]) => spawnSync('git', args, { cwd: folder, encoding: 'utf8' });
    git('init', '-q');
    // Who commits, as a user's repository knows (a new machine's HOME has no ~/.gitconfig).
    git('config', 'user.email', 'compat@example.invalid');
    git('config', 'user.name', 'compat');
    writeFileSync(join(folder, '.gitignore'), 'config/\n.vscode/\n');
    writeFileSync(join(folder, 'notes.md'), 'from the sandbox\n');
    const run = sandboxedCli(folder);
    const added = run('call', 'git_add', JSON.stringify({ path: folder, paths: ['.'] }));
    assert.equal(added.status, 0, `git_add: ${added.stdout}${added.stderr}`);
    const committed = run(
      'call',
      'git_commit',
      JSON.stringify({
        path: folder,
        message: 'committed in the sandbox',
        author: { name: 'compat', email: 'compat@example.invalid' },
      }),
    );
    assert.equal(committed.status, 0, `git_commit: ${committed.stdout}${committed.stderr}`);
    assert.match(git('log', '--format=%s').stdout, /^committed in the sandbox$/m);
    assert.match(git('show', '--name-only', '--format=').stdout, /notes\.md/);
    assert.match(run('servers').stdout, /\tsandboxed: writes /, 'it ran in its sandbox');
  });
});

describe('a database server that installs from npm alone works in the default sandbox', { timeout: 5 * 60_000 }, () => {
  test('@bytebase/dbhub (SQLite in its folder, on Node 24): creates a table, writes a row, reads it back; the database file is in the folder', () => {
    const node = node24();
    assert.ok(existsSync(node), `Node 24 of the e2e cache is missing (${node}): npm run compat installs it`);
    const folder = folderFor('dbhub-sandboxed', {
      command: node,
      args: [join(COMPAT_MODULES, '@bytebase/dbhub/dist/index.js'), '--dsn', 'sqlite://${workspaceFolder}/app.db'],
    });
    const run = sandboxedCli(folder);
    const made = run(
      'call',
      'execute_sql',
      JSON.stringify({ sql: "CREATE TABLE notes(body TEXT); INSERT INTO notes VALUES ('kept in the sandbox');" }),
    );
    assert.equal(made.status, 0, `execute_sql: ${made.stdout}${made.stderr}`);
    const read = run('call', 'execute_sql', JSON.stringify({ sql: 'SELECT body FROM notes' }));
    assert.equal(read.status, 0, `execute_sql: ${read.stdout}${read.stderr}`);
    assert.match(read.stdout, /"body": "kept in the sandbox"/);
    assert.ok(existsSync(join(folder, 'app.db')), 'the database is a file of its folder');
    assert.match(run('servers').stdout, /\tsandboxed: writes /, 'it ran in its sandbox');
  });
});

describe("third-party servers: the minagent CLI sees what the SDK's client sees", {
  timeout: 30 * 60_000,
  concurrency: 4,
}, () => {
  test('the servers are installed (npm run compat installs compat/package.json)', () => {
    assert.ok(installed, 'compat/node_modules is missing: run `npm run compat`');
    assert.ok(COMPAT_SERVERS.length >= 10, 'at least ten servers');
  });

  for (const server of COMPAT_SERVERS) {
    test(`${server.name} (${server.pkg}) over stdio`, { timeout: 5 * 60_000 }, async () => {
      const { entry, sdk } = await overStdio(server);
      const cli = await byCli(folderFor(`${server.name}-stdio`, { ...entry, cwd: work }), server, sdk.resources[0]);
      compare(server, sdk, cli);
    });
    test(`${server.name} (${server.pkg}) over stdio, in the default sandbox (a workspace's server, its folder as cwd)`, {
      timeout: 5 * 60_000,
      ...(server.sandbox?.skip ? { skip: server.sandbox.skip } : {}),
    }, async () => {
      const { entry, sdk } = await overStdio(server);
      const folder = folderFor(`${server.name}-sandboxed`, entry);
      const cli = await byCli(folder, server, undefined, true);
      assert.deepEqual(cli.tools, sdk.tools, 'tool names');
      assert.match(
        cli.call.text,
        server.sandbox?.expect ?? server.call.expect,
        `${server.call.tool} reached the server and did its work: ${cli.call.text.slice(0, 2000)}`,
      );
    });
    if (!server.http) continue;
    test(`${server.name} (${server.pkg}) over Streamable HTTP`, { timeout: 5 * 60_000 }, async () => {
      const { url, child } = await serveHttp(server);
      try {
        const headers = server.http!.headers ?? {};
        const sdk = await bySdk(server, new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
        const cli = await byCli(
          folderFor(`${server.name}-http`, { type: 'http', url, headers }),
          server,
          sdk.resources[0],
        );
        compare(server, sdk, cli);
      } finally {
        child.kill('SIGKILL');
      }
    });
  }
});
