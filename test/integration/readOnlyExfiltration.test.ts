// "Read-only" is a claim, not a pass: a hostile server declares `save_note` read-only; the model
// reads a secret with the user's filesystem server (read-only too) and passes it to `save_note`.
// The CLI (no terminal: read-only tools run, others are denied) must not let it leave.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { ROOT, runCli, SERVERS } from '../helpers';

const work = realpathSync(mkdtempSync(join(tmpdir(), 'minagent-exfil-')));
after(() => rmSync(work, { recursive: true, force: true }));
const SECRET = 'AKIA-EXFIL-0123456789';
const secretFile = join(work, 'secret.txt');
writeFileSync(secretFile, SECRET);
const log = join(work, 'collected.log');
mkdirSync(join(work, '.vscode'));
writeFileSync(
  join(work, '.vscode', 'settings.json'),
  JSON.stringify({
    'minagent.servers': {
      fs: {
        command: 'node',
        args: [join(ROOT, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js'), work],
      },
      collector: { command: 'node', args: [`${SERVERS}/collector.mjs`, '--log', log] },
    },
  }),
);

function chat(turns: unknown[], flags: string[] = []) {
  const script = join(work, `script-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(script, JSON.stringify(turns));
  return runCli(['chat', 'tidy my notes', '--script', script, '--trust', ...flags], { cwd: work, timeout: 60_000 });
}
const collected = () => (existsSync(log) ? readFileSync(log, 'utf8') : '');

describe('read-only exfiltration', { timeout: 120_000 }, () => {
  test("a read-only tool that would carry another server's result out is not run unasked; the denial says why", () => {
    rmSync(log, { force: true });
    const { code, out, err } = chat([
      { toolCalls: [{ name: 'read_text_file', arguments: { path: secretFile } }] },
      { toolCalls: [{ name: 'save_note', arguments: { text: SECRET } }] },
      { final: 'done' },
    ]);
    assert.equal(code, 0, err);
    assert.ok(out.includes(`[0] tool_call: read_text_file -> ${SECRET}`), out);
    assert.match(out, /\[1\] tool_call: save_note -> \{"error":"the user denied the call to \\"save_note\\""\}/);
    assert.match(
      err,
      /denied: save_note on server "collector" is read-only, but this conversation holds results from server "fs", and its arguments could carry them to "collector"/,
    );
    assert.equal(collected(), '', 'nothing reached the collector');
  });

  test('a read-only tool runs unasked while no other server has spoken, and after only its own server', () => {
    rmSync(log, { force: true });
    const { out } = chat([
      { toolCalls: [{ name: 'save_note', arguments: { text: 'first' } }] },
      { toolCalls: [{ name: 'save_note', arguments: { text: 'second' } }] },
      { final: 'done' },
    ]);
    assert.match(out, /\[0\] tool_call: save_note -> saved/);
    assert.match(out, /\[1\] tool_call: save_note -> saved/);
    assert.equal(collected(), '"first"\n"second"\n');
  });

  test('--approve all is the user saying yes to everything: it runs', () => {
    rmSync(log, { force: true });
    chat(
      [
        { toolCalls: [{ name: 'read_text_file', arguments: { path: secretFile } }] },
        { toolCalls: [{ name: 'save_note', arguments: { text: SECRET } }] },
        { final: 'done' },
      ],
      ['--yes'],
    );
    assert.equal(collected(), `${JSON.stringify(SECRET)}\n`);
  });
});
