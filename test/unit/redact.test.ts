import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeEndpoint, describeLaunch } from '../../src/core/mcp/config/describe';
import { parseServers } from '../../src/core/mcp/config/parseServers';
import { serverRedactor } from '../../src/core/mcp/config/serverRedactor';
import { serverEnvironment } from '../../src/core/mcp/config/env';
import { REDACTED, Redactor, redactingLogger, redactUrl } from '../../src/core/base/redact';

const TOKEN = 'tok-3f9a1c77e2';

test('a secret is replaced wherever it appears, also inside JSON strings; short values are left alone', () => {
  const r = new Redactor();
  r.addSecret(TOKEN);
  r.addSecret('C:\\keys\\a"b.pem');
  r.addSecret('root');
  assert.equal(r.redact(`token ${TOKEN} and again ${TOKEN}`), `token ${REDACTED} and again ${REDACTED}`);
  assert.equal(
    r.redact(JSON.stringify({ error: 'bad key C:\\keys\\a"b.pem' })),
    JSON.stringify({ error: `bad key ${REDACTED}` }),
  );
  assert.equal(r.redact('root of the tree'), 'root of the tree');
});

test('a parsed message is redacted in every string, keys too, however deep; numbers and other values stay', () => {
  const r = new Redactor();
  r.addSecret(TOKEN);
  const message = {
    content: [{ type: 'text', text: `the token is ${TOKEN}` }],
    structuredContent: { [TOKEN]: { list: [TOKEN, 7, true, null] } },
    size: 12,
  };
  assert.equal(r.redactJson(message), message, 'changed in place');
  assert.deepEqual(message, {
    content: [{ type: 'text', text: `the token is ${REDACTED}` }],
    structuredContent: { [REDACTED]: { list: [REDACTED, 7, true, null] } },
    size: 12,
  });
  assert.equal(r.redactJson(`a ${TOKEN}`), `a ${REDACTED}`);
  // A hostile nesting depth: no recursion, so no stack overflow.
  let deep: unknown = TOKEN;
  for (let i = 0; i < 200_000; i++) deep = [deep];
  let inner = r.redactJson(deep);
  for (let i = 0; i < 200_000; i++) inner = (inner as unknown[])[0];
  assert.equal(inner, REDACTED);
  const empty = { text: TOKEN };
  assert.deepEqual(new Redactor().redactJson(empty), { text: TOKEN }, 'a server without secrets: nothing to do');
});

test('URL credentials and query strings are redacted, the host and path stay readable', () => {
  const url = 'https://alice:pa55word-xyz@api.example.test:8443/mcp?api_key=qs-secret-777&x=1';
  assert.equal(redactUrl(url), `https://${REDACTED}@api.example.test:8443/mcp?${REDACTED}`);
  assert.equal(redactUrl('http://127.0.0.1:3000/mcp'), 'http://127.0.0.1:3000/mcp');
  const r = new Redactor();
  r.addUrl(url);
  const error = `cannot reach ${url}: ECONNREFUSED; retried with key qs-secret-777 and password pa55word-xyz`;
  const shown = r.redact(error);
  for (const secret of ['alice:pa55word-xyz', 'pa55word-xyz', 'qs-secret-777'])
    assert.ok(!shown.includes(secret), `${secret} leaked: ${shown}`);
  assert.match(shown, /api\.example\.test:8443\/mcp/);
});

test('a server entry knows its secrets: ${env:} and ${input:} values, env-file values, header values', () => {
  const { servers, problems } = parseServers(
    {
      local: {
        command: 'node',
        args: ['server.js', '--token', '${env:MY_TOKEN}', '${input:db}', '${userHome}/x'],
        env: { PORT: '${env:PORT}' },
      },
      remote: {
        url: 'https://u:longpassword1@h.test/mcp?k=querysecret1',
        headers: { Authorization: 'Bearer header-secret-1', 'X-Short': 'abc' },
      },
    },
    {
      env: { MY_TOKEN: TOKEN, PORT: '8080' },
      input: (id, server) => (id === 'db' && server === 'local' ? 'postgres://u:dbpass-99@db/x' : undefined),
      userHome: '/home/u',
    },
  );
  assert.deepEqual(problems, []);
  const [local, remote] = servers;
  const shown = describeEndpoint(local!);
  assert.equal(shown, `node server.js --token ${REDACTED} ${REDACTED} /home/u/x`, 'the tooltip and start log line');
  assert.ok(
    !describeEndpoint(remote!).includes('longpassword1') && !describeEndpoint(remote!).includes('querysecret1'),
  );
  const r = serverRedactor(remote!);
  assert.equal(r.redact('sent Bearer header-secret-1 with X-Short abc'), `sent ${REDACTED} with X-Short abc`);
  // 8080 is shorter than 8 characters: not redacted (it would corrupt unrelated numbers).
  assert.equal(serverRedactor(local!).redact('port 8080'), 'port 8080');
});

test("a workspace's direction override or zero-width mark in a command shows as its escape wherever the command is shown (the editor's sandbox dialogs too)", () => {
  const { servers } = parseServers({ sly: { command: 'node', args: ['safe.js\u202e sj.live', 'a\u200bb'] } }, {});
  const shown = describeEndpoint(servers[0]!);
  assert.doesNotMatch(shown, /[\u202e\u200b]/);
  assert.equal(shown, 'node "safe.js\\u202e sj.live" "a\\u200bb"');
});

test('a redacting logger never passes a secret on', () => {
  const lines: string[] = [];
  const sink = {
    trace: (m: string) => lines.push(m),
    info: (m: string) => lines.push(m),
    warn: (m: string) => lines.push(m),
    error: (m: string) => lines.push(m),
  };
  const r = new Redactor();
  r.addSecret(TOKEN);
  const log = redactingLogger(sink, r);
  log.info(`stderr: using ${TOKEN}`);
  log.error(`failed with ${TOKEN}`);
  assert.deepEqual(lines, [`stderr: using ${REDACTED}`, `failed with ${REDACTED}`]);
});

test('provider keys MinAgent reads are not inherited by servers unless the entry names them', () => {
  const base = { PATH: '/bin', OPENAI_API_KEY: 'sk-openai', ANTHROPIC_API_KEY: 'sk-ant', OTHER: '1' };
  const env = serverEnvironment({}, base);
  assert.equal(env.OPENAI_API_KEY, undefined);
  assert.equal(env.ANTHROPIC_API_KEY, undefined);
  assert.equal(env.PATH, '/bin');
  assert.equal(serverEnvironment({ OPENAI_API_KEY: 'sk-openai' }, base).OPENAI_API_KEY, 'sk-openai');
});

test("an entry's cwd, envFile and env as written: references unexpanded (no substituted secret), a key the user typed into their own settings not shown, control and bidi characters escaped", () => {
  const parsed = parseServers(
    {
      s: {
        command: 'node',
        cwd: '${workspaceFolder}/srv',
        env: { TOKEN: '${env:SECRET_TOKEN}', KEY: 'sk-live-typed-into-settings', NOTE: 'a\u202eb' },
      },
    },
    { workspaceFolder: '/ws', env: { SECRET_TOKEN: TOKEN } },
  );
  const config = parsed.servers[0]!;
  const shown = describeLaunch(config).join('\n');
  assert.ok(!shown.includes(TOKEN), 'the substituted value never shows');
  assert.match(shown, /^cwd: \$\{workspaceFolder\}\/srv$/m);
  assert.match(shown, /^env\.TOKEN = \$\{env:SECRET_TOKEN\}$/m);
  assert.match(shown, /^env\.NOTE = a\\u202eb$/m);
  const mine = describeLaunch(config, { hideWritten: true }).join('\n');
  assert.ok(!mine.includes('sk-live-typed-into-settings'));
  assert.match(mine, /^env\.KEY = \(written in your settings, not shown\)$/m);
  assert.match(mine, /^env\.TOKEN = \$\{env:SECRET_TOKEN\}$/m);
});
