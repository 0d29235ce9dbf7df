// The set-up's list of an OpenAI-compatible endpoint's models (GET /models) against a real local
// HTTP server: where it asks, the key only when given, no redirect followed, bounded in time and size.
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, describe, test } from 'node:test';
import { listEndpointModels, modelListUrls, parseModelIds } from '../../src/core/models/endpointModels';

const servers: Server[] = [];
after(() =>
  Promise.all(
    servers.map(
      (s) =>
        new Promise((r) => {
          s.close(r);
          s.closeAllConnections();
        }),
    ),
  ),
);

async function serve(
  handle: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ base: string; seen: Array<{ url: string; authorization?: string }> }> {
  const seen: Array<{ url: string; authorization?: string }> = [];
  const server = createServer((req, res) => {
    seen.push({
      url: req.url ?? '',
      ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}),
    });
    handle(req, res);
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

const list = (res: ServerResponse, ids: string[]) =>
  res
    .writeHead(200, { 'content-type': 'application/json' })
    .end(JSON.stringify({ object: 'list', data: ids.map((id) => ({ id, object: 'model' })) }));

describe('the endpoint’s models', () => {
  test('where it asks: {baseUrl}/models after a version, else /v1/models first', () => {
    assert.deepEqual(modelListUrls('http://h:1/v1/'), [{ baseUrl: 'http://h:1/v1', url: 'http://h:1/v1/models' }]);
    assert.deepEqual(modelListUrls('http://h:1'), [
      { baseUrl: 'http://h:1/v1', url: 'http://h:1/v1/models' },
      { baseUrl: 'http://h:1', url: 'http://h:1/models' },
    ]);
  });

  test('parseModelIds: sorted, unique, strings only, capped', () => {
    assert.deepEqual(parseModelIds({ data: [{ id: 'b' }, { id: 'a' }, { id: 'b' }, { id: 3 }, null] }), ['a', 'b']);
    assert.equal(parseModelIds({ models: [] }), undefined);
    assert.equal(parseModelIds({ data: Array.from({ length: 50 }, (_, i) => ({ id: `m${i}` })) }, 10)!.length, 10);
  });

  test('lists at {baseUrl}/models, without a key unless one is given', async () => {
    const { base, seen } = await serve((req, res) =>
      req.url === '/v1/models' ? list(res, ['qwen', 'llama3.2']) : res.writeHead(404).end(),
    );
    assert.deepEqual(await listEndpointModels(`${base}/v1`), {
      ok: true,
      baseUrl: `${base}/v1`,
      ids: ['llama3.2', 'qwen'],
    });
    assert.deepEqual(seen, [{ url: '/v1/models' }]);
    await listEndpointModels(`${base}/v1`, { apiKey: 'sk-1' });
    assert.equal(seen[1]!.authorization, 'Bearer sk-1');
  });

  test('a base URL without /v1 gains it when /v1/models answers, else keeps its own /models', async () => {
    const v1 = await serve((req, res) => (req.url === '/v1/models' ? list(res, ['m']) : res.writeHead(404).end()));
    assert.deepEqual(await listEndpointModels(v1.base), { ok: true, baseUrl: `${v1.base}/v1`, ids: ['m'] });
    const plain = await serve((req, res) =>
      req.url === '/openai/models' ? list(res, ['g']) : res.writeHead(404).end(),
    );
    assert.deepEqual(await listEndpointModels(`${plain.base}/openai`), {
      ok: true,
      baseUrl: `${plain.base}/openai`,
      ids: ['g'],
    });
    assert.deepEqual(
      plain.seen.map((s) => s.url),
      ['/openai/v1/models', '/openai/models'],
    );
  });

  test('failures say why and never throw: status, not a list, a redirect (not followed, so no key leaves), size, time', async () => {
    const other = await serve((_req, res) => list(res, ['stolen']));
    const { base } = await serve((req, res) => {
      if (req.url === '/401/models') return void res.writeHead(401).end('{"error":"no key"}');
      if (req.url === '/html/models') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<html>');
      if (req.url === '/moved/models') return void res.writeHead(307, { location: `${other.base}/v1/models` }).end();
      if (req.url === '/huge/models')
        return void list(
          res,
          Array.from({ length: 5000 }, (_, i) => `model-with-a-long-name-${i}`),
        );
      if (req.url === '/slow/models') return; // never answers
      res.writeHead(404).end();
    });
    const reason = async (path: string, extra = {}) => {
      const got = await listEndpointModels(`${base}${path}`, extra);
      assert.equal(got.ok, false);
      return (got as { reason: string }).reason;
    };
    assert.match(await reason('/401'), /\/401\/models: HTTP 401/);
    assert.match(await reason('/html'), /\/html\/models: not JSON/);
    assert.match(await reason('/moved', { apiKey: 'sk-secret' }), /\/moved\/models: fetch failed/);
    assert.deepEqual(other.seen, [], 'the redirect target got nothing, so never the key');
    assert.match(await reason('/huge', { maxBytes: 10_000 }), /larger than 10 KB/);
    const started = Date.now();
    assert.match(await reason('/slow', { timeoutMs: 300 }), /no answer in 0\.3 s/);
    assert.ok(Date.now() - started < 3_000);
  });
});
