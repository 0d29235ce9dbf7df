// A server in a sandbox (bubblewrap and a proxy, through Anthropic's sandbox-runtime) tries what the
// sandbox must stop: it reads a planted private key, writes outside its folder, reaches a loopback
// port not on its list (and one that is, with Node's own fetch and with a raw socket), and spawns a
// child that tries the same. Each is denied, each denial the sandbox sees is on the server's log, the
// server still answers, and closing it leaves no process behind.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Logger } from '../../src/core/base/logger';
import type { ServerConfig, StdioServerConfig } from '../../src/core/mcp/config/serverConfig';
import { ServerHub } from '../../src/core/mcp/hub/serverHub';
import type { SandboxRules } from '../../src/core/mcp/sandbox/decision';
import { fixture, loggerInto, processesNaming, reference, ROOT, waitFor } from '../helpers';

const home = mkdtempSync(join(tmpdir(), 'minagent-sandbox-home-'));
const work = mkdtempSync(join(tmpdir(), 'minagent-sandbox-work-'));
const KEY = join(home, '.ssh', 'id_rsa');
const OUTSIDE = join(home, 'outside.txt');
const REPO_CONFIG = '[core]\n\trepositoryformatversion = 0\n';

/** An HTTPS host on loopback (fixtures/tls: a certificate for 127.0.0.1 that the server is told to trust). */
const TLS = join(ROOT, 'fixtures', 'tls');
/** A host on loopback answering `body`, over HTTP or (`tls`) HTTPS. */
function listen(body: string, tls = false): Promise<Server> {
  return new Promise((resolve) => {
    const answer = (_req: unknown, res: { end(b: string): void }) => res.end(body);
    const server = tls
      ? createHttpsServer(
          { cert: readFileSync(join(TLS, 'loopback.crt')), key: readFileSync(join(TLS, 'loopback.key')) },
          answer,
        )
      : createServer(answer);
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}
const portOf = (s: Server) => (s.address() as { port: number }).port;

function rules(): SandboxRules {
  return {
    workspaceServers: 'always',
    fromWorkspace: () => false,
    context: { home, cacheRoot: join(home, '.cache', 'minagent'), privatePaths: [], workspaceFolders: [work] },
  };
}

describe('a server in a sandbox', () => {
  let allowed: Server;
  let other: Server;
  let secure: Server;
  let secureOther: Server;
  let hub: ServerHub;
  const log: string[] = [];
  const logger = loggerInto(log);
  let config: StdioServerConfig;

  before(async () => {
    mkdirSync(join(home, '.ssh'), { recursive: true });
    writeFileSync(KEY, 'PLANTED PRIVATE KEY');
    // Its folder is a repository, as a workspace is (this test process's own working directory is
    // elsewhere, as the editor's extension host's is).
    mkdirSync(join(work, '.git'));
    writeFileSync(join(work, '.git', 'HEAD'), 'ref: refs/heads/main\n');
    writeFileSync(join(work, '.git', 'config'), REPO_CONFIG);
    allowed = await listen('allowed host');
    other = await listen('host not on the list');
    secure = await listen('allowed host over TLS', true);
    secureOther = await listen('TLS host not on the list', true);
    // The folder as an argument too: its processes are told from those of other tests by it.
    config = fixture('intruder', 'intruder.mjs', [work], {
      cwd: work,
      env: { NODE_EXTRA_CA_CERTS: join(TLS, 'loopback.crt') },
      sandbox: {
        allowWrite: [],
        denyRead: [],
        allowedDomains: [`127.0.0.1:${portOf(allowed)}`, `127.0.0.1:${portOf(secure)}`],
      },
    });
    hub = new ServerHub({ serverLogger: () => logger, sandbox: rules() });
    hub.reconcile([config]);
    await hub.whenIdle();
    assert.equal(
      hub.servers()[0]?.state.kind,
      'running',
      `the sandboxed server connected: ${JSON.stringify(hub.servers()[0]?.state)} ${log.join('\n')}`,
    );
  });

  after(async () => {
    if (process.env.SHOW_LOG) console.log(log.join('\n'));
    await hub?.closeAll();
    allowed?.close();
    other?.close();
    secure?.close();
    secureOther?.close();
  });

  const call = (tool: string, args: Record<string, unknown>) => hub.registry.call(tool, args);

  test('it cannot read a private key in the home folder, nor can its child', async () => {
    const own = await call('read', { path: KEY });
    assert.doesNotMatch(own, /PLANTED/);
    assert.match(own, /read failed: ENOENT/);
    const child = await call('spawn', { what: 'read', args: { path: KEY } });
    assert.doesNotMatch(child, /PLANTED/);
    assert.match(child, /read failed: ENOENT/);
    // Nothing outside a process sees a hidden file read: the server's log has it from the process itself, twice (the
    // server, its child).
    const noted = () => log.filter((l) => l.startsWith('warn sandbox denied: read') && l.includes(JSON.stringify(KEY)));
    await waitFor(
      () => `both reads on the log:\n${log.join('\n')}`,
      () => noted().length === 2,
      10_000,
    );
    assert.match(noted()[0]!, /hidden by the sandbox \(under ".*\.ssh"; .*denyRead/);
  });

  test('it writes in its own folder, but not outside it, nor does its child; each denied write is on its log with how to allow it', async () => {
    assert.match(await call('write', { path: join(work, 'notes.txt') }), /wrote/);
    assert.equal(readFileSync(join(work, 'notes.txt'), 'utf8'), 'written by intruder');
    assert.match(await call('write', { path: OUTSIDE }), /write failed: EROFS/);
    assert.match(await call('spawn', { what: 'write', args: { path: `${OUTSIDE}.child` } }), /write failed: EROFS/);
    assert.equal(existsSync(OUTSIDE) || existsSync(`${OUTSIDE}.child`), false, 'nothing was written outside');
    await waitFor(
      () => `the denied writes on the log:\n${log.join('\n')}`,
      () =>
        log.some((l) => l.includes(`sandbox denied: deny openat ${OUTSIDE}`)) &&
        log.some((l) => l.includes(`${OUTSIDE}.child`)),
      10_000,
    );
    assert.ok(
      log.some(
        (l) => l.includes(`sandbox denied: deny openat ${OUTSIDE}`) && l.includes('sandbox.filesystem.allowWrite'),
      ),
    );
    assert.ok(
      !log.some((l) => l.includes('notes.txt') && l.includes('denied')),
      'the write its policy allows is not reported as denied',
    );
  });

  test("in its own folder it cannot write the repository's config or hooks, nor create .vscode (git and the editor run those outside the sandbox), nor can its child; each denial is on its log", async () => {
    assert.notEqual(process.cwd(), work, 'the host runs elsewhere, as the editor does');
    // VS Code's Git runs `git status` in the background: a core.fsmonitor in the config is a command it runs.
    assert.match(await call('write', { path: join(work, '.git', 'config') }), /write failed: EROFS/);
    assert.match(
      await call('spawn', { what: 'write', args: { path: join(work, '.git', 'config') } }),
      /write failed: EROFS/,
    );
    assert.match(
      await call('write', { path: join(work, '.git', 'hooks', 'pre-commit') }),
      /write failed: E(ROFS|NOTDIR)/,
    );
    assert.match(
      await call('write', { path: join(work, '.vscode', 'tasks.json') }),
      /write failed: E(ROFS|NOTDIR|NOENT)/,
    );
    assert.equal(readFileSync(join(work, '.git', 'config'), 'utf8'), REPO_CONFIG);
    assert.equal(
      existsSync(join(work, '.git', 'hooks', 'pre-commit')) || existsSync(join(work, '.vscode', 'tasks.json')),
      false,
    );
    assert.match(
      await call('write', { path: join(work, 'README.md') }),
      /wrote/,
      'the rest of its folder stays writable',
    );
    await waitFor(
      () => `the denial on the log:\n${log.join('\n')}`,
      () => log.some((l) => l.includes(`sandbox denied: deny openat ${join(work, '.git', 'config')}`)),
      10_000,
    );
    assert.ok(
      log.some((l) => l.includes(join(work, '.git', 'config')) && l.includes('never writable in a sandbox')),
      'the hint says it cannot be allowed, not to add the folder to allowWrite',
    );
  });

  test('its Node fetch and sockets reach the allowed loopback host through the proxy, and no other; the refusal is on its log', async () => {
    assert.equal(await call('fetch', { url: `http://127.0.0.1:${portOf(allowed)}/` }), 'fetched 200: allowed host');
    assert.match(await call('connect', { host: '127.0.0.1', port: portOf(allowed) }), /connected/);
    assert.match(await call('fetch', { url: `http://127.0.0.1:${portOf(other)}/` }), /fetch failed: ECONNREFUSED/);
    assert.match(await call('connect', { host: '127.0.0.1', port: portOf(other) }), /connect failed: ECONNREFUSED/);
    assert.match(
      await call('spawn', { what: 'fetch', args: { url: `http://127.0.0.1:${portOf(other)}/` } }),
      /fetch failed: ECONNREFUSED/,
    );
    assert.match(
      await call('spawn', { what: 'fetch', args: { url: `http://127.0.0.1:${portOf(allowed)}/` } }),
      /fetched 200: allowed host/,
    );
    await waitFor(
      () => `the refusal on the log:\n${log.join('\n')}`,
      () => log.some((l) => l.includes(`sandbox denied: connection to 127.0.0.1:${portOf(other)} refused`)),
      10_000,
    );
    assert.ok(
      log.some((l) => l.includes(`"127.0.0.1:${portOf(other)}"`) && l.includes('sandbox.network.allowedDomains')),
    );
  });

  test('its Node fetch reaches an allowed HTTPS host, TLS end to end inside the tunnel (the certificate checked against 127.0.0.1), and no other', async () => {
    assert.equal(
      await call('fetch', { url: `https://127.0.0.1:${portOf(secure)}/` }),
      'fetched 200: allowed host over TLS',
    );
    assert.match(
      await call('spawn', { what: 'fetch', args: { url: `https://127.0.0.1:${portOf(secure)}/` } }),
      /fetched 200: allowed host over TLS/,
    );
    assert.match(
      await call('fetch', { url: `https://127.0.0.1:${portOf(secureOther)}/` }),
      /fetch failed: ECONNREFUSED/,
    );
  });

  test('a host name outside the allowlist is refused by the proxy, and the denial is on its log', async () => {
    assert.match(await call('fetch', { url: 'http://example.invalid/' }), /fetch failed: ECONNREFUSED/);
    await waitFor(
      () => `the proxy's denial on the log:\n${log.join('\n')}`,
      () => log.some((l) => /sandbox denied: .*example\.invalid/.test(l)),
      10_000,
    );
  });

  test('after all that it still answers, and closing it ends the sandbox: no server, bwrap or socat process is left', async () => {
    assert.equal(await call('echo', { text: 'still here' }), 'still here');
    assert.ok(
      processesNaming(work).some((l) => l.includes('bwrap')) &&
        processesNaming(work).some((l) => /node .*intruder\.mjs/.test(l)),
      'its processes are found by its folder',
    );
    await hub.closeAll();
    assert.deepEqual(processesNaming(work), [], 'no server, bwrap or socat process of this sandbox');
    assert.deepEqual(
      readdirSync(work).sort(),
      ['.git', '.vscode', 'README.md', 'notes.txt'],
      'nothing of the sandbox is left in its folder but the empty .vscode it may not create',
    );
    assert.deepEqual(readdirSync(join(work, '.vscode')), []);
  });
});

describe('a server the sandbox keeps from starting', () => {
  test('its error says it runs in a sandbox and what was denied, before its own stderr', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'minagent-sandbox-needs-'));
    const target = join(home, 'cache-it-needs', 'state.json');
    const hub = new ServerHub({ sandbox: rules() });
    try {
      hub.reconcile([
        fixture('needy', 'intruder.mjs', [folder, '--write-at-start', target, '--needs-it'], {
          cwd: folder,
          sandbox: { allowWrite: [], denyRead: [], allowedDomains: [] },
        }),
      ]);
      await hub.whenIdle();
      const state = hub.servers()[0]!.state;
      assert.equal(state.kind, 'error');
      const message = state.kind === 'error' ? state.message : '';
      assert.match(
        message,
        /^server process exited with code 1 during startup, in its sandbox \(denied: .*cache-it-needs.*; its log says how to allow each\); stderr: write failed: E(ROFS|NOENT|ACCES)/,
      );
    } finally {
      await hub.closeAll();
    }
  });
});

describe("a sandboxed server's start and the user's shell set-up", () => {
  // The sandbox is started with `bash -c` with the MCP stream, a socket, for stdin, and so are the
  // library's two shells inside it; Debian's bash then reads ~/.bashrc when SHLVL is unset or 0 (an
  // editor opened from the desktop). A ~/.bashrc that prints (a greeting, a version manager's notice)
  // would write into the MCP stream, and the user's whole shell set-up would run at every start.
  test('~/.bashrc is not run, outside the sandbox or in it: nothing of it reaches the MCP stream, and the server answers', async () => {
    const shellHome = mkdtempSync(join(tmpdir(), 'minagent-sandbox-bashrc-'));
    const ran = join(shellHome, 'bashrc-ran');
    writeFileSync(join(shellHome, '.bashrc'), `echo 'hello from bashrc, not JSON'\necho started >> '${ran}'\n`);
    const folder = mkdtempSync(join(tmpdir(), 'minagent-sandbox-rc-'));
    const log: string[] = [];
    const logger: Logger = {
      trace: (m) => log.push(m),
      info: (m) => log.push(m),
      warn: (m) => log.push(m),
      error: (m) => log.push(m),
    };
    const hub = new ServerHub({ sandbox: rules(), serverLogger: () => logger });
    try {
      hub.reconcile([
        fixture('rc', 'intruder.mjs', [folder], {
          cwd: folder,
          env: { HOME: shellHome, SHLVL: '0' },
          sandbox: { allowWrite: [], denyRead: [], allowedDomains: [] },
        }),
      ]);
      await hub.whenIdle();
      assert.equal(hub.servers()[0]?.state.kind, 'running', JSON.stringify(hub.servers()[0]?.state));
      assert.equal(existsSync(ran), false, '~/.bashrc ran before the sandbox started');
      assert.match(await hub.registry.call('write', { path: join(folder, 'ok.txt'), text: 'x' }), /wrote/);
      // Inside the sandbox it could not leave its mark (the home is read-only there), but what it printed would show.
      assert.deepEqual(
        log.filter((l) => /hello from bashrc/.test(l)),
        [],
        'a shell in the sandbox ran ~/.bashrc',
      );
    } finally {
      await hub.closeAll();
    }
  });
});

describe("the reference servers in a sandbox with the defaults (a workspace's servers)", () => {
  let hub: ServerHub;
  const log: string[] = [];
  const logger = loggerInto(log);
  const fromRepo = <T extends ServerConfig>(c: T): T => ({ ...c, cwd: work, origin: '.vscode/mcp.json' });

  before(async () => {
    hub = new ServerHub({
      serverLogger: () => logger,
      sandbox: { ...rules(), fromWorkspace: (c) => c.origin === '.vscode/mcp.json' },
    });
    // server-memory writes memory.jsonl beside its own code unless told where: under npx that is the
    // server's own npm cache (writable); installed elsewhere, its folder is not, so it is pointed at its cwd.
    hub.reconcile([
      fromRepo(reference('filesystem', 'server-filesystem', [work])),
      fromRepo(reference('memory', 'server-memory', [], { MEMORY_FILE_PATH: join(work, 'memory.jsonl') })),
      fromRepo(reference('everything', 'server-everything')),
    ]);
    await hub.whenIdle();
  });

  after(async () => {
    await hub?.closeAll();
  });

  test('each starts sandboxed and answers its tools', async () => {
    for (const s of hub.servers()) {
      assert.equal(s.state.kind, 'running', `${s.name}: ${JSON.stringify(s.state)}\n${log.join('\n')}`);
      assert.equal(s.sandbox?.reason, 'workspace', `${s.name} runs in the workspace's sandbox`);
    }
    assert.match(
      await hub.registry.call('write_file', { path: join(work, 'hello.txt'), content: 'hi from a sandbox' }),
      /Successfully wrote/,
    );
    assert.equal(readFileSync(join(work, 'hello.txt'), 'utf8'), 'hi from a sandbox');
    assert.match(await hub.registry.call('list_directory', { path: work }), /hello\.txt/);
    await hub.registry.call('create_entities', {
      entities: [{ name: 'Ada', entityType: 'person', observations: ['wrote the first program'] }],
    });
    assert.match(await hub.registry.call('read_graph', {}), /first program/);
    assert.match(readFileSync(join(work, 'memory.jsonl'), 'utf8'), /Ada/);
    assert.match(await hub.registry.call('echo', { message: 'from the sandbox' }), /from the sandbox/);
  });
});
