// Secrets never become text: a real server given secrets through ${env:}, ${input:}, an env file
// and a URL; every edge (log, tooltip text, state, stderr, results, stored chat, export) is checked.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { Agent } from '../../src/core/agent/agent';
import { FakeModel } from '../../src/core/agent/model';
import { describeEndpoint, parseServers, type ServerConfig } from '../../src/core/mcp/config';
import { ServerHub } from '../../src/core/mcp/hub';
import type { Logger } from '../../src/core/logger';
import { FileConversationStore } from '../../src/core/chat/fileStore';
import { conversationMarkdown } from '../../src/core/chat/markdown';
import { freePort, httpMcpServer, SERVERS, stopFixtures } from '../helpers';

after(stopFixtures);
const TIMEOUT = { timeout: 30_000 };
const ENV_SECRET = 'env-secret-4b1d9e';
const INPUT_SECRET = 'input-secret-77c2aa';
const FILE_SECRET = 'file-secret-90fe31';

function capture(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const push = (m: string) => void lines.push(m);
  return { logger: { trace: push, info: push, warn: push, error: push }, lines };
}

function assertClean(where: string, text: string, secrets: readonly string[]) {
  for (const s of secrets) assert.ok(!text.includes(s), `${where} shows a secret (${s}):\n${text}`);
}

describe('secrets never become text', () => {
  test('a stdio server: log, tooltip text, stderr, results, errors, the model conversation, the stored chat and its export', TIMEOUT, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'minagent-secrets-'));
    writeFileSync(join(dir, '.env'), `FILE_TOKEN=${FILE_SECRET}\n`);
    const { servers, problems } = parseServers(
      {
        vault: {
          command: process.execPath,
          args: [join(SERVERS, 'guarded.mjs'), '--token=${env:VAULT_TOKEN}', '--db=${input:db-password}'],
          env: { VAULT_TOKEN: '${env:VAULT_TOKEN}', FIXTURE_SECRET_STDERR: '${input:db-password}' },
          envFile: '.env',
        },
      },
      { workspaceFolder: dir, env: { ...process.env, VAULT_TOKEN: ENV_SECRET }, input: (id, server) => (id === 'db-password' && server === 'vault' ? INPUT_SECRET : undefined) },
    );
    assert.deepEqual(problems, []);
    const secrets = [ENV_SECRET, INPUT_SECRET, FILE_SECRET];
    const { logger, lines } = capture();
    const hub = new ServerHub({ logger });
    try {
      hub.reconcile(servers);
      await hub.whenIdle();
      const info = hub.server('vault')!;
      assert.equal(info.state.kind, 'running');

      const model = new FakeModel([
        { toolCalls: [{ name: 'whoami', arguments: {} }, { name: 'reveal', arguments: { name: 'VAULT_TOKEN' } }, { name: 'reveal', arguments: { name: 'FILE_TOKEN' } }, { name: 'reject', arguments: { name: 'FIXTURE_SECRET_STDERR' } }] },
        { final: 'done' },
      ]);
      const result = await new Agent(model, hub.registry).run('show me');
      const tools = result.steps.filter((s) => s.kind === 'tool_call').map((s) => s.tool!);
      assert.equal(tools.length, 4);
      assert.match(tools[0]!.result, /\[redacted\]/, 'whoami ran and its argv was redacted');
      assert.equal(tools[1]!.result, 'value: [redacted]');
      assert.equal(tools[2]!.result, 'value: [redacted]');
      assert.equal(tools[3]!.result, '{"error":"token [redacted] was rejected"}');

      // The model's side: what it was sent back on the next turn.
      assertClean('the conversation sent to the model', JSON.stringify(model.calls[1]!.messages), secrets);
      // The edges the user sees.
      assertClean('the log', lines.join('\n'), secrets);
      assert.ok(lines.some((l) => l.includes('starting:') && l.includes('--token=[redacted]')), 'the start line is still there, redacted');
      assertClean('the tooltip command line', describeEndpoint(info.config), secrets);
      assertClean('the stderr tail', hub.server('vault')!.stderrTail, secrets);
      assert.match(hub.server('vault')!.stderrTail, /starting with token \[redacted\]/);

      // The stored conversation (its file) and its Markdown export, built from the run as the chat does.
      const dir = mkdtempSync(join(tmpdir(), 'minagent-secrets-chat-'));
      const store = new FileConversationStore(dir);
      const conversation = await store.current();
      for (const t of tools) {
        const id = conversation.newId('t');
        conversation.append({ kind: 'tool', id, card: { callId: id, name: t.name, wireName: t.wireName, server: 'vault', arguments: JSON.stringify(t.arguments), status: t.isError ? 'error' : 'done', result: t.result, startedAt: 0 } });
        conversation.setFullResult(id, t.result);
      }
      conversation.messages = result.messages;
      await store.save(conversation);
      const stored = readdirSync(dir).map((f) => readFileSync(join(dir, f), 'utf8')).join('\n');
      assert.ok(stored.includes('"vault"'), 'the stored chat holds the calls');
      assertClean('the stored chat', stored, secrets);
      assertClean('the export', conversationMarkdown(conversation), secrets);
    } finally {
      await hub.closeAll();
    }
  });

  test('an HTTP server: URL credentials and query string stay out of errors, state, logs and the tooltip', TIMEOUT, async () => {
    const port = await freePort(); // nothing listens: the error names the URL
    const url = `http://alice:url-pass-5521@127.0.0.1:${port}/mcp?api_key=query-secret-8812`;
    const { servers } = parseServers({ remote: { url } });
    const { logger, lines } = capture();
    const hub = new ServerHub({ logger });
    try {
      hub.reconcile(servers);
      await hub.whenIdle();
      const info = hub.server('remote')!;
      assert.equal(info.state.kind, 'error');
      const message = info.state.kind === 'error' ? info.state.message : '';
      assert.ok(message.includes(`http://[redacted]@127.0.0.1:${port}/mcp?[redacted]`), `the error names the server's URL, redacted: ${message}`);
      const secrets = ['url-pass-5521', 'query-secret-8812', 'alice:'];
      assertClean('the state message', message, secrets);
      assertClean('the log', lines.join('\n'), secrets);
      assertClean('the tooltip URL', describeEndpoint(info.config), secrets);
    } finally {
      await hub.closeAll();
    }
  });

  test('a header value the server echoes back is redacted in the result', TIMEOUT, async () => {
    const url = await httpMcpServer('--token', 'header-token-3381');
    const config: ServerConfig = parseServers({ remote: { url, headers: { Authorization: 'Bearer header-token-3381' } } }).servers[0]!;
    const hub = new ServerHub();
    try {
      hub.reconcile([config]);
      await hub.whenIdle();
      assert.equal(hub.server('remote')!.state.kind, 'running', 'the header reached the server (401 otherwise)');
      assert.equal(await hub.registry.call('whoami', {}), '[redacted]');
    } finally {
      await hub.closeAll();
    }
  });
});
