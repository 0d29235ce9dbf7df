// The loopback server apps are framed from: it serves a published document with its own policy,
// only to a request that names this server as its host (a page elsewhere that points its name at
// 127.0.0.1 gets nothing), only by GET, and nothing once revoked or never published. Behind the
// editor's forwarding (code-server's /proxy/<port>/) it publishes forwarded addresses and takes the
// forwarded Host.
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
    // Sandboxed by its own policy too: opened without the frame's sandbox attribute it still runs in an opaque origin.
    assert.equal(ok.headers['content-security-policy'], "default-src 'none'; sandbox allow-scripts");
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

test("behind the editor's forwarding: forwarded addresses, the forwarded Host, the prefix stripped or passed on", async () => {
  let asked = '';
  const server = await AppServer.start(async (loopback) => {
    asked = loopback;
    return `https://editor.example/proxy/${new URL(loopback).port}`;
  });
  try {
    const port = new URL(asked).port;
    assert.equal(asked, `http://127.0.0.1:${port}/`);
    assert.equal(
      server.origin,
      `https://editor.example/proxy/${port}/`,
      'frame-src names the forwarding, path and all',
    );
    const { url } = server.publish({ html: '<p>app</p>', csp: "default-src 'none'", clipboardWrite: false });
    assert.match(url, new RegExp(`^https://editor\\.example/proxy/${port}/app/[A-Za-z0-9_-]{32}$`));
    const token = url.slice(url.lastIndexOf('/') + 1);
    const direct = `http://127.0.0.1:${port}`;
    // code-server's /proxy/ strips its prefix and keeps the browser's Host; /absproxy/-style forwarding passes it on.
    assert.equal((await get(`${direct}/app/${token}`, { host: 'editor.example' })).status, 200);
    assert.equal((await get(`${direct}/proxy/${port}/app/${token}`, { host: 'editor.example' })).status, 200);
    assert.equal((await get(`${direct}/app/${token}`)).status, 200, 'and the loopback, as before');
    assert.equal((await get(`${direct}/app/${token}`, { host: 'evil.example' })).status, 421);
    assert.equal((await get(`${direct}/other/app/${token}`, { host: 'editor.example' })).status, 404);
  } finally {
    server.dispose();
  }
});

test('a forwarding that fails or is not http(s) leaves the loopback address', async () => {
  for (const externalize of [
    async () => {
      throw new Error('no forwarding');
    },
    async () => 'vscode://minagent/app',
  ]) {
    const server = await AppServer.start(externalize);
    try {
      assert.match(server.origin, /^http:\/\/127\.0\.0\.1:\d+$/);
    } finally {
      server.dispose();
    }
  }
});
