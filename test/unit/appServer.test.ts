// The loopback server apps are framed from: it serves a published document with its own policy,
// only to a request that names this server as its host (a page elsewhere that points its name at
// 127.0.0.1 gets nothing), only by GET, and nothing once revoked or never published.
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { test } from 'node:test';
import { AppServer } from '../../src/extension/apps/appServer';

function get(
  url: string,
  options: { host?: string; method?: string } = {},
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: u.hostname,
        port: u.port,
        path: u.pathname,
        method: options.method ?? 'GET',
        headers: options.host ? { host: options.host } : {},
      },
      (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

test('a published app is served with its policy; another host, another method, a guessed or revoked address get nothing', async () => {
  const server = await AppServer.start();
  try {
    assert.match(server.origin, /^http:\/\/127\.0\.0\.1:\d+$/);
    const { url, revoke } = server.publish({ html: '<p>app</p>', csp: "default-src 'none'", clipboardWrite: false });
    const ok = await get(url);
    assert.equal(ok.status, 200);
    assert.equal(ok.body, '<p>app</p>');
    assert.equal(ok.headers['content-security-policy'], "default-src 'none'");
    assert.equal(ok.headers['cache-control'], 'no-store');
    assert.equal(ok.headers['referrer-policy'], 'no-referrer');
    assert.match(String(ok.headers['permissions-policy']), /camera=\(\), microphone=\(\).*clipboard-write=\(\)/);
    // DNS rebinding: a page at evil.example whose name now points here.
    assert.equal((await get(url, { host: `evil.example:${new URL(url).port}` })).status, 421);
    assert.equal((await get(url, { method: 'POST' })).status, 405);
    assert.equal((await get(`${server.origin}/app/${'A'.repeat(32)}`)).status, 404);
    assert.equal((await get(`${server.origin}/`)).status, 404);
    revoke();
    assert.equal((await get(url)).status, 404, 'revoked with its frame');
    const clip = server.publish({ html: '', csp: "default-src 'none'", clipboardWrite: true });
    assert.doesNotMatch(
      String((await get(clip.url)).headers['permissions-policy']),
      /clipboard-write/,
      'clipboard write only when declared',
    );
  } finally {
    server.dispose();
  }
});
