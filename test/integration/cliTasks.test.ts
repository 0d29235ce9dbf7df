// `minagent call` and a tool that becomes a task (io.modelcontextprotocol/tasks): the call waits for the task's
// outcome; on Ctrl+C it says where the task stood and asks its server to cancel it before the servers close.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { CLI, runCli, SERVERS, waitFor } from '../helpers';

const work = mkdtempSync(join(tmpdir(), 'minagent-cli-tasks-'));
after(() => rmSync(work, { recursive: true, force: true }));
const log = join(work, 'tasker.log');
mkdirSync(join(work, '.vscode'));
writeFileSync(
  join(work, '.vscode', 'settings.json'),
  JSON.stringify({
    'minagent.servers': {
      tasker: { command: 'node', args: [`${SERVERS}/tasker.mjs`], env: { TASKER_LOG: log, TASKER_POLL_MS: '100' } },
    },
  }),
);
const env = { ...process.env, XDG_CONFIG_HOME: join(work, 'config') };

describe('minagent call and tasks', { timeout: 60_000 }, () => {
  test('a call that becomes a task waits for its outcome', () => {
    const { out, code } = runCli(['--trust', 'call', 'build', '{"ms": 500, "steps": 2}'], { cwd: work, env });
    assert.equal(out.trim(), 'built in 0.5 s');
    assert.equal(code, 0);
  });

  test('Ctrl+C: where the task stood, and its server asked to cancel it, before the servers close', async () => {
    const child = spawn(process.execPath, [CLI, '--trust', 'call', 'build', '{"ms": 60000, "steps": 10}'], {
      cwd: work,
      env,
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += String(d)));
    child.stderr.on('data', (d: Buffer) => (err += String(d)));
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    const polls = () =>
      readFileSync(log, 'utf8')
        .split('\n')
        .filter((l) => l === 'got tasks/get').length;
    const before = polls();
    await waitFor('the task polled', () => polls() - before >= 2, 20_000);
    child.kill('SIGINT');
    assert.equal(await exited, 130);
    assert.equal(out.trim(), '{"error":"cancelled"}');
    assert.match(err, /stopped while running as a task: step 1 of 10; the server was asked to cancel the task/);
    assert.match(readFileSync(log, 'utf8'), /^cancelled task-\d+-build$/m);
  });
});
