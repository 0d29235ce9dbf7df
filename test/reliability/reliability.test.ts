// The reliability matrix: every fault injected for real, with what the user and the model see and
// proof that nothing was lost. Each passing case adds its row to docs/RELIABILITY.md.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { Agent } from '../../src/core/agent/agent';
import { FakeModel, type ScriptedTurn } from '../../src/core/agent/model';
import { describeProblem, DEFAULT_HUB_SETTINGS, parseServers, type HubSettings, type ServerConfig } from '../../src/core/mcp/config';
import { ServerHub } from '../../src/core/mcp/hub';
import { WIRE_NAME_PATTERN } from '../../src/core/mcp/naming';
import type { RestartPolicy } from '../../src/core/mcp/restart';
import { McpToolSource } from '../../src/core/mcp/source';
import { processTree } from '../../src/core/mcp/transport/processTree';
import { OpenAICompatibleModel } from '../../src/core/models/openai';
import { parseSettingsText } from '../../src/core/settingsFile';
import { fixture, freePort, httpMcpServer, isAlive, isStampAlive, ROOT, SERVERS, stampOf, stopFixtures, waitFor } from '../helpers';
import { record, writeMatrix } from './matrix';

const unhandled: unknown[] = [];
process.on('unhandledRejection', (r) => unhandled.push(r));
// A run filtered to some tests would write a partial table; only a whole run writes it.
const filtered = process.execArgv.some((a) => /^--test-(name|skip)-pattern|^--test-only/.test(a));
after(() => {
  if (!filtered) writeMatrix();
  assert.deepEqual(unhandled, [], 'no unhandled rejections in the whole matrix');
});

const bystander = () => fixture('research', 'research.mjs');
const faulty = (name: string, mode: string, env: Record<string, string> = {}) => fixture(name, 'faulty.mjs', [mode], { env });
const KEPT = 'the other server answered; the conversation went on to a final answer; no process left';

interface Run {
  hub: ServerHub;
  /** Every process seen in a running server's tree (as stampOf), for the no-leak check. */
  pids: Set<string>;
}

async function withHub(servers: ServerConfig[], fn: (run: Run) => Promise<void>, settings: Partial<HubSettings> = {}, restart?: RestartPolicy): Promise<void> {
  const hub = new ServerHub({ settings: { ...DEFAULT_HUB_SETTINGS, ...settings }, ...(restart ? { restart } : {}) });
  const pids = new Set<string>();
  const notes: Array<Promise<void>> = [];
  const note = () => {
    for (const s of hub.servers()) {
      if (s.state.kind !== 'running' || !s.state.pid) continue;
      notes.push(
        processTree(s.state.pid).then((tree) => {
          for (const p of tree) {
            const stamp = stampOf(p);
            if (stamp) pids.add(stamp);
          }
        }),
      );
    }
  };
  hub.onDidChangeServers(note);
  try {
    hub.reconcile(servers);
    await hub.whenIdle();
    note();
    await Promise.all(notes);
    await fn({ hub, pids });
  } finally {
    await Promise.all(notes);
    await hub.closeAll();
  }
  await waitFor(() => `every server process to end (still running: ${[...pids].filter(isStampAlive).join(', ')})`, () => [...pids].every((p) => !isStampAlive(p)), 5_000);
}

/** One agent turn whose model calls `wire` and then answers: what the model saw, and that the turn went on. */
async function turn(hub: ServerHub, wire: string, args: Record<string, unknown> | string = {}, signal?: AbortSignal) {
  const model = new FakeModel([{ toolCalls: [{ name: wire, arguments: args }] }, { final: 'carried on' }] as ScriptedTurn[]);
  const result = await new Agent(model, hub.registry).run('go', signal ? { signal } : {});
  const raw = result.steps[0]?.tool?.result ?? '';
  assert.equal(typeof raw, 'string');
  // Error results are JSON text; the matrix quotes the message the model reads.
  const modelSaw = raw.startsWith('{"error"') ? `{"error": "${(JSON.parse(raw) as { error: string }).error}"}` : raw;
  if (!signal?.aborted) assert.equal(result.final, 'carried on', 'the conversation went on after the failure');
  return { modelSaw, result };
}

async function bystanderAnswers(hub: ServerHub): Promise<void> {
  assert.equal(await hub.registry.call('echo', { text: 'still here' }), 'still here', 'the other server still answers');
}

const stateOf = (hub: ServerHub, name: string) => {
  const s = hub.server(name)!.state;
  return s.kind === 'error' ? `${name}: error: ${s.message}` : `${name}: ${s.kind}`;
};

describe('MCP servers (stdio)', () => {
  const area = 'MCP servers (stdio)';

  test('missing command', () =>
    withHub([bystander(), { ...faulty('tool', 'ok'), command: 'no-such-mcp-server' }], async ({ hub }) => {
      const user = stateOf(hub, 'tool');
      assert.match(user, /command not found: "no-such-mcp-server" \(spawn ENOENT; cwd .*; PATH=/);
      const { modelSaw } = await turn(hub, 'ok');
      assert.match(modelSaw, /unknown tool "ok"; available tools: echo, search_corpus, word_count/);
      await bystanderAnswers(hub);
      record({ area, fault: 'missing command (ENOENT)', user, model: modelSaw, kept: KEPT });
    }));

  test('exits at start', () =>
    withHub([bystander(), faulty('tool', 'exit-at-start')], async ({ hub }) => {
      const user = stateOf(hub, 'tool');
      assert.match(user, /exited with code 3 during startup; stderr: fatal: FIXTURE_API_KEY is not set/);
      const { modelSaw } = await turn(hub, 'ok');
      await bystanderAnswers(hub);
      record({ area, fault: 'exits at start', user, model: modelSaw, kept: KEPT });
    }));

  test('never answers initialize', () =>
    withHub([bystander()], async ({ hub }) => {
      // The bystander is up first: on a loaded machine a healthy server can take longer than the
      // short timeout this case needs, and the case is about the silent server, not about load.
      hub.reconcile([bystander(), faulty('tool', 'never-init')], [], { ...DEFAULT_HUB_SETTINGS, connectTimeoutMs: 700 });
      await hub.whenIdle();
      const user = stateOf(hub, 'tool');
      assert.match(user, /did not answer initialize within 700 ms/);
      const { modelSaw } = await turn(hub, 'ok');
      await bystanderAnswers(hub);
      record({ area, fault: 'never answers initialize (connect timeout 700 ms)', user, model: modelSaw, kept: `${KEPT}; the silent process was ended` });
    }));

  test('garbage on stdout', () =>
    withHub([bystander(), faulty('tool', 'garbage-stdout')], async ({ hub }) => {
      const { modelSaw } = await turn(hub, 'noisy');
      assert.equal(modelSaw, 'still fine');
      const tail = hub.server('tool')!.stderrTail;
      assert.match(tail, /\[stdout, not JSON-RPC\] debug: a stray print\(\)/);
      await bystanderAnswers(hub);
      record({ area, fault: 'garbage on stdout', user: `running; the stray lines are shown in the stderr tail and log: "${tail.split('\n')[0]}"`, model: modelSaw, kept: KEPT });
    }));

  test('stderr flood', () =>
    withHub([bystander(), faulty('tool', 'stderr-flood')], async ({ hub }) => {
      const { modelSaw } = await turn(hub, 'ok');
      assert.equal(modelSaw, 'ok');
      await waitFor('the last line', () => /19999 noise/.test(hub.server('tool')!.stderrTail));
      const size = hub.server('tool')!.stderrTail.length;
      assert.ok(size < 5_000);
      await bystanderAnswers(hub);
      record({ area, fault: 'stderr flood (20,000 lines, 6 MB)', user: `running; only the last lines are kept (${size} characters), all of it goes to the log`, model: modelSaw, kept: KEPT });
    }));

  test('crash mid-call', () =>
    withHub([bystander(), faulty('tool', 'crash-mid-call')], async ({ hub }) => {
      const started = Date.now();
      const { modelSaw } = await turn(hub, 'crash');
      const ms = Date.now() - started;
      assert.ok(ms < 10_000, `answered after ${ms} ms, not after the 60 s call timeout`);
      assert.match(modelSaw, /server process exited with code 7 during the call; stderr: about to crash/);
      await waitFor('error state', () => hub.server('tool')!.state.kind === 'error');
      await bystanderAnswers(hub);
      record({ area, fault: 'crash mid-call', user: stateOf(hub, 'tool'), model: `${modelSaw} (at once, not after the call timeout)`, kept: KEPT });
    }, {}, { delaysMs: [5_000], healthyAfterMs: 60_000 }));

  test('dies between calls, and comes back on its own', () =>
    withHub([bystander(), faulty('tool', 'ok')], async ({ hub }) => {
      const pid = hub.source('tool')!.pid!;
      process.kill(pid, 'SIGKILL');
      await waitFor('error state', () => hub.server('tool')!.state.kind === 'error');
      const user = stateOf(hub, 'tool');
      assert.match(user, /was killed by SIGKILL; restarting in 300 ms \(attempt 1 of 3\)/);
      const { modelSaw } = await turn(hub, 'ok');
      assert.match(modelSaw, /mcp server not connected: "tool" crashed and is restarting; try again shortly/);
      await waitFor('the server to come back', () => hub.server('tool')!.state.kind === 'running');
      assert.equal(await hub.registry.call('ok', {}), 'ok', 'its tools returned');
      await bystanderAnswers(hub);
      record({ area: 'Reconnect', fault: 'a server dies between calls (SIGKILL)', user, model: `while down: ${modelSaw}; after the restart: ok`, kept: `${KEPT}; it restarted by itself and its tools returned` });
    }, {}, { delaysMs: [300, 600, 1_200], healthyAfterMs: 60_000 }));

  test('keeps crashing: stops retrying and says so', () => {
    const state = join(mkdtempSync(join(tmpdir(), 'minagent-crash-')), 'starts');
    return withHub([bystander(), faulty('tool', 'crash-always', { FIXTURE_STATE_FILE: state, FIXTURE_CRASH_AFTER_MS: '150' })], async ({ hub }) => {
      await waitFor('giving up', () => /gave up/.test(stateOf(hub, 'tool')), 15_000);
      const user = stateOf(hub, 'tool');
      assert.match(user, /gave up after 3 automatic restarts; restart it when it is fixed/);
      assert.equal(readFileSync(state, 'utf8').trim().split('\n').length, 4, 'started once and restarted 3 times');
      const { modelSaw } = await turn(hub, 'ok');
      await bystanderAnswers(hub);
      record({ area: 'Reconnect', fault: 'a server that keeps crashing', user, model: modelSaw, kept: `${KEPT}; restarts stopped after 3 (bounded backoff 100, 200, 400 ms)` });
    }, {}, { delaysMs: [100, 200, 400], healthyAfterMs: 60_000 });
  });

  test('ignores SIGTERM, and spawns grandchildren', async () => {
    let pids: number[] = [];
    await withHub([bystander(), faulty('stubborn', 'ignore-sigterm'), faulty('parent', 'grandchild')], async ({ hub }) => {
      pids = [hub.source('stubborn')!.pid!, ...(JSON.parse(await hub.registry.call('parent.pids', {})) as { grandchildren: number[] }).grandchildren];
      await bystanderAnswers(hub);
    });
    assert.ok(pids.every((p) => !isAlive(p)));
    record({ area, fault: 'ignores SIGTERM (and stdin EOF)', user: 'stopped: escalated to SIGKILL after 500 ms', model: '(nothing: the server was being closed)', kept: 'no process left' });
    record({ area, fault: 'spawns grandchildren (one in its own process group)', user: 'stopped', model: '(nothing: the server was being closed)', kept: 'every grandchild ended with the server; no process left' });
  });

  test('tools/list_changed storm', () =>
    withHub([bystander(), faulty('dyn', 'list-changed')], async ({ hub }) => {
      let refreshes = 0;
      hub.source('dyn')!.onDidChangeTools(() => refreshes++);
      const { modelSaw } = await turn(hub, 'add_many', { count: 40 });
      await waitFor('40 tools', () => hub.registry.names().filter((n) => n.startsWith('storm_')).length === 40);
      assert.ok(refreshes <= 3);
      await bystanderAnswers(hub);
      record({ area, fault: 'tools/list_changed storm (40 notifications)', user: `the tree updated ${refreshes} time(s) (debounced 300 ms)`, model: `${modelSaw}; the next turn lists all 40 new tools`, kept: KEPT });
    }));

  test('invalid tool names, missing or invalid inputSchema', () =>
    withHub([bystander(), fixture('odd', 'lowlevel.mjs', ['bad-tools'])], async ({ hub }) => {
      const wire = hub.registry.schemas().map((s) => s.name);
      assert.ok(wire.every((w) => WIRE_NAME_PATTERN.test(w)));
      const problems = hub.problems();
      const { modelSaw } = await turn(hub, hub.registry.wireName('has space')!, { n: 1 });
      assert.equal(modelSaw, 'called has space with {"n":1}');
      await bystanderAnswers(hub);
      record({ area, fault: 'tool names with spaces, dots, non-ASCII, over 64 characters', user: `listed under their own names; sent as ${wire.filter((w) => w !== 'echo' && w !== 'search_corpus' && w !== 'word_count').slice(0, 4).join(', ')}…`, model: modelSaw, kept: KEPT });
      record({ area, fault: 'missing or invalid inputSchema; a name listed twice', user: [...problems.tools, ...problems.naming].map((p) => p.message).join('; '), model: 'the tool with an empty object schema: it takes no arguments', kept: `${KEPT}; the server's other tools kept` });
    }));

  test('duplicate names across three servers', () =>
    withHub([bystander(), fixture('analytics', 'analytics.mjs'), { ...bystander(), name: 'mirror' }], async ({ hub }) => {
      const echoes = hub.registry.names().filter((n) => n.endsWith('echo'));
      assert.deepEqual(echoes, ['echo', 'analytics.echo', 'mirror.echo']);
      const { modelSaw } = await turn(hub, 'mirror__echo', { text: 'third' });
      assert.equal(modelSaw, 'third');
      record({ area, fault: 'the same tool name on three servers', user: `all kept: ${echoes.join(', ')} (marked renamed in the tree)`, model: `sent as echo, analytics__echo, mirror__echo; a call to mirror__echo returned "${modelSaw}"`, kept: 'no tool lost or overwritten' });
    }));

  test('a 50 MB result', () =>
    withHub([bystander(), faulty('tool', 'huge')], async ({ hub }) => {
      const rss0 = process.memoryUsage().rss;
      let peak = rss0;
      const sample = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
      const { modelSaw } = await turn(hub, 'huge', { chars: 50 * 1024 * 1024 });
      clearInterval(sample);
      assert.equal(modelSaw.length, 50_000 + '\n…[truncated: 52378800 of 52428800 characters cut]'.length);
      const growthMb = Math.round((peak - rss0) / 1e6);
      assert.ok(growthMb < 1_000, `memory grew ${growthMb} MB`);
      await bystanderAnswers(hub);
      record({ area, fault: 'a 50 MB result', user: `the card shows the head and the note; host memory grew ${growthMb} MB at peak`, model: `50,000 characters, then "${modelSaw.slice(-48).trim()}"`, kept: KEPT });
    }, { maxOutputChars: 50_000 }));

  test('a slow tool past its timeout; a slow tool whose progress keeps it alive', () =>
    withHub([bystander(), faulty('tool', 'slow')], async ({ hub }) => {
      const silent = await turn(hub, 'slow', { ms: 1_500, silent: true });
      assert.equal(silent.modelSaw, '{"error": "timeout after 600 ms"}');
      const alive = await turn(hub, 'slow', { ms: 1_500 });
      assert.match(alive.modelSaw, /^done after \d+ ms$/);
      await bystanderAnswers(hub);
      record({ area, fault: 'a slow tool past its timeout (600 ms)', user: 'the card shows the error', model: silent.modelSaw, kept: `${KEPT}; the server keeps running` });
      record({ area, fault: 'a slow tool (1.5 s) whose progress keeps it alive past the 600 ms timeout', user: 'the card shows progress, then the result', model: alive.modelSaw, kept: KEPT });
    }, { callTimeoutMs: 600 }));

  test('a cancelled call', () => {
    const log = join(mkdtempSync(join(tmpdir(), 'minagent-cancel-')), 'cancel.log');
    return withHub([bystander(), faulty('tool', 'slow', { FIXTURE_CANCEL_LOG: log })], async ({ hub }) => {
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 300);
      const { modelSaw, result } = await turn(hub, 'slow', { ms: 10_000 }, controller.signal);
      assert.equal(modelSaw, '{"error": "cancelled"}');
      assert.equal(result.stopped, 'cancelled');
      await waitFor('the server to see the cancellation', () => {
        try {
          return /cancelled request/.test(readFileSync(log, 'utf8'));
        } catch {
          return false;
        }
      });
      assert.equal(await hub.registry.call('ok', {}), 'ok', 'the connection survives the cancel');
      await bystanderAnswers(hub);
      record({ area, fault: 'a cancelled call (Stop)', user: 'the card shows cancelled; the turn is marked stopped', model: modelSaw, kept: 'the server received notifications/cancelled and keeps running; the conversation is kept' });
    });
  });
});

describe('MCP servers (HTTP)', () => {
  const area = 'MCP servers (HTTP)';
  after(stopFixtures);
  const httpServer = httpMcpServer;
  const http = (url: string, headers: Record<string, string> = {}): ServerConfig => ({ name: 'remote', type: 'http', url, headers, autoApprove: [] });

  test('down', async () => {
    const port = await freePort();
    await withHub([bystander(), http(`http://127.0.0.1:${port}/mcp`)], async ({ hub }) => {
      const user = stateOf(hub, 'remote');
      assert.match(user, /cannot reach http:\/\/127\.0\.0\.1:\d+\/mcp: ECONNREFUSED/);
      const { modelSaw } = await turn(hub, 'echo', { text: 'x' });
      await bystanderAnswers(hub);
      record({ area, fault: 'server down (connection refused)', user, model: `its tools are absent; other tools work ("${modelSaw}")`, kept: KEPT });
    });
  });

  test('401 and 500', async () => {
    const url401 = await httpServer('--token', 'right');
    const url500 = await httpServer('--fail-status', '500');
    await withHub([bystander(), { ...http(url401, { Authorization: 'Bearer wrong' }), name: 'auth' }, { ...http(url500), name: 'broken' }], async ({ hub }) => {
      const u401 = stateOf(hub, 'auth');
      const u500 = stateOf(hub, 'broken');
      assert.match(u401, /HTTP 401 Unauthorized .*check the credentials in the entry's "headers"/);
      assert.match(u500, /HTTP 500 Internal Server Error/);
      await turn(hub, 'echo', { text: 'x' });
      await bystanderAnswers(hub);
      record({ area, fault: '401 Unauthorized', user: u401, model: 'its tools are absent', kept: KEPT });
      record({ area, fault: '500 Internal Server Error', user: u500, model: 'its tools are absent', kept: KEPT });
    });
  });

  test('a dropped stream mid-call', async () => {
    const url = await httpServer('--drop-calls');
    await withHub([bystander(), http(url)], async ({ hub }) => {
      const { modelSaw } = await turn(hub, 'echo__1', {});
      const dropped = await turn(hub, hub.registry.wireName('remote.echo')!, { text: 'x' });
      assert.match(dropped.modelSaw, /^\{"error": ".+"\}$/);
      await bystanderAnswers(hub);
      record({ area, fault: 'the connection drops while a call is in flight', user: stateOf(hub, 'remote'), model: dropped.modelSaw, kept: `${KEPT} (${modelSaw.length ? 'unknown names answered too' : ''})` });
    });
  });
});

describe('Models', () => {
  const area = 'Models (OpenAI-compatible wire format, local server)';
  async function mock(replies: Array<Record<string, unknown>>) {
    const { startMockModel } = (await import(join(ROOT, 'fixtures', 'models', 'mock-model.mjs'))) as { startMockModel: (o: object) => Promise<{ port: number; close(): Promise<void> }> };
    return startMockModel({ replies });
  }

  const cases: Array<[string, Array<Record<string, unknown>>, RegExp, string]> = [
    ['401 (bad key)', [{ status: 401, body: { error: { message: 'Incorrect API key provided' } } }], /HTTP 401, the API key was rejected: Incorrect API key provided/, '(nothing: the request failed)'],
    ['429 with retry-after 120 s', [{ status: 429, retryAfter: 120 }], /HTTP 429, rate limited; retry after 120 s/, '(nothing: the request failed; short waits are retried and shown)'],
    ['503', [{ status: 503 }], /HTTP 503, the server failed/, '(nothing: the request failed)'],
    ['a malformed stream', [{ text: 'partial', malformed: true }], /malformed stream: a chunk is not JSON/, '(nothing: the reply was discarded)'],
  ];
  for (const [fault, replies, shown, model] of cases) {
    test(fault, () =>
      withHub([bystander()], async ({ hub }) => {
        const m = await mock([...replies, { text: 'back to normal' }]);
        try {
          const llm = new OpenAICompatibleModel({ baseUrl: `http://127.0.0.1:${m.port}/v1`, model: 'mock' });
          const agent = new Agent(llm, hub.registry);
          const first = await agent.run('hello');
          const user = first.steps.at(-1)!.detail;
          assert.match(user, shown);
          const second = await agent.run('again', { history: first.messages });
          assert.equal(second.final, 'back to normal');
          assert.equal(second.messages[0]!.content, 'hello', 'the conversation was kept');
          record({ area, fault, user, model, kept: 'the conversation; the next turn worked' });
        } finally {
          await m.close();
        }
      }));
  }

  test('invalid tool-argument JSON, an unknown tool, a turn that never ends', () =>
    withHub([bystander()], async ({ hub }) => {
      const m = await mock([
        { toolCalls: [{ name: 'echo', arguments: '{"text": ' }, { name: 'no_such_tool', arguments: {} }] },
        { text: 'fixed it' },
        ...Array.from({ length: 5 }, () => ({ toolCalls: [{ name: 'echo', arguments: { text: 'again' } }] })),
      ]);
      try {
        const agent = new Agent(new OpenAICompatibleModel({ baseUrl: `http://127.0.0.1:${m.port}/v1`, model: 'mock' }), hub.registry, { maxSteps: 3 });
        const first = await agent.run('go');
        assert.equal(first.final, 'fixed it');
        const [badJson, unknown] = first.steps;
        assert.match(badJson!.tool!.result, /not valid JSON/);
        assert.match(unknown!.tool!.result, /unknown tool/);
        record({ area, fault: 'tool arguments that are not valid JSON', user: 'the card shows the error', model: badJson!.tool!.result, kept: 'the turn went on; the model answered' });
        record({ area, fault: 'a call to a tool that does not exist', user: 'the card shows the error', model: unknown!.tool!.result, kept: 'the turn went on; the model answered' });
        const loop = await agent.run('loop', { history: first.messages });
        assert.equal(loop.stopped, 'maxSteps');
        record({ area, fault: 'a turn that never ends', user: loop.steps.at(-1)!.detail, model: 'every tool result of the 3 turns', kept: 'the conversation and every tool call so far' });
      } finally {
        await m.close();
      }
    }));
});

describe('Settings', () => {
  const area = 'Settings';
  const good = { research: { command: process.execPath, args: [join(SERVERS, 'research.mjs')] } };
  const wrong: Record<string, unknown> = {
    type: 42,
    command: ['node'],
    args: 'server.js',
    env: { A: { nested: true } },
    envFile: false,
    cwd: 7,
    url: true,
    headers: ['Authorization'],
    namespace: 'has.dot',
    disabled: 'yes',
    timeout: '30s',
    autoApprove: 'all',
  };
  for (const [field, value] of Object.entries(wrong)) {
    test(`"${field}" with a wrong type`, () => {
      const parsed = parseServers({ ...good, bad: { command: 'node', [field]: value } }, { workspaceFolder: ROOT });
      const problem = parsed.problems.find((p) => p.server === 'bad' && p.severity === 'error');
      assert.ok(problem, `a problem for ${field}`);
      assert.equal(problem.field.split(/[.[]/)[0], field);
      assert.deepEqual(parsed.servers.map((s) => s.name), ['research']);
      record({ area, fault: `"${field}": ${JSON.stringify(value)}`, user: `a problem node: ${describeProblem(problem)}`, model: '(nothing from that entry)', kept: 'every other server starts' });
    });
  }

  test('unknown type, unresolved variable, invalid JSONC', () => {
    const unknownType = parseServers({ ...good, ws: { type: 'websocket', url: 'ws://x' } }, {}).problems[0]!;
    const unresolved = parseServers({ ...good, t: { command: 'node', env: { KEY: '${env:MINAGENT_SURELY_UNSET}' } } }, { env: {} }).problems[0]!;
    assert.equal(unknownType.field, 'type');
    assert.equal(unresolved.field, 'env.KEY');
    let jsoncError = '';
    try {
      parseSettingsText('{\n  "minagent.servers": { "a": { "command": "x" } \n', '.vscode/settings.json');
    } catch (err) {
      jsoncError = (err as Error).message;
    }
    assert.match(jsoncError, /^\.vscode\/settings\.json:3:1: invalid JSONC/);
    record({ area, fault: 'unknown "type"', user: describeProblem(unknownType), model: '(nothing from that entry)', kept: 'every other server starts' });
    record({ area, fault: 'unresolved ${env:...}', user: describeProblem(unresolved), model: '(nothing from that entry)', kept: 'every other server starts' });
    record({ area, fault: 'invalid JSONC in a config file', user: jsoncError, model: '(nothing from that file)', kept: 'the extension keeps the servers it had; the CLI exits with one line' });
  });
});

describe('Soak', () => {
  test('300 connect/close cycles and 5,000 calls against servers that die at random', async () => {
    const seen = new Set<string>();
    let cycles = 0;
    const worker = async () => {
      while (cycles < 300) {
        cycles++;
        const s = new McpToolSource(fixture(`c${cycles}`, 'research.mjs'));
        await s.connect();
        const stamp = stampOf(s.pid!);
        if (stamp) seen.add(stamp);
        assert.equal(await s.call('echo', { text: 'x' }), 'x');
        await s.close();
      }
    };
    await Promise.all(Array.from({ length: 4 }, worker));

    let answered = 0;
    let errors = 0;
    let nonStrings = 0;
    let comebacks = 0;
    const unexplained = new Set<string>();
    await withHub(
      Array.from({ length: 4 }, (_, i) => faulty(`flaky${i}`, 'random-death', { FIXTURE_DEATH_ODDS: '250' })),
      async ({ hub, pids }) => {
        const wasDown = new Set<string>();
        hub.onDidChangeServers(() => {
          for (const s of hub.servers()) {
            if (s.state.kind === 'error') wasDown.add(s.name);
            else if (s.state.kind === 'running' && wasDown.delete(s.name)) comebacks++;
          }
        });
        let next = 0;
        const caller = async () => {
          while (next < 5_000) {
            const n = next++;
            const r: unknown = await hub.registry.call(`flaky${n % 4}.maybe`, { n });
            if (typeof r !== 'string') nonStrings++;
            else if (r.startsWith('{"error"')) {
              errors++;
              // Every error says what happened to the server, never a bare pipe error or "not connected".
              if (!/exited with code 11|crashed and is restarting/.test(r)) unexplained.add(r);
              // A model reads "restarting; try again shortly" and takes a step before it calls again;
              // without that pause, 5,000 instant errors can all land inside one restart.
              await new Promise((resolve) => setTimeout(resolve, 20));
            } else answered++;
          }
        };
        await Promise.all(Array.from({ length: 16 }, caller));
        await waitFor('every server to be running again', () => hub.servers().every((s) => s.state.kind === 'running'), 10_000);
        for (const p of pids) seen.add(p);
      },
      { conflictPolicy: 'prefixAll' },
      { delaysMs: Array.from({ length: 1_000 }, () => 20), healthyAfterMs: 0 },
    );
    assert.equal(nonStrings, 0);
    assert.equal(answered + errors, 5_000);
    assert.deepEqual([...unexplained], [], 'errors that do not say the server died or is restarting');
    // How many calls land while a server is down depends on the machine's load; what must hold is
    // that every call got a string, servers came back, and nothing leaked.
    assert.ok(answered > 0 && comebacks > 0, `${answered} answered, ${comebacks} comebacks`);
    await waitFor(() => `every process ever started to be gone (still running: ${[...seen].filter(isStampAlive).join(', ')})`, () => [...seen].every((p) => !isStampAlive(p)), 10_000);
    assert.deepEqual(unhandled, []);
    record({
      area: 'Soak',
      fault: '300 connect/close cycles, then 5,000 calls (16 at a time) against 4 servers that die at random (1 call in 250)',
      user: `servers restarted by themselves whenever they died (${comebacks} comebacks)`,
      model: `every call answered with a string: ${answered} results, ${errors} {"error": ...} while a server was down`,
      kept: `zero unhandled rejections; zero of ${seen.size} processes left`,
    });
  });
});
