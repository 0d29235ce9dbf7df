// Provider requests against real local HTTP servers: a key never follows a redirect to another
// origin, the origin policy decides when the user must confirm, and streams and error bodies are capped.
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, describe, test } from 'node:test';
import { AnthropicModel } from '../../src/core/models/anthropic';
import { streamSse } from '../../src/core/models/http';
import { OpenAICompatibleModel } from '../../src/core/models/openai';
import { checkOrigin, isLoopback, keyOriginFor, redirectAllowed } from '../../src/core/models/origins';
import { openAILimits } from '../../src/core/budget/limits';

interface Seen {
  url: string;
  headers: IncomingMessage['headers'];
}
const servers: Server[] = [];
after(() => Promise.all(servers.map((s) => new Promise((r) => s.close(r)))));

/** A real HTTP server on 127.0.0.1 that records every request and answers with `handle`. */
async function serve(
  handle: (req: IncomingMessage, res: ServerResponse) => unknown,
): Promise<{ base: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = createServer(async (req, res) => {
    for await (const _ of req) void _;
    seen.push({ url: req.url ?? '', headers: req.headers });
    await handle(req, res);
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

const sse = (data: unknown) => `data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;
function openaiAnswer(res: ServerResponse, text: string): void {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  res.end(
    sse({ choices: [{ index: 0, delta: { content: text } }] }) +
      sse({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }) +
      sse('[DONE]'),
  );
}
function anthropicAnswer(res: ServerResponse, text: string): void {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  res.end(
    sse({ type: 'content_block_start', index: 0, content_block: { type: 'text', text } }) +
      sse({ type: 'message_stop' }),
  );
}

const providers = [
  {
    name: 'OpenAI-compatible',
    keyHeader: 'authorization',
    answer: openaiAnswer,
    make: (base: string) => new OpenAICompatibleModel({ baseUrl: `${base}/v1`, model: 'm', apiKey: 'sk-secret-key' }),
  },
  {
    name: 'Anthropic',
    keyHeader: 'x-api-key',
    answer: anthropicAnswer,
    make: (base: string) => new AnthropicModel({ baseUrl: base, model: 'm', apiKey: 'sk-ant-secret-key' }),
  },
];

describe('redirects', { timeout: 20_000 }, () => {
  for (const p of providers) {
    test(`${p.name}: a cross-origin 307 is not followed and the other origin never receives the key`, async () => {
      const elsewhere = await serve((_req, res) => p.answer(res, 'stolen'));
      const provider = await serve((req, res) => res.writeHead(307, { location: `${elsewhere.base}${req.url}` }).end());
      await assert.rejects(p.make(provider.base).chat([{ role: 'user', content: 'hi' }], []), (err: Error) => {
        assert.match(
          err.message,
          new RegExp(
            `${provider.base.replace(/[.]/g, '\\.')} redirected the request to ${elsewhere.base.replace(/[.]/g, '\\.')}; a redirect to another origin is not followed, so the key is not sent there`,
          ),
        );
        return true;
      });
      assert.equal(provider.seen.length, 1);
      assert.ok(provider.seen[0]!.headers[p.keyHeader], 'the bound origin got the key');
      assert.equal(elsewhere.seen.length, 0, 'the other origin got no request at all');
    });

    test(`${p.name}: a same-origin 308 is followed with the key and the answer arrives`, async () => {
      const provider = await serve((req, res) =>
        req.url!.startsWith('/moved')
          ? p.answer(res, 'hello')
          : res.writeHead(308, { location: `/moved${req.url}` }).end(),
      );
      const turn = await p.make(provider.base).chat([{ role: 'user', content: 'hi' }], []);
      assert.equal(turn.text, 'hello');
      assert.equal(provider.seen.length, 2);
      assert.ok(provider.seen[1]!.headers[p.keyHeader]);
    });
  }

  test('a redirect loop within one origin stops after five hops', async () => {
    const provider = await serve((req, res) => res.writeHead(307, { location: `/loop${req.url}` }).end());
    await assert.rejects(
      providers[0]!.make(provider.base).chat([{ role: 'user', content: 'hi' }], []),
      /more than 5 redirects/,
    );
    assert.equal(provider.seen.length, 6);
  });

  test('redirectAllowed: same origin only; https to http, another port or host never', () => {
    assert.equal(redirectAllowed('https://api.example.com/v1/chat', '/v2/chat'), true);
    assert.equal(redirectAllowed('https://api.example.com/v1/chat', 'https://api.example.com/v2'), true);
    assert.equal(redirectAllowed('https://api.example.com/v1/chat', 'http://api.example.com/v1/chat'), false);
    assert.equal(redirectAllowed('https://api.example.com/v1/chat', 'https://api.example.com:8443/v1'), false);
    assert.equal(redirectAllowed('https://api.example.com/v1/chat', 'https://evil.example/v1'), false);
    assert.equal(redirectAllowed('https://api.example.com/v1/chat', 'http://[::1'), false);
  });
});

describe("the budget meter's Ollama probe", { timeout: 20_000 }, () => {
  test('a redirect to another origin is not followed: the other origin receives nothing, the window is assumed', async () => {
    const elsewhere = await serve((_req, res) =>
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ parameters: 'num_ctx 9999', model_info: {} })),
    );
    const provider = await serve((req, res) => res.writeHead(307, { location: `${elsewhere.base}${req.url}` }).end());
    const limits = await openAILimits({ baseUrl: `${provider.base}/v1`, model: 'llama-redirect' });
    assert.match(limits.window.source, /^assumed/);
    assert.equal(elsewhere.seen.length, 0);
  });

  test('probeWindow false (an origin the user has not allowed yet): not even a probe goes out', async () => {
    const ollama = await serve((_req, res) =>
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ parameters: 'num_ctx 9999', model_info: {} })),
    );
    assert.match(
      (await openAILimits({ baseUrl: `${ollama.base}/v1`, model: 'llama-unasked', probeWindow: false })).window.source,
      /^assumed/,
    );
    assert.equal(ollama.seen.length, 0);
    assert.equal((await openAILimits({ baseUrl: `${ollama.base}/v1`, model: 'llama-asked' })).window.tokens, 9999);
    assert.deepEqual(
      ollama.seen.map((r) => r.url),
      ['/api/show', '/api/ps'],
    );
  });
});

describe('origin policy', () => {
  test('the bound origin and loopback http go without asking', () => {
    assert.deepEqual(
      checkOrigin({ baseUrl: 'https://api.openai.com/v1', keyOrigin: 'https://api.openai.com', confirmed: [] }),
      { kind: 'ok', origin: 'https://api.openai.com' },
    );
    assert.deepEqual(checkOrigin({ baseUrl: 'http://localhost:11434/v1', confirmed: [] }), {
      kind: 'ok',
      origin: 'http://localhost:11434',
    });
    assert.deepEqual(checkOrigin({ baseUrl: 'http://127.0.0.1:8080/v1', confirmed: [] }).kind, 'ok');
    assert.deepEqual(checkOrigin({ baseUrl: 'http://[::1]:8080/v1', confirmed: [] }).kind, 'ok');
  });

  test('another origin with a key asks, naming the host; once confirmed it goes', () => {
    assert.deepEqual(
      checkOrigin({ baseUrl: 'https://evil.example:444/v1', keyOrigin: 'https://api.openai.com', confirmed: [] }),
      { kind: 'confirm', origin: 'https://evil.example:444', host: 'evil.example:444', reasons: ['key'] },
    );
    // A loopback port other than the bound one is another origin too.
    assert.deepEqual(
      checkOrigin({ baseUrl: 'http://127.0.0.1:9/v1', keyOrigin: 'http://127.0.0.1:8', confirmed: [] }).kind,
      'confirm',
    );
    assert.deepEqual(
      checkOrigin({
        baseUrl: 'https://evil.example:444/v1',
        keyOrigin: 'https://api.openai.com',
        confirmed: ['https://evil.example:444'],
      }).kind,
      'ok',
    );
  });

  test('plain http to a non-loopback host asks even without a key (a LAN Ollama is confirmed once)', () => {
    assert.deepEqual(checkOrigin({ baseUrl: 'http://192.168.1.20:11434/v1', confirmed: [] }), {
      kind: 'confirm',
      origin: 'http://192.168.1.20:11434',
      host: '192.168.1.20:11434',
      reasons: ['plainHttp'],
    });
    assert.deepEqual(
      checkOrigin({ baseUrl: 'http://192.168.1.20:11434/v1', keyOrigin: 'https://api.openai.com', confirmed: [] })
        .kind === 'confirm' &&
        checkOrigin({ baseUrl: 'http://192.168.1.20:11434/v1', keyOrigin: 'https://api.openai.com', confirmed: [] }),
      {
        kind: 'confirm',
        origin: 'http://192.168.1.20:11434',
        host: '192.168.1.20:11434',
        reasons: ['key', 'plainHttp'],
      },
    );
    assert.equal(
      checkOrigin({ baseUrl: 'http://192.168.1.20:11434/v1', confirmed: ['http://192.168.1.20:11434'] }).kind,
      'ok',
    );
  });

  test("a workspace's https base URL without any key still asks: the conversation is what it would receive", () => {
    const repo = {
      baseUrl: 'https://collector.example/v1',
      confirmed: [],
      fromWorkspace: true,
      userOrigins: ['https://api.openai.com'],
    };
    assert.deepEqual(checkOrigin(repo), {
      kind: 'confirm',
      origin: 'https://collector.example',
      host: 'collector.example',
      reasons: ['workspace'],
    });
    // Loopback too: another local service is not the user's choice of model.
    assert.deepEqual(checkOrigin({ ...repo, baseUrl: 'http://127.0.0.1:9/v1' }).kind, 'confirm');
    assert.equal(checkOrigin({ ...repo, confirmed: ['https://collector.example'] }).kind, 'ok');
    // The user's own origin, or the key's, named by the workspace, is not a new choice.
    assert.equal(checkOrigin({ ...repo, baseUrl: 'https://api.openai.com/v1' }).kind, 'ok');
    assert.equal(
      checkOrigin({ ...repo, baseUrl: 'http://127.0.0.1:4000/v1', keyOrigin: 'http://127.0.0.1:4000' }).kind,
      'ok',
    );
    // Any of the user's own models' origins counts as theirs (several models in minagent.chat.models).
    assert.equal(
      checkOrigin({
        ...repo,
        baseUrl: 'http://127.0.0.1:5/v1',
        userOrigins: ['https://api.openai.com', 'http://127.0.0.1:5'],
      }).kind,
      'ok',
    );
    // The same URL from the user's own settings goes as before.
    assert.equal(checkOrigin({ ...repo, fromWorkspace: false }).kind, 'ok');
  });

  test('other schemes, credentials in the URL and non-URLs are refused', () => {
    assert.match(
      (checkOrigin({ baseUrl: 'file:///etc/passwd', confirmed: [] }) as { message: string }).message,
      /must use https or http, not file/,
    );
    assert.match(
      (checkOrigin({ baseUrl: 'https://u:p@api.example.com', confirmed: [] }) as { message: string }).message,
      /must not carry a user name or password/,
    );
    assert.equal(checkOrigin({ baseUrl: 'not a url', confirmed: [] }).kind, 'invalid');
  });

  test('a key is bound to the first of the user base URLs for its provider, else the vendor default', () => {
    const vendor = 'https://api.openai.com/v1';
    assert.equal(
      keyOriginFor(vendor, ['http://127.0.0.1:4000/v1', 'https://proxy.example/v1']),
      'http://127.0.0.1:4000',
    );
    assert.equal(keyOriginFor(vendor, []), 'https://api.openai.com');
    assert.equal(keyOriginFor(vendor, ['not a url', 'https://proxy.example/v1']), 'https://proxy.example');
    assert.equal(keyOriginFor(vendor, ['not a url']), 'https://api.openai.com');
  });

  test('isLoopback: localhost names and 127/8 and ::1 only', () => {
    for (const u of [
      'http://localhost:1',
      'http://LOCALHOST',
      'http://a.localhost',
      'http://127.0.0.1',
      'http://127.1.2.3:5',
      'http://[::1]:3',
    ])
      assert.equal(isLoopback(u), true, u);
    for (const u of [
      'http://127.0.0.1.evil.example',
      'http://localhost.evil.example',
      'http://10.0.0.1',
      'http://[::2]',
      'nope',
    ])
      assert.equal(isLoopback(u), false, u);
  });
});

describe('bounded model streams and error bodies', { timeout: 30_000 }, () => {
  test('one stream event over the default 8 MB cap ends the turn with a clear error', async () => {
    const provider = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: {"choices":[{"index":0,"delta":{"content":"');
      const chunk = 'x'.repeat(1024 * 1024);
      for (let i = 0; i < 9; i++) res.write(chunk);
      res.end('"}}]}\n\n');
    });
    await assert.rejects(
      providers[0]!.make(provider.base).chat([{ role: 'user', content: 'hi' }], []),
      /OpenAI-compatible: one event of the answer of http:\/\/127\.0\.0\.1:\d+ is larger than the 8 MB limit; it was cut off/,
    );
  });

  test('a stream of many small events over its total cap ends with a clear error', async () => {
    const provider = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (let i = 0; i < 200; i++) res.write(sse({ choices: [{ index: 0, delta: { content: 'y'.repeat(1000) } }] }));
      res.end();
    });
    await assert.rejects(
      streamSse(
        { url: `${provider.base}/v1/chat/completions`, headers: {}, body: {}, provider: 'P' },
        () => undefined,
        { streamBytes: 64 * 1024 },
      ),
      /P: the answer of http:\/\/127\.0\.0\.1:\d+ is larger than the 64 KB limit; it was cut off/,
    );
  });

  test('an error body of 50 MB is read only up to its cap: the error arrives, short', async () => {
    const provider = await serve(async (_req, res) => {
      res.writeHead(500, { 'content-type': 'text/plain' });
      const chunk = 'E'.repeat(1024 * 1024);
      for (let i = 0; i < 50 && !res.destroyed; i++)
        if (!res.write(chunk)) await new Promise((r) => res.once('drain', r).once('close', r));
      res.end();
    });
    await assert.rejects(
      providers[0]!.make(provider.base).chat([{ role: 'user', content: 'hi' }], []),
      (err: Error) => {
        assert.match(err.message, /^OpenAI-compatible: HTTP 500, the server failed: E+$/);
        assert.ok(err.message.length < 400, `message of ${err.message.length} chars`);
        return true;
      },
    );
  });

  test('a tool schema too deep to serialize is a clear request error, not "cannot reach"', async () => {
    const provider = await serve((_req, res) => openaiAnswer(res, 'never'));
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 20_000; i++) deep = { type: 'object', properties: { a: deep } };
    await assert.rejects(
      providers[0]!
        .make(provider.base)
        .chat([{ role: 'user', content: 'hi' }], [{ name: 'deep', description: '', parameters: deep }]),
      /OpenAI-compatible: the request could not be built: Maximum call stack size exceeded/,
    );
    assert.equal(provider.seen.length, 0);
  });
});
