// Both protocol eras: a server that speaks only 2026-07-28 and one that speaks only 2025-06-18, over
// stdio and Streamable HTTP, side by side in one hub; legacy stdio servers that are silent to the
// era probe or exit on it; no SSE fallback for a server that refuses only the era we offered.
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { DEFAULT_HUB_SETTINGS } from '../../src/core/mcp/config/hubSettings';
import { ServerHub } from '../../src/core/mcp/hub/serverHub';
import { EraMemory } from '../../src/core/mcp/connection/eraMemory';
import { McpToolSource } from '../../src/core/mcp/connection/source';
import { fixture, httpConfig, httpFixtureWithMethods, isAlive, waitFor } from '../helpers';

/** Long enough that a probe waiting for its timeout would fail the test by the test's own timeout. */
const NEVER = 10 * 60_000;
const children: ChildProcess[] = [];
after(() => children.forEach((c) => c.stdin?.end()));

/**
 * Starts fixtures/servers/modern-only.mjs over HTTP; `methods` collects "<HTTP method> <JSON-RPC method>" per request.
 */
async function modernHttp(...args: string[]): Promise<{ url: string; methods: string[] }> {
  const { url, methods, child } = await httpFixtureWithMethods('modern-only.mjs', ['--http', ...args]);
  children.push(child);
  return { url, methods };
}

describe('protocol eras', { timeout: 60_000 }, () => {
  test('a 2026-07-28-only and a 2025-06-18-only server side by side in one hub: both connect, list and call', {
    timeout: 30_000,
  }, async () => {
    const hub = new ServerHub({ settings: { ...DEFAULT_HUB_SETTINGS, connectTimeoutMs: NEVER } });
    try {
      const { url } = await modernHttp();
      hub.reconcile([
        fixture('modern', 'modern-only.mjs'),
        fixture('legacy', 'legacy-only.mjs', ['--unknown', 'silent']),
        httpConfig('modernHttp', url),
      ]);
      await hub.whenIdle();
      const states = Object.fromEntries(hub.servers().map((s) => [s.name, s.state]));
      for (const name of ['modern', 'legacy', 'modernHttp'])
        assert.equal(states[name]!.kind, 'running', `${name}: ${JSON.stringify(states[name])}`);
      const version = (name: string) => {
        const state = states[name]!;
        return state.kind === 'running' ? state.protocolVersion : undefined;
      };
      assert.equal(version('modern'), '2026-07-28');
      assert.equal(version('legacy'), '2025-06-18');
      assert.equal(version('modernHttp'), '2026-07-28');
      // Both servers' tools are in the one registry; the HTTP twin's clashing names are prefixed.
      assert.deepEqual(hub.registry.names().sort(), [
        'legacy_echo',
        'modernHttp.modern_echo',
        'modernHttp.modern_steps',
        'modern_echo',
        'modern_steps',
      ]);
      assert.equal(await hub.registry.call('modern_echo', { text: 'hi' }), '[2026-07-28] hi');
      assert.equal(await hub.registry.call('legacy_echo', { text: 'hi' }), '[2025-06-18] hi');
      assert.equal(await hub.registry.call('modernHttp.modern_echo', { text: 'hi' }), '[2026-07-28] hi');
      // Progress reaches the caller in the stateless era too.
      const progress: number[] = [];
      const done = await hub.registry.call(
        'modern_steps',
        { steps: 3 },
        { onProgress: (p) => progress.push(p.progress) },
      );
      assert.equal(done, '3 steps done');
      assert.equal(
        progress[0],
        1,
        'the first report at once (the rest, as fast, are paced: src/core/mcp/tools/progressPace.ts)',
      );
      // The modern server's instructions come from server/discover, the legacy one's from initialize;
      // both reach the model's system prompt, each under its server's name.
      const instructions = hub.catalog.instructions();
      assert.match(instructions, /<server-instructions server="modern">\nThe modern server\.\n/);
      assert.match(instructions, /<server-instructions server="legacy">\nThe legacy server\.\n/);
    } finally {
      await hub.closeAll();
    }
  });

  const methods = (source: McpToolSource) => source.stderrTail.split('\n').filter((l) => l.startsWith('got '));
  const pids = (file: string) => readFileSync(file, 'utf8').split('\n').filter(Boolean).map(Number);
  const ranFile = () => join(mkdtempSync(join(tmpdir(), 'minagent-eras-')), 'ran');

  for (const unknown of ['error', 'silent']) {
    test(`a 2025-06-18 stdio server that ${unknown === 'error' ? 'answers "method not found" to' : 'is silent to'} the era probe is started once: the handshake follows on the same process`, {
      timeout: 20_000,
    }, async () => {
      const ran = ranFile();
      const source = new McpToolSource(
        fixture('legacy', 'legacy-only.mjs', ['--unknown', unknown], { env: { LEGACY_PID_FILE: ran } }),
        { connectTimeoutMs: NEVER, probeTimeoutMs: 1_000, eras: new EraMemory() },
      );
      try {
        await source.connect();
        assert.equal(source.state.kind === 'running' && source.state.protocolVersion, '2025-06-18');
        assert.equal(await source.call('legacy_echo', { text: 'x' }), '[2025-06-18] x');
        await waitFor("the methods on the server's log", () => methods(source).length >= 4 || undefined);
        assert.deepEqual(methods(source).slice(0, 4), [
          'got server/discover',
          'got initialize',
          'got notifications/initialized',
          'got tools/list',
        ]);
        assert.deepEqual(pids(ran), [source.pid], "one process, the session's");
      } finally {
        await source.close();
      }
    });
  }

  test('a 2025-06-18 stdio server that exits on the probe is started once more for the handshake, and never probed again', {
    timeout: 20_000,
  }, async () => {
    const ran = ranFile();
    const eras = new EraMemory();
    const config = fixture('legacy', 'legacy-only.mjs', ['--unknown', 'exit'], { env: { LEGACY_PID_FILE: ran } });
    for (const starts of [2, 3]) {
      const source = new McpToolSource(config, { connectTimeoutMs: NEVER, eras });
      try {
        await source.connect();
        assert.equal(source.state.kind === 'running' && source.state.protocolVersion, '2025-06-18');
        // The stderr tail is the session process's (the log keeps the first one's too).
        const expected = ['got initialize', 'got notifications/initialized'];
        // Stderr and stdout are separate pipes: the last line may still be on its way.
        await waitFor("the methods on the server's log", () => methods(source).length >= expected.length || undefined);
        assert.deepEqual(methods(source).slice(0, expected.length), expected);
        assert.equal(
          pids(ran).length,
          starts,
          starts === 2
            ? 'the process that ended on the probe, then the session'
            : 'the restart went straight to initialize',
        );
        assert.equal(source.pid, pids(ran).at(-1));
        for (const pid of pids(ran).slice(0, -1)) assert.ok(!isAlive(pid), `process ${pid} was ended`);
      } finally {
        await source.close();
      }
    }
  });

  test('closing a server while it is probed ends its one process', { timeout: 20_000 }, async () => {
    // A hung server (no answer to anything).
    const ran = ranFile();
    const hung = new McpToolSource(
      fixture('hung', 'legacy-only.mjs', ['--unknown', 'mute'], { env: { LEGACY_PID_FILE: ran } }),
      { connectTimeoutMs: NEVER, eras: new EraMemory() },
    );
    const running = hung.connect();
    const [probing] = await waitFor('the server to start', () => {
      try {
        return pids(ran).length ? pids(ran) : undefined;
      } catch {
        return undefined;
      }
    });
    await hung.close();
    await assert.rejects(running, /closed while starting/);
    assert.ok(!isAlive(probing!), 'the server closed while probed was ended');
    assert.equal(pids(ran).length, 1, 'no second start');
  });

  test('a restart of the same program reuses its era: no second probe, and a changed entry is probed afresh', {
    timeout: 20_000,
  }, async () => {
    const ran = ranFile();
    const eras = new EraMemory();
    const config = fixture('again', 'legacy-only.mjs', ['--unknown', 'error'], { env: { LEGACY_PID_FILE: ran } });
    const changed = fixture('again', 'legacy-only.mjs', ['--unknown', 'error', '--changed'], {
      env: { LEGACY_PID_FILE: ran },
    });
    const firsts: string[] = [];
    for (const entry of [config, config, changed]) {
      const source = new McpToolSource(entry, { connectTimeoutMs: NEVER, eras });
      await source.connect();
      assert.equal(source.state.kind === 'running' && source.state.protocolVersion, '2025-06-18');
      firsts.push(methods(source)[0]!);
      await source.close();
    }
    assert.deepEqual(firsts, ['got server/discover', 'got initialize', 'got server/discover']);
    assert.equal(pids(ran).length, 3, 'one process per session');
  });

  test('a server remembered as a 2025 one and upgraded since (it refuses initialize) is probed afresh, stdio and HTTP', {
    timeout: 30_000,
  }, async () => {
    // Every key's stored verdict: a 2025 server, seen an hour ago (a port reused, a program upgraded in place).
    const stored = new Map<string, string>();
    const store = {
      get: async (key: string) => stored.get(key) ?? JSON.stringify({ era: 'legacy', at: Date.now() - 3_600_000 }),
      store: async (key: string, value: string) => void stored.set(key, value),
      delete: async (key: string) => void stored.set(key, JSON.stringify({ era: 'gone' })),
    };
    const eras = new EraMemory(store);
    const { url, methods: httpMethods } = await modernHttp();
    for (const config of [fixture('upgraded', 'modern-only.mjs'), httpConfig('upgradedHttp', url)]) {
      const source = new McpToolSource(config, { connectTimeoutMs: NEVER, eras });
      try {
        await source.connect();
        assert.equal(source.state.kind === 'running' && source.state.protocolVersion, '2026-07-28', config.name);
        assert.equal(await source.call('modern_echo', { text: 'x' }), '[2026-07-28] x');
      } finally {
        await source.close();
      }
    }
    assert.deepEqual(httpMethods.slice(0, 2), ['POST initialize', 'POST server/discover'], httpMethods.join('\n'));
    const verdicts = [...stored.values()].map((v) => JSON.parse(v).era);
    assert.deepEqual(verdicts, ['modern', 'modern'], 'each server is now remembered in its era');
  });

  test('a 2026-07-28 stdio server is started once and spoken to in its era', { timeout: 20_000 }, async () => {
    const source = new McpToolSource(fixture('modern', 'modern-only.mjs'), {
      connectTimeoutMs: NEVER,
      eras: new EraMemory(),
    });
    try {
      await source.connect();
      assert.equal(source.state.kind === 'running' && source.state.protocolVersion, '2026-07-28');
      assert.equal(await source.call('modern_echo', { text: 'x' }), '[2026-07-28] x');
    } finally {
      await source.close();
    }
  });

  test('over HTTP a 2026-07-28-only server is spoken to in its era: server/discover, no initialize, no SSE', {
    timeout: 20_000,
  }, async () => {
    const { url, methods } = await modernHttp();
    const source = new McpToolSource(httpConfig('modern', url), { connectTimeoutMs: NEVER });
    try {
      await source.connect();
      assert.equal(source.state.kind === 'running' && source.state.protocolVersion, '2026-07-28');
      assert.equal(await source.call('modern_echo', { text: 'over http' }), '[2026-07-28] over http');
      assert.equal(methods[0], 'POST server/discover');
      assert.ok(!methods.some((m) => m.endsWith(' initialize')), methods.join('\n'));
    } finally {
      await source.close();
    }
  });

  test('a server that refuses only our era gets no SSE fallback, and the error names the versions it speaks', {
    timeout: 20_000,
  }, async () => {
    const { url, methods } = await modernHttp('--future');
    const source = new McpToolSource(httpConfig('future', url), { connectTimeoutMs: NEVER });
    await assert.rejects(
      source.connect(),
      /server "future": the server speaks only protocol 2099-01-01, which MinAgent does not/,
    );
    assert.equal(source.state.kind, 'error');
    // The SSE transport opens with a GET; none came before a marker sent after the failure.
    await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'marker' }),
    });
    await waitFor('the marker to reach the server', () => methods.includes('POST marker'));
    assert.deepEqual(methods, ['POST server/discover', 'POST initialize', 'POST marker']);
    await source.close();
  });
});
