// Secrets never become text: a real server given secrets through ${env:}, ${input:}, an env file
// and a URL; every edge (log, tooltip text, state, stderr, results, stored chat, export) is checked.
// Then a server that echoes its `${env:}` secret into everything it writes (fixtures/servers/leaky.mjs),
// in both protocol eras: every path its text takes to the model, the chat, the log or the user.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Agent } from '../../src/core/agent/agent';
import { ScriptedModel } from '../scriptedModel';
import { describeEndpoint } from '../../src/core/mcp/config/describe';
import { parseServers } from '../../src/core/mcp/config/parseServers';
import type { ServerConfig } from '../../src/core/mcp/config/serverConfig';
import { ServerHub } from '../../src/core/mcp/hub/serverHub';
import type { Logger } from '../../src/core/base/logger';
import { FileConversationStore } from '../../src/core/chat/conversation/fileConversationStore';
import { conversationMarkdown } from '../../src/core/chat/markdown';
import { Attachments } from '../../src/core/chat/attachments';
import { estimateCounter } from '../../src/core/budget/tokens';
import { ClientRequests } from '../../src/core/mcp/clientRequests/clientRequests';
import { FolderRoots } from '../../src/core/mcp/clientRequests/roots';
import { MemoryGrants } from '../../src/core/mcp/clientRequests/sampling';
import { isFeatureError } from '../../src/core/mcp/features/featureTypes';
import { formatPromptMessages } from '../../src/core/mcp/features/prompts';
import type { ToolResource } from '../../src/core/toolRegistry/toolRegistry';
import { EchoModel, ScriptedUi } from '../clientRequestsUi';
import { freePort, httpMcpServer, ROOT, SERVERS, stopFixtures } from '../helpers';

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
  test(
    'a stdio server: log, tooltip text, stderr, results, errors, the model conversation, the stored chat and its export',
    TIMEOUT,
    async () => {
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
        {
          workspaceFolder: dir,
          env: { ...process.env, VAULT_TOKEN: ENV_SECRET },
          input: (id, server) => (id === 'db-password' && server === 'vault' ? INPUT_SECRET : undefined),
        },
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

        const model = new ScriptedModel([
          {
            toolCalls: [
              { name: 'whoami', arguments: {} },
              { name: 'reveal', arguments: { name: 'VAULT_TOKEN' } },
              { name: 'reveal', arguments: { name: 'FILE_TOKEN' } },
              { name: 'reject', arguments: { name: 'FIXTURE_SECRET_STDERR' } },
            ],
          },
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
        assert.ok(
          lines.some((l) => l.includes('starting:') && l.includes('--token=[redacted]')),
          'the start line is still there, redacted',
        );
        assertClean('the tooltip command line', describeEndpoint(info.config), secrets);
        assertClean('the stderr tail', hub.server('vault')!.stderrTail, secrets);
        assert.match(hub.server('vault')!.stderrTail, /starting with token \[redacted\]/);

        // The stored conversation (its file) and its Markdown export, built from the run as the chat does.
        const dir = mkdtempSync(join(tmpdir(), 'minagent-secrets-chat-'));
        const store = new FileConversationStore(dir);
        const conversation = await store.current();
        for (const t of tools) {
          const id = conversation.newId('t');
          conversation.append({
            kind: 'tool',
            id,
            card: {
              callId: id,
              name: t.name,
              wireName: t.wireName,
              server: 'vault',
              arguments: JSON.stringify(t.arguments),
              status: t.isError ? 'error' : 'done',
              result: t.result,
              startedAt: 0,
            },
          });
          conversation.setFullResult(id, t.result);
        }
        conversation.messages = result.messages;
        await store.save(conversation);
        const stored = readdirSync(dir)
          .map((f) => readFileSync(join(dir, f), 'utf8'))
          .join('\n');
        assert.ok(stored.includes('"vault"'), 'the stored chat holds the calls');
        assertClean('the stored chat', stored, secrets);
        assertClean('the export', conversationMarkdown(conversation), secrets);
      } finally {
        await hub.closeAll();
      }
    },
  );

  test(
    'an HTTP server: URL credentials and query string stay out of errors, state, logs and the tooltip',
    TIMEOUT,
    async () => {
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
        assert.ok(
          message.includes(`http://[redacted]@127.0.0.1:${port}/mcp?[redacted]`),
          `the error names the server's URL, redacted: ${message}`,
        );
        const secrets = ['url-pass-5521', 'query-secret-8812', 'alice:'];
        assertClean('the state message', message, secrets);
        assertClean('the log', lines.join('\n'), secrets);
        assertClean('the tooltip URL', describeEndpoint(info.config), secrets);
      } finally {
        await hub.closeAll();
      }
    },
  );

  test('a header value the server echoes back is redacted in the result', TIMEOUT, async () => {
    const url = await httpMcpServer('--token', 'header-token-3381');
    const config: ServerConfig = parseServers({
      remote: { url, headers: { Authorization: 'Bearer header-token-3381' } },
    }).servers[0]!;
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

  test(
    'an HTTP error body that quotes the header (not a message of the server: no redaction on the way in) is redacted in the call result and the log',
    TIMEOUT,
    async () => {
      const url = await httpMcpServer('--fail-calls-echoing');
      const config: ServerConfig = parseServers({
        remote: { url, headers: { Authorization: 'Bearer header-token-7720' } },
      }).servers[0]!;
      const { logger, lines } = capture();
      const hub = new ServerHub({ logger });
      try {
        hub.reconcile([config]);
        await hub.whenIdle();
        const result = await hub.registry.call('echo', { text: 'hi' });
        assert.match(
          result,
          /^\{"error":"HTTP 500 Internal Server Error from http:\/\/127\.0\.0\.1:\d+\/mcp: refused the call of \[redacted\]"\}$/,
        );
        assertClean('the result', result, ['header-token-7720']);
        assertClean('the log', lines.join('\n'), ['header-token-7720']);
      } finally {
        await hub.closeAll();
      }
    },
  );
});

const LEAK = 'leaky-secret-5c3e81';

/** `text` never shows the leaky server's secret, and shows `[redacted]` where it was. */
function assertRedacted(where: string, text: string) {
  assertClean(where, text, [LEAK]);
  assert.ok(text.includes('[redacted]'), `${where} shows [redacted] where the secret was:\n${text}`);
}

for (const era of ['2026-07-28', '2025-11-25'] as const) {
  describe(`a server echoes its \${env:} secret into everything it writes (${era}): none of it carries the secret`, {
    timeout: 60_000,
  }, () => {
    const ui = new ScriptedUi();
    const model = new EchoModel((messages) => `echo: ${messages.at(-1)?.content}`);
    const requests = new ClientRequests({
      ui,
      roots: new FolderRoots([ROOT]),
      sampling: { model: async () => model, maxTokens: () => 200, grants: new MemoryGrants() },
    });
    const { logger, lines } = capture();
    const hub = new ServerHub({ logger, clientRequests: requests });

    before(async () => {
      const { servers, problems } = parseServers(
        {
          leaky: {
            command: process.execPath,
            args: [join(SERVERS, 'leaky.mjs')],
            env: { LEAKY_SECRET: '${env:LEAK_TOKEN}', ...(era === '2025-11-25' ? { LEAKY_ERA: 'legacy' } : {}) },
          },
        },
        { workspaceFolder: ROOT, env: { ...process.env, LEAK_TOKEN: LEAK } },
      );
      assert.deepEqual(problems, []);
      hub.reconcile(servers);
      await hub.whenIdle();
      const state = hub.server('leaky')!.state;
      assert.equal(state.kind === 'running' ? state.protocolVersion : state.kind, era);
    });
    after(async () => {
      await hub.closeAll();
      requests.dispose();
    });

    test('a tool result, its structured content, its progress note and the resources it links', async () => {
      const progress: string[] = [];
      const resources: ToolResource[] = [];
      const result = await hub.registry.call(
        'reveal',
        {},
        {
          onProgress: (p) => p.message !== undefined && progress.push(p.message),
          onResource: (r) => resources.push(r),
        },
      );
      assertRedacted('the result', result);
      assert.match(result, /the token is \[redacted\]/);
      assert.match(result, /"\[redacted\]":"as a key"/, 'a key of the structured content too');
      assertRedacted('the progress note', progress.join('\n'));
      assert.equal(resources.length, 2);
      assertRedacted('the linked and embedded resources (the card shows them)', JSON.stringify(resources));
    });

    test('a tool failure', async () => {
      assert.equal(await hub.registry.call('fail', {}), '{"error":"token [redacted] was rejected"}');
    });

    test('the tool list: descriptions sent to the model', () => {
      assertRedacted('the tool description', hub.registry.get('reveal')!.description);
      assertRedacted('the tool schemas the model gets', JSON.stringify(hub.registry.schemas()));
    });

    test('the built-in read_resource tool', async () => {
      const result = await hub.registry.call('read_resource', { server: 'leaky', uri: 'leaky://token' });
      assert.match(
        result,
        /^\[resource <leaky:\/\/token> \(text\/plain\) from server "leaky"\]\nthe token is \[redacted\]$/,
      );
      assertRedacted('read_resource', result);
      assertRedacted(
        'a failed read through read_resource',
        await hub.registry.call('read_resource', { server: 'leaky', uri: 'leaky://vault/missing' }),
      );
    });

    test("the hub's resources: the list, a read, a template read and a failed read", async () => {
      const listed = hub.catalog.resources().find((r) => r.uri === 'leaky://token')!;
      assertRedacted('the listed resource', JSON.stringify(listed));
      const read = await hub.catalog.readResource('leaky', 'leaky://token');
      assert.ok(!isFeatureError(read));
      assert.equal(read.contents[0]!.text, 'the token is [redacted]');
      const entry = await hub.catalog.readResource('leaky', 'leaky://vault/door');
      assert.ok(!isFeatureError(entry));
      assert.equal(entry.contents[0]!.text, 'door: [redacted]');
      const failed = await hub.catalog.readResource('leaky', 'leaky://vault/missing');
      assert.ok(isFeatureError(failed));
      assertRedacted('the read error', failed.error);
    });

    test('a resource attached to a chat message', async () => {
      const attachments = new Attachments({
        read: (s, u) => hub.catalog.readResource(s, u),
        counter: async () => estimateCounter,
        maxChars: () => 50_000,
      });
      assert.equal(await attachments.add('leaky', 'leaky://token', 'Token'), undefined);
      assertRedacted('what the message carries to the model', attachments.peek()!.context);
      const failed = await attachments.add('leaky', 'leaky://vault/missing', 'Missing');
      assertRedacted('a failed attachment', failed!.error);
      attachments.dispose();
    });

    test('prompts: the list, a get (messages, description, embedded resource) and a failed get', async () => {
      assertRedacted('the listed prompt', JSON.stringify(hub.catalog.prompts().find((p) => p.name === 'leak')));
      const got = await hub.catalog.getPrompt('leak', { key: 'door' });
      assert.ok(!isFeatureError(got));
      assert.equal(got.description, 'the door prompt of [redacted]');
      assert.equal(
        formatPromptMessages(got),
        'user: Use door with [redacted].\n\nuser: [resource <leaky://token>]\nembedded [redacted]',
      );
      assertClean('the prompt', JSON.stringify(got), [LEAK]);
      const failed = await hub.catalog.getPrompt('broken');
      assert.ok(isFeatureError(failed));
      assertRedacted('the prompt error', failed.error);
    });

    test('completions of a prompt argument and of a template variable', async () => {
      const prompt = await hub.catalog.completePrompt('leak', 'key', '');
      assert.ok(!isFeatureError(prompt));
      assert.deepEqual(prompt.values, ['[redacted]', 'other']);
      const template = await hub.catalog.completeTemplate('leaky', 'leaky://vault/{key}', 'key', '');
      assert.ok(!isFeatureError(template));
      assert.deepEqual(template.values, ['[redacted]', 'key-[redacted]']);
    });

    test("the server's title and instructions (the system prompt)", () => {
      assertRedacted('the title', hub.catalog.serverInfo('leaky')!.title!);
      assertRedacted('the instructions', hub.catalog.instructions());
    });

    test('a form the server asks the user to fill', async () => {
      ui.form = () => ({ action: 'cancel' });
      assert.equal(await hub.registry.call('ask', {}), 'asked: cancel');
      const { ask } = ui.forms.at(-1)!;
      assert.equal(ask.message, 'Confirm the token [redacted]');
      assertRedacted('the form', JSON.stringify(ask.fields));
    });

    test('a sampling request: what the user is shown and what the model gets', async () => {
      ui.sampling = { allow: true, remember: false };
      assert.equal(await hub.registry.call('sample', {}), 'sampled: echo: Remember [redacted]');
      assert.deepEqual(ui.samplings.at(-1)!.messages, [{ role: 'user', text: 'Remember [redacted]' }]);
      assert.equal(ui.samplings.at(-1)!.systemPrompt, 'The token is [redacted].');
      assertRedacted('the messages the model got', JSON.stringify(model.calls.at(-1)!.messages));
    });

    test('the log and the problems', () => {
      assertClean('the log', lines.join('\n'), [LEAK]);
      assertClean('the problems', JSON.stringify([hub.problems(), hub.catalog.problems()]), [LEAK]);
    });
  });
}
