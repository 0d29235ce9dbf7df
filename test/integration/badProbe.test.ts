// A server that answers the 2026-07-28 era probe (`server/discover`) badly still connects: any answer
// that is not a valid 2026-07-28 reply (4xx, 5xx, a JSON-RPC error, an HTML page, a closed connection,
// no answer within the probe bound) means the 2025 handshake, tried once (over stdio on the same process)
// and logged on the server's log. A server that is down, or fails the handshake too, is still a failure.
import assert from 'node:assert/strict';
import { spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { DEFAULT_HUB_SETTINGS } from '../../src/core/mcp/config/hubSettings';
import type { ServerConfig } from '../../src/core/mcp/config/serverConfig';
import { ServerHub } from '../../src/core/mcp/hub/serverHub';
import { fixture, freePort, httpConfig, httpFixtureWithMethods, loggerInto, ROOT, waitFor } from '../helpers';

/**
 * The probe bound in these tests; the connect limit is far above it, so a probe that waits for the connect limit
 * fails the test. 3 s: at 1 s a fresh run of the suite (the e2e tools installing beside it) saw the HTTP 400 answer
 * come after the bound, and the probe reported a silence instead.
 */
const PROBE_MS = 3_000;
const CONNECT_MS = 20_000;
const children: ChildProcess[] = [];
after(() => children.forEach((c) => c.stdin?.end()));

/** Starts fixtures/servers/badProbe.mjs over HTTP; `methods` collects "<HTTP method> <JSON-RPC method>" per request. */
async function httpFixture(file: string, args: string[]): Promise<{ url: string; methods: string[] }> {
  const { url, methods, child } = await httpFixtureWithMethods(file, args);
  children.push(child);
  return { url, methods };
}

/** Connects `config` alone in a hub with a short probe bound; returns the hub and the lines of the server's own log. */
async function connect(config: ServerConfig): Promise<{ hub: ServerHub; log: string[] }> {
  const log: string[] = [];
  const logger = loggerInto(log);
  const hub = new ServerHub({
    settings: { ...DEFAULT_HUB_SETTINGS, connectTimeoutMs: CONNECT_MS, probeTimeoutMs: PROBE_MS },
    serverLogger: () => logger,
  });
  hub.reconcile([config]);
  await hub.whenIdle();
  return { hub, log };
}

const fallbackLines = (log: string[]) => log.filter((l) => /server\/discover/.test(l) && /2025 handshake/.test(l));

/** What the log line names for each bad answer. */
const HTTP_CASES: Array<[kind: string, got: RegExp]> = [
  ['400', /answered HTTP 400.*Error in httpTransport: 400/],
  ['404', /answered HTTP 404.*Error in httpTransport: 404/],
  ['500', /answered HTTP 500.*Error in httpTransport: 500/],
  ['rpc-error', /answered a JSON-RPC error -32603 \(Internal error: discover is broken\)/],
  ['html', /answered something that is not a 2026-07-28 reply.*text\/html/],
  ['reset', /closed the connection/],
  ['hang', new RegExp(`did not answer within ${PROBE_MS} ms`)],
];

// On stdio the handshake follows on the same process: a line that is not JSON-RPC is no answer
// (it is logged as such), so the probe waits out its bound.
const STDIO_CASES: Array<[kind: string, got: RegExp]> = [
  ['rpc-error', /answered a JSON-RPC error -32603 \(Internal error: discover is broken\)/],
  ['garbage', new RegExp(`did not answer within ${PROBE_MS} ms`)],
  ['hang', new RegExp(`did not answer within ${PROBE_MS} ms`)],
];

describe('a bad answer to the era probe falls back to the 2025 handshake', { timeout: 120_000 }, () => {
  for (const [kind, got] of HTTP_CASES) {
    test(`over HTTP: ${kind}`, { timeout: 20_000 }, async () => {
      const { url, methods } = await httpFixture('badProbe.mjs', ['--http', '--probe', kind]);
      const { hub, log } = await connect(httpConfig('bad', url));
      try {
        const state = hub.server('bad')!.state;
        assert.equal(state.kind, 'running', JSON.stringify(state));
        assert.equal(state.kind === 'running' && state.protocolVersion, '2025-06-18');
        assert.deepEqual(hub.registry.names(), ['legacy_echo']);
        assert.equal(await hub.registry.call('legacy_echo', { text: kind }), `[2025-06-18] ${kind}`);
        // One probe, then the handshake on Streamable HTTP (the old SSE transport would open with a GET).
        assert.deepEqual(methods.slice(0, 2), ['POST server/discover', 'POST initialize'], methods.join('\n'));
        assert.equal(methods.filter((m) => m === 'POST server/discover').length, 1, methods.join('\n'));
        const lines = fallbackLines(log);
        assert.equal(lines.length, 1, log.join('\n'));
        assert.match(lines[0]!, got);
      } finally {
        await hub.closeAll();
      }
    });
  }

  for (const [kind, got] of STDIO_CASES) {
    test(`over stdio: ${kind}`, { timeout: 20_000 }, async () => {
      const { hub, log } = await connect(fixture('bad', 'badProbe.mjs', ['--probe', kind]));
      try {
        const info = hub.server('bad')!;
        assert.equal(info.state.kind, 'running', JSON.stringify(info.state));
        assert.equal(info.state.kind === 'running' && info.state.protocolVersion, '2025-06-18');
        assert.deepEqual(hub.registry.names(), ['legacy_echo']);
        assert.equal(await hub.registry.call('legacy_echo', { text: kind }), `[2025-06-18] ${kind}`);
        const lines = fallbackLines(log);
        assert.equal(lines.length, 1, log.join('\n'));
        assert.match(lines[0]!, got);
        if (kind === 'garbage')
          assert.ok(
            log.some((l) =>
              /^warn ignored a stdout line that is not JSON-RPC: <html><body>500 Internal Server Error/.test(l),
            ),
            log.join('\n'),
          );
        // One process: the probe and the handshake on the same stdin.
        assert.deepEqual(
          hub
            .server('bad')!
            .stderrTail.split('\n')
            .filter((l) => l.startsWith('got '))
            .slice(0, 3),
          ['got server/discover', 'got initialize', 'got notifications/initialized'],
        );
      } finally {
        await hub.closeAll();
      }
    });
  }

  test('a server that fails the handshake too is a failure that names both answers, after one try of each', {
    timeout: 20_000,
  }, async () => {
    const { url, methods } = await httpFixture('badProbe.mjs', ['--http', '--probe', '500', '--fail-handshake']);
    const { hub, log } = await connect(httpConfig('broken', url));
    try {
      const state = hub.server('broken')!.state;
      assert.equal(state.kind, 'error');
      assert.match(
        state.kind === 'error' ? state.message : '',
        /^server\/discover answered HTTP 500 .*Error in httpTransport: 500; initialize: HTTP 500 .*initialize is broken too$/,
      );
      // The fixture's stderr may still be on its way.
      await waitFor("both requests on the server's log", () => methods.length >= 2 || undefined);
      assert.deepEqual(methods, ['POST server/discover', 'POST initialize']);
      assert.equal(fallbackLines(log).length, 1, log.join('\n'));
    } finally {
      await hub.closeAll();
    }
  });

  test('a server that is down (connection refused) fails at once: no second try, no wait', {
    timeout: 20_000,
  }, async () => {
    const url = `http://127.0.0.1:${await freePort()}/mcp`;
    const started = Date.now();
    const { hub, log } = await connect(httpConfig('gone', url));
    try {
      const state = hub.server('gone')!.state;
      assert.equal(state.kind, 'error');
      assert.match(state.kind === 'error' ? state.message : '', /cannot reach .*ECONNREFUSED/);
      assert.ok(Date.now() - started < PROBE_MS, `took ${Date.now() - started} ms`);
      assert.deepEqual(fallbackLines(log), []);
    } finally {
      await hub.closeAll();
    }
  });

  test('the CLI: `minagent servers` and `tools` connect the server that answers the probe with HTTP 500', {
    timeout: 30_000,
  }, async () => {
    const { url } = await httpFixture('badProbe.mjs', ['--http', '--probe', '500']);
    const work = mkdtempSync(join(tmpdir(), 'minagent-badprobe-'));
    mkdirSync(join(work, '.vscode'));
    writeFileSync(
      join(work, '.vscode', 'settings.json'),
      JSON.stringify({ 'minagent.servers': { git: { type: 'http', url } } }),
    );
    const cli = (...args: string[]) =>
      spawnSync(process.execPath, [join(ROOT, 'dist', 'cli.js'), '--trust', ...args], {
        cwd: work,
        encoding: 'utf8',
        timeout: 20_000,
      });
    const servers = cli('servers', '--verbose');
    assert.equal(servers.status, 0, servers.stderr);
    assert.match(servers.stdout, /^git\trunning\t1 tools?/m);
    assert.match(servers.stderr, /server\/discover answered HTTP 500.*; trying the 2025 handshake/);
    const tools = cli('tools', '--json');
    assert.equal(tools.status, 0, tools.stderr);
    assert.deepEqual(
      (JSON.parse(tools.stdout) as { tools: Array<{ name: string }> }).tools.map((t) => t.name),
      ['legacy_echo'],
    );
  });
});
