// `minagent chat` asks before a tool call that is not read-only: on a real terminal (a pty through
// util-linux `script`) it asks and obeys the answer; without one it denies unless told; it names
// the settings file it read.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { CLI, runCli, SERVERS } from '../helpers';

const work = mkdtempSync(join(tmpdir(), 'minagent-cli-approve-'));
after(() => rmSync(work, { recursive: true, force: true }));
mkdirSync(join(work, '.vscode'));
const settings = join(work, '.vscode', 'settings.json');
writeFileSync(
  settings,
  JSON.stringify({
    'minagent.servers': {
      research: { command: 'node', args: [`${SERVERS}/research.mjs`] },
      analytics: { command: 'node', args: [`${SERVERS}/analytics.mjs`] },
    },
  }),
);
// analytics.row_count is not read-only; search_corpus is.
const script = join(work, 'script.json');
writeFileSync(
  script,
  JSON.stringify([
    {
      toolCalls: [
        { name: 'analytics.row_count', arguments: { table: 'papers' } },
        { name: 'search_corpus', arguments: { query: 'mcp' } },
      ],
    },
    { final: 'done' },
  ]),
);
const DENIED = 'analytics.row_count -> {"error":"the user denied the call to \\"analytics.row_count\\""}';

const cli = (args: string[]) =>
  runCli(['--trust', 'chat', 'count the papers', '--script', script, ...args], { cwd: work });

/** Runs the chat on a pty; answers `answer` once the question appears. Output is the terminal's (stdout and stderr). */
function onTerminal(answer: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const command = [process.execPath, CLI, '--trust', 'chat', "'count the papers'", '--script', script].join(' ');
    const child = spawn('script', ['-qec', command, '/dev/null'], { cwd: work, stdio: ['pipe', 'pipe', 'inherit'] });
    let out = '';
    let answered = false;
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (!answered && out.includes('[a]ll for this run:')) {
        answered = true;
        child.stdin.write(`${answer}\n`);
      }
    });
    child.on('error', reject);
    child.on('exit', () => resolve(out));
  });
}

describe('minagent chat approvals', { timeout: 60_000 }, () => {
  test('without a terminal: a tool that is not read-only is denied and says how to allow it; read-only tools run; the settings file is named', () => {
    const { code, out, err } = cli([]);
    assert.equal(code, 0);
    assert.ok(out.includes(`[0] tool_call: ${DENIED}`), out);
    assert.match(out, /\[1\] tool_call: search_corpus -> mcp: MCP \(Model Context Protocol\)/);
    assert.match(
      err,
      /denied: analytics\.row_count on server "analytics" is not read-only; run on a terminal to be asked, or pass --yes \/ --approve all/,
    );
    assert.ok(err.includes(`settings: ${settings}`), err);
  });

  test('--yes and --approve all run it; --approve none runs nothing, read-only tools included', () => {
    for (const flags of [['--yes'], ['--approve', 'all']])
      assert.match(cli(flags).out, /^\[0\] tool_call: analytics\.row_count -> 128\n/, flags.join(' '));
    const none = cli(['--approve', 'none']);
    assert.ok(none.out.includes(`[0] tool_call: ${DENIED}`));
    assert.match(
      none.out,
      /\[1\] tool_call: search_corpus -> \{"error":"the user denied the call to \\"search_corpus\\""\}/,
    );
  });

  test('--approve readonly denies without asking; a bad --approve is one clear line', () => {
    assert.ok(cli(['--approve', 'readonly']).out.includes(DENIED));
    const bad = cli(['--approve', 'sometimes']);
    assert.equal(bad.code, 2);
    assert.match(bad.err, /^minagent: unknown --approve "sometimes"; use ask, all, readonly or none\n$/);
  });

  test('on a terminal it asks, naming the tool, server and arguments; "y" runs the call', async () => {
    const out = await onTerminal('y');
    assert.match(
      out,
      /Run analytics\.row_count on server "analytics" with \{"table":"papers"\}\? \[y\]es, \[n\]o, \[a\]ll for this run:/,
    );
    assert.match(out, /\[0\] tool_call: analytics\.row_count -> 128/);
    assert.equal((out.match(/\? \[y\]es/g) ?? []).length, 1, 'the read-only tool did not ask');
  });

  test('on a terminal, "n" denies the call', async () => {
    const out = await onTerminal('n');
    assert.ok(out.includes(DENIED), out);
    assert.match(out, /denied: analytics\.row_count on server "analytics"/);
  });
});
