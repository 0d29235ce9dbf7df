// The `minagent` CLI as a user runs it: the built bin, from another directory, on a settings file.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { CLI, listeningFixture, runCli, SERVERS } from '../helpers';

const work = mkdtempSync(join(tmpdir(), 'minagent-cli-'));
mkdirSync(join(work, '.vscode'));
const settings = join(work, '.vscode', 'settings.json');
writeFileSync(
  settings,
  `{
  // JSONC, as VS Code writes it
  "minagent.servers": {
    "research": { "command": "node", "args": ["${SERVERS}/research.mjs"] },
    "analytics": { "command": "node", "args": ["${SERVERS}/analytics.mjs"], },
    "broken": { "command": "node", "args": "not-a-list" },
    "crashy": { "command": "node", "args": ["${SERVERS}/faulty.mjs", "exit-at-start"] },
    "off": { "command": "node", "disabled": true }
  },
}`,
);
const script = join(work, 'script.json');
writeFileSync(
  script,
  JSON.stringify([
    { toolCalls: [{ name: 'search_corpus', arguments: { query: 'mcp' } }] },
    { final: 'MCP connects models to tools.' },
  ]),
);

const cli = (args: string[], cwd = work) => runCli(['--trust', ...args], { cwd });

/**
 * The CLI run without blocking this process (a model server this process runs answers it): its exit code
 * and what it printed to stdout. `--trust` comes first, as in `cli`.
 */
function cliAsync(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, '--trust', ...args], { cwd: work, env });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d));
    child.on('exit', (code) => resolve({ code, out }));
  });
}

/** `minagent chat TEXT` on the OpenAI-compatible mock model listening on `port`, with `more` arguments. */
const chatOnMock = (port: string, text: string, more: string[] = [], env?: NodeJS.ProcessEnv) =>
  cliAsync(
    ['chat', text, '--provider', 'openai', '--model', 'mock', '--base-url', `http://127.0.0.1:${port}/v1`, ...more],
    env,
  );

describe('minagent CLI', () => {
  test('servers: one line per server with state, tool count and the error', () => {
    const { code, out } = cli(['servers']);
    assert.equal(code, 0);
    const lines = out
      .trim()
      .split('\n')
      .map((l) => l.split('\t'));
    assert.deepEqual(
      lines.map((l) => l.slice(0, 3)),
      [
        ['research', 'running', '3 tools'],
        ['analytics', 'running', '2 tools'],
        ['crashy', 'error', '0 tools'],
        ['broken', 'error', '0 tools'],
        ['off', 'stopped', '0 tools'],
      ],
    );
    assert.match(lines[2]![3]!, /exited with code 3 during startup; stderr: fatal: FIXTURE_API_KEY is not set/);
    assert.match(lines[3]![3]!, /server "broken", field "args"/);
  });

  test('tools --json: stdout is only the JSON (the tools, and the servers that failed with their errors); logs go to stderr', () => {
    const { code, out, err } = cli(['tools', '--json']);
    assert.equal(code, 0, 'some servers run: the list is what they have');
    const json = JSON.parse(out) as {
      tools: Array<Record<string, string>>;
      failed: Array<{ server: string; error: string }>;
    };
    const rows = json.tools;
    assert.deepEqual(
      json.failed.map((f) => f.server),
      ['crashy', 'broken'],
    );
    assert.match(json.failed[0]!.error, /exited with code 3 during startup/);
    assert.match(err, /minagent: server "crashy" did not connect: .*exited with code 3/);
    assert.deepEqual(
      rows.map((r) => [r.name, r.wireName, r.server]),
      [
        ['echo', 'echo', 'research'],
        ['search_corpus', 'search_corpus', 'research'],
        ['word_count', 'word_count', 'research'],
        ['analytics.echo', 'analytics__echo', 'analytics'],
        ['analytics.row_count', 'analytics__row_count', 'analytics'],
      ],
    );
    assert.equal(rows[0]!.description, 'Echo the given text back unchanged.');
    assert.equal(
      (rows[0]!.parameters as unknown as { type: string }).type,
      'object',
      "each row carries the tool's parameter schema",
    );
    assert.match(err, /server "broken", field "args"/);
  });

  test("tools --search: each query's ranking in order (name, server, score); --json is the documented contract; bad flags exit 2", () => {
    const text = cli(['tools', '--search', 'how many rows in a table', '--search', 'echo', '--limit', '2']);
    assert.equal(text.code, 0);
    const blocks = text.out
      .trim()
      .split('\n\n')
      .map((b) => b.split('\n'));
    assert.deepEqual(
      blocks.map((b) => b[0]),
      ['# how many rows in a table', '# echo'],
      'one block per query, in the order asked',
    );
    assert.deepEqual(blocks[0]![1]!.split('\t').slice(0, 2), ['analytics.row_count', 'analytics']);
    assert.match(blocks[0]![1]!.split('\t')[2]!, /^\d+\.\d{3}$/, 'the score, three decimals');
    assert.deepEqual(
      blocks[1]!.slice(1).map((l) => l.split('\t')[0]),
      ['echo', 'analytics.echo'],
      'the exact name first, at most --limit rows',
    );
    const json = cli(['tools', '--search', 'count words', '--search', 'analytics', '--json']);
    assert.equal(json.code, 0);
    const parsed = JSON.parse(json.out) as Array<{
      query: string;
      tools: Array<{ name: string; server: string; score: number }>;
    }>;
    assert.deepEqual(
      parsed.map((r) => r.query),
      ['count words', 'analytics'],
    );
    assert.deepEqual(Object.keys(parsed[0]!.tools[0]!), ['name', 'server', 'score']);
    assert.equal(parsed[0]!.tools[0]!.name, 'word_count');
    assert.deepEqual(
      parsed[1]!.tools.map((t) => t.server),
      ['analytics', 'analytics'],
      'a query naming a server exactly: its tools first',
    );
    assert.deepEqual(
      JSON.parse(cli(['tools', '--search', 'echo', '--server', 'analytics', '--json']).out)[0].tools.map(
        (t: { name: string }) => t.name,
      ),
      ['analytics.echo'],
    );
    for (const [args, why] of [
      [['tools', '--search', 'x', '--limit', '0'], /--limit must be a whole number from 1 to 100, not "0"/],
      [['tools', '--limit', '3'], /--limit goes with --search/],
      [['tools', '--search', '  '], /--search needs words/],
      [
        ['tools', '--search', 'x', '--server', 'nope'],
        /no server is named "nope"; servers: research, analytics, crashy/,
      ],
    ] as const) {
      const r = cli([...args]);
      assert.equal(r.code, 2, args.join(' '));
      assert.match(r.err, why);
    }
  });

  test('call prints the result exactly; remote errors are {"error"} with a non-zero exit', () => {
    assert.deepEqual(cli(['call', 'analytics.row_count', '{"table":"papers"}']), {
      code: 0,
      out: '128\n',
      err: cli(['call', 'analytics.row_count', '{"table":"papers"}']).err,
    });
    const bad = cli(['call', 'analytics.row_count', '{"table":"nope"}']);
    assert.equal(bad.out, '{"error":"unknown table: nope"}\n');
    assert.equal(bad.code, 1);
    const wire = cli(['call', 'analytics__echo', '{"text":"via wire name"}']);
    assert.equal(wire.out, '[analytics] via wire name\n');
  });

  test('chat runs one scripted agent turn and prints the steps as the seed does', () => {
    const { code, out } = cli(['chat', 'what is MCP?', '--script', script]);
    assert.equal(code, 0);
    assert.match(out, /^\[0\] tool_call: search_corpus -> mcp: MCP \(Model Context Protocol\) is an open protocol/);
    assert.match(out, /\n\[1\] final: MCP connects models to tools\.\n$/);
  });

  for (const provider of ['openai', 'anthropic'] as const) {
    test(`chat --provider ${provider} runs a real wire-format turn against a local model server`, async () => {
      const { port, child: mock } = await listeningFixture('fixtures/models/mock-model.mjs');
      try {
        const baseUrl = provider === 'openai' ? `http://127.0.0.1:${port}/v1` : `http://127.0.0.1:${port}`;
        const r = await cliAsync(
          ['chat', 'What is MCP?', '--provider', provider, '--model', 'mock', '--base-url', baseUrl],
          { ...process.env, OPENAI_API_KEY: 'k', ANTHROPIC_API_KEY: 'k' },
        );
        assert.equal(r.code, 0);
        assert.match(r.out, /^\[0\] tool_call: search_corpus -> mcp: MCP \(Model Context Protocol\)/);
        assert.match(r.out, /\[1\] final: Here is what the tool returned:/);
      } finally {
        mock.stdin!.end();
      }
    });
  }

  test("the demo's model does what a starter suggestion says: the tool it names, with its required arguments made up", async () => {
    const { port, child: mock } = await listeningFixture('fixtures/models/mock-model.mjs');
    try {
      // As the chat's welcome writes it (src/core/chat/examples.ts), finished by the user.
      const r = await chatOnMock(port, 'Use word_count to count the words of a sentence', [], {
        ...process.env,
        OPENAI_API_KEY: 'k',
      });
      assert.equal(r.code, 0, r.out);
      assert.match(r.out, /^\[0\] tool_call: word_count -> 2\n/, 'word_count of "demo text"');
    } finally {
      mock.stdin!.end();
    }
  });

  test('chat --context-window: a request over the window is not sent, and says why', async () => {
    const { port, child: mock } = await listeningFixture('fixtures/models/mock-model.mjs');
    try {
      const r = await chatOnMock(port, 'What is MCP? '.repeat(200), ['--context-window', '1000']);
      assert.notEqual(r.code, 0);
      assert.match(
        r.out,
        /error: not sent: this request needs about \d+ tokens, but the model's window allows 750 \(1000 less 250 kept for the answer; minagent.chat.contextWindow\)/,
      );
      const sent = (await (await fetch(`http://127.0.0.1:${port}/requests`)).json()) as unknown[];
      assert.equal(sent.length, 0, 'nothing reached the model');
    } finally {
      mock.stdin!.end();
    }
  });

  test('runs from any directory with --settings', () => {
    const { code, out } = cli(['call', 'echo', '{"text":"from /"}', '--settings', settings], '/');
    assert.equal(code, 0);
    assert.equal(out, 'from /\n');
  });

  test('bad input: one line on stderr and a non-zero exit', () => {
    const cases: Array<[string[], RegExp]> = [
      [['call', 'nope'], /^minagent: unknown tool "nope"; available tools: echo, /],
      [['call', 'echo', '{bad'], /^minagent: arguments are not valid JSON/],
      [['servers', '--settings', join(work, 'missing.json')], /^minagent: settings file not found: /],
      [['frobnicate'], /^minagent: unknown command "frobnicate"/],
      [['chat', 'hi'], /^minagent: chat needs --script FILE .* or --provider openai\|anthropic/],
      [['chat', 'hi', '--provider', 'gemini'], /^minagent: unknown provider "gemini"/],
      [
        ['chat', 'hi', '--provider', 'openai', '--model', 'm', '--context-window', 'big'],
        /^minagent: --context-window "big" must be a whole number of tokens/,
      ],
      [['chat', 'hi', '--provider', 'openai'], /^minagent: --provider openai needs --model NAME/],
      [
        ['chat', 'hi', '--provider', 'anthropic', '--model', 'm', '--send-images'],
        /^minagent: --send-images is for --provider openai/,
      ],
    ];
    for (const [args, message] of cases) {
      const r = cli(args);
      assert.notEqual(r.code, 0, args.join(' '));
      const lines = r.err
        .trim()
        .split('\n')
        .filter((l) => l.startsWith('minagent:'));
      assert.equal(lines.length, 1, 'one line');
      assert.match(lines[0]!, message);
    }
    const badJsonc = join(work, 'bad.json');
    writeFileSync(badJsonc, '{ "minagent.servers": { ');
    const r = cli(['servers', '--settings', badJsonc]);
    assert.equal(r.code, 1);
    assert.match(r.err, /^minagent: .*bad\.json:1:\d+: invalid JSONC \(\w+\)\n$/);
  });
});
