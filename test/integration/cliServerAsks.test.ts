// `minagent` answers servers that ask: on a real terminal (a pty through util-linux `script`) it
// asks the user field by field, and for sampling; without one it declines with a note that says
// how to answer; --elicitation defaults accepts a form whose fields all have defaults; --root
// sets the roots servers see.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, describe, test } from 'node:test';
import { onTerminal } from '../pty';
import { CLI, runCli, SERVERS } from '../helpers';

const work = mkdtempSync(join(tmpdir(), 'minagent-cli-asks-'));
after(() => rmSync(work, { recursive: true, force: true }));
mkdirSync(join(work, '.vscode'));
const asker = { command: 'node', args: [`${SERVERS}/asker.mjs`] };
writeFileSync(
  join(work, '.vscode', 'settings.json'),
  JSON.stringify({
    'minagent.servers': { asker, easy: { ...asker, env: { ASKER_FORM: 'defaults' }, namespace: 'easy' } },
  }),
);
// The sampling limits are the user's (user settings only): the CLI reads them from VS Code's user settings file.
const env = { ...process.env, XDG_CONFIG_HOME: join(work, 'config') };
mkdirSync(join(work, 'config', 'Code', 'User'), { recursive: true });
writeFileSync(
  join(work, 'config', 'Code', 'User', 'settings.json'),
  JSON.stringify({ 'minagent.sampling.maxTokens': { '*': 500, easy: 10 } }),
);
const script = join(work, 'script.json');
// The second turn answers the server's sampling request (the chat's model is asked); the third ends the chat.
writeFileSync(
  script,
  JSON.stringify([
    { toolCalls: [{ name: 'sample', arguments: { prompt: 'What is 6 x 7?' } }] },
    { final: 'forty-two' },
    { final: 'done' },
  ]),
);

const cli = (args: string[]) => runCli(['--trust', ...args], { cwd: work, env });

/** Runs the CLI on a pty and answers each question (matched by its prompt) in turn. */
const onCliTerminal = (args: string[], answers: Array<[string, string]>) =>
  onTerminal([process.execPath, CLI, '--trust', ...args], answers, { cwd: work, env });

describe('minagent and servers that ask', { timeout: 60_000 }, () => {
  test('without a terminal a form is declined, with a note that says how to answer', () => {
    const { out, err } = cli(['call', 'ask_profile']);
    assert.equal(out.trim(), 'profile: decline');
    assert.match(
      err,
      /declined: server "asker" asks for a form: Tell us <b>who<\/b> you are; run on a terminal to answer, or pass --elicitation defaults/,
    );
  });

  test('--elicitation defaults accepts a form whose every field has a default, and declines one that needs an answer', () => {
    assert.equal(
      cli(['call', 'easy.ask_profile', '--elicitation', 'defaults']).out.trim(),
      'profile: {"team":"web","seats":3}',
    );
    const needs = cli(['call', 'ask_profile', '--elicitation', 'defaults']);
    assert.equal(needs.out.trim(), 'profile: decline');
    assert.match(needs.err, /\(no default for name\)/);
  });

  test('on a terminal the form is asked field by field, a wrong value is asked again, Enter keeps the default', async () => {
    const out = await onCliTerminal(
      ['call', 'ask_profile'],
      [
        ['[y]es, [d]ecline, [c]ancel: ', 'y'],
        ['Your name (required): ', 'Ada'],
        ['Team [one of: core, web, infra; Enter for web]: ', ''],
        ['Seats [a whole number; Enter for 3]: ', '12'],
        ['Seats [a whole number; Enter for 3]: ', '5'],
        ['Notify me [y/n; Enter for true]: ', 'n'],
        ['Email [email]: ', 'ada@example.com'],
      ],
    );
    assert.match(out, /Seats: at most 10/);
    assert.match(out, /profile: \{"name":"Ada","team":"web","seats":5,"notify":false,"email":"ada@example.com"\}/);
  });

  test('a URL is shown with its host and opened (printed) only after a yes', async () => {
    const out = await onCliTerminal(
      ['call', 'ask_url', '{"url":"https://login.example.com/x"}'],
      [
        ['Open it? [y]es, [n]o: ', 'y'],
        // A 2026-07-28 round waits for the user to finish in the browser.
        ['waits while you finish on login.example.com: [d]one, [c]ancel: ', 'd'],
      ],
    );
    assert.match(out, /URL: {2}https:\/\/login\.example\.com\/x\s+host: login\.example\.com/);
    assert.match(out, /Open this URL in your browser: https:\/\/login\.example\.com\/x/);
    assert.match(out, /visit: accept/);
    const cancelled = await onCliTerminal(
      ['call', 'ask_url', '{"url":"https://login.example.com/x"}'],
      [
        ['Open it? [y]es, [n]o: ', 'y'],
        ['waits while you finish on login.example.com: [d]one, [c]ancel: ', 'c'],
      ],
    );
    assert.match(cancelled, /visit: cancel/);
  });

  test('sampling: without a terminal it is denied with a note; on one, approved, the chat model answers it', async () => {
    const denied = cli(['chat', 'ask the oracle', '--script', script, '--yes']);
    assert.match(
      denied.err,
      /denied: server "asker" asks to send this to your model \(fake\), for up to 100 tokens \(its limit: 500\):\n {2}\[system\] You are a terse oracle\.\n {2}\[user\] What is 6 x 7\?/,
    );
    assert.match(denied.out, /User rejected sampling request/);
    const out = await onCliTerminal(
      ['chat', 'ask the oracle', '--script', script, '--yes'],
      [['[a]lways for this server (this run): ', 'y']],
    );
    assert.match(out, /sample -> model fake said: forty-two/);
  });

  test("attack: a sampling request over the server's limit (from the user's settings file) is refused without asking", () => {
    const over = cli(['call', 'easy.sample', '{"prompt":"long","maxTokens":50}']);
    assert.match(over.out, /asks for up to 50 tokens, and the user allows server \\"easy\\" at most 10 per request/);
    assert.doesNotMatch(over.err, /asks to send this to your model/);
  });

  test('--root sets the roots servers see (default: the current folder)', () => {
    assert.equal(
      cli(['call', 'list_roots']).out.trim(),
      `roots: ${JSON.stringify([{ uri: pathToFileURL(work).href, name: work.split('/').at(-1) }])}`,
    );
    assert.equal(
      cli(['call', 'list_roots', '--root', SERVERS]).out.trim(),
      `roots: ${JSON.stringify([{ uri: pathToFileURL(SERVERS).href, name: basename(SERVERS) }])}`,
    );
  });
});
