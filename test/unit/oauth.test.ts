// The OAuth pieces that need no server: settings validation, the token file, the store's keys, the fetch guard.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { defaultAuthFile, FileSecretStore } from '../../src/core/auth/fileStore';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AddressPolicy, endpointProblem } from '../../src/core/auth/endpoints';
import { CredentialOriginError, EndpointRefused, guardedFetch } from '../../src/core/auth/guardedFetch';
import { MixUpRefused, PendingCallbacks, redirectRoute } from '../../src/core/auth/redirect';
import { addressClass } from '../../src/core/net/addresses';
import { AuthRecordStore } from '../../src/core/auth/store';
import { MemorySecretStore } from '../memorySecretStore';
import { parseServers } from '../../src/core/mcp/config/parseServers';

describe('oauth settings', () => {
  test('a pre-registered client ID is read; its secret is a secret', () => {
    const { servers, problems } = parseServers(
      {
        gh: {
          type: 'http',
          url: 'https://mcp.example/mcp',
          oauth: { clientId: 'abc', clientSecret: '${env:GH_SECRET}' },
        },
      },
      { env: { GH_SECRET: 'very-secret-value' } },
    );
    assert.deepEqual(problems, []);
    const s = servers[0]!;
    assert.ok(s.type === 'http');
    assert.deepEqual(s.oauth, { clientId: 'abc', clientSecret: 'very-secret-value' });
    assert.ok(s.secrets?.includes('very-secret-value'));
  });

  test('bad oauth entries name the server and the field', () => {
    const empty = parseServers({ gh: { type: 'http', url: 'https://x/mcp', oauth: { clientId: '' } } });
    assert.deepEqual(
      empty.problems.map((p) => [p.server, p.field, p.severity]),
      [['gh', 'oauth.clientId', 'error']],
    );
    const missing = parseServers({ gh: { type: 'http', url: 'https://x/mcp', oauth: { clientSecret: 'x' } } });
    assert.equal(missing.problems[0]?.field, 'oauth.clientId');
    const unknown = parseServers({ gh: { type: 'http', url: 'https://x/mcp', oauth: { clientId: 'a', scopes: 1 } } });
    // An unknown key is said by its path, and the entry is kept (never lost for one key).
    assert.deepEqual(
      unknown.problems.map((p) => [p.field, p.severity]),
      [['oauth.scopes', 'warning']],
    );
    assert.equal(unknown.servers.length, 1);
    const stdio = parseServers({ local: { command: 'node', oauth: { clientId: 'a' } } });
    assert.deepEqual(
      stdio.problems.map((p) => [p.field, p.severity]),
      [['oauth', 'warning']],
    );
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
    await store.update('id-1', 'https://a.example/mcp', (r) => ({
      ...r,
      tokens: { access_token: 'tok-a', token_type: 'Bearer' },
    }));
    assert.equal((await store.read('id-1', 'https://a.example/mcp'))?.tokens?.access_token, 'tok-a');
    assert.equal(await store.read('id-2', 'https://a.example/mcp'), undefined);
    assert.equal(await store.read('id-1', 'https://b.example/mcp'), undefined);
    // A record moved under another key (a tampered store) still does not answer for another resource.
    await secrets.store(
      AuthRecordStore.key('id-1', 'https://b.example/mcp'),
      (await secrets.get(AuthRecordStore.key('id-1', 'https://a.example/mcp')))!,
    );
    assert.equal(await new AuthRecordStore(secrets).read('id-1', 'https://b.example/mcp'), undefined);
  });
});

/** A local HTTP server that records what reaches it and answers each request with `reply`. */
async function recorder(
  reply: (req: IncomingMessage, res: ServerResponse) => void = (_q, r) => void r.end('{}'),
): Promise<{ origin: string; seen: Array<{ url: string; headers: IncomingMessage['headers'] }>; close(): void }> {
  const seen: Array<{ url: string; headers: IncomingMessage['headers'] }> = [];
  const server = createServer((req, res) => {
    seen.push({ url: req.url ?? '', headers: req.headers });
    req.resume().on('end', () => reply(req, res));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, close: () => server.close() };
}

describe('credential origins', () => {
  test('the entry headers and a bearer token reach the server only; a code or refresh token only the issuer', async () => {
    const mcp = await recorder();
    const as = await recorder();
    const evil = await recorder();
    // localhost and 127.0.0.1 are different origins on one machine.
    const auth = as.origin.replace('127.0.0.1', 'localhost');
    const fetch = guardedFetch(globalThis.fetch, {
      server: 'remote',
      serverUrl: `${mcp.origin}/mcp`,
      headerNames: ['X-Api-Key'],
      issuer: () => auth,
    });
    try {
      await fetch(`${mcp.origin}/mcp`, { headers: { 'x-api-key': 'k', authorization: 'Bearer t' } });
      await fetch(`${auth}/.well-known/oauth-authorization-server`, {
        headers: { 'x-api-key': 'k', authorization: 'Bearer t' },
      });
      assert.equal(mcp.seen[0]!.headers['x-api-key'], 'k');
      assert.equal(mcp.seen[0]!.headers.authorization, 'Bearer t');
      assert.equal(as.seen[0]!.headers['x-api-key'], undefined);
      assert.equal(as.seen[0]!.headers.authorization, undefined);

      const body = new URLSearchParams({ grant_type: 'refresh_token', refresh_token: 'r' });
      await fetch(`${auth}/token`, { method: 'POST', body, headers: { authorization: 'Basic abc' } });
      assert.equal(as.seen.at(-1)!.headers.authorization, 'Basic abc', 'client authentication is kept at the issuer');
      const other = evil.origin.replace('127.0.0.1', '127.0.0.2');
      await assert.rejects(fetch(`${other}/token`, { method: 'POST', body }), CredentialOriginError);
      await assert.rejects(
        fetch(`${other}/token`, { method: 'POST', body: 'grant_type=authorization_code&code=c' }),
        /an authorization code to http:\/\/127\.0\.0\.2/,
      );
      assert.equal(evil.seen.length, 0, 'nothing was sent');
    } finally {
      [mcp, as, evil].forEach((s) => s.close());
    }
  });

  test('a sign-in endpoint must be https (http on this machine): file:, vscode:, smb: and plain http elsewhere are refused by name', async () => {
    const refusals: string[] = [];
    const fetch = guardedFetch(globalThis.fetch, {
      server: 'evil',
      serverUrl: 'http://127.0.0.1:9/mcp',
      headerNames: [],
      issuer: () => undefined,
      onRefused: (m) => refusals.push(m),
    });
    for (const url of [
      'file:///etc/passwd',
      'vscode://vscode.git/clone?url=x',
      'smb://host/share',
      'ms-msdt:/id',
      'http://203.0.113.9/.well-known/oauth-authorization-server',
    ]) {
      await assert.rejects(
        fetch(url),
        (err: Error) =>
          err instanceof EndpointRefused && /^server "evil": refused a sign-in endpoint that /.test(err.message),
        url,
      );
    }
    assert.equal(refusals.length, 5);
    assert.equal(endpointProblem('https://auth.example/authorize'), undefined);
    assert.equal(endpointProblem('http://localhost:8080/authorize'), undefined);
    assert.equal(endpointProblem('http://[::1]:8080/authorize'), undefined);
    assert.match(endpointProblem('javascript:alert(1)') ?? '', /scheme "javascript:"/);
  });

  test('a discovery redirect is followed only after the same checks', async () => {
    const target = await recorder();
    const hop = await recorder((_req, res) => void res.writeHead(302, { location: 'file:///etc/passwd' }).end());
    const fetch = guardedFetch(globalThis.fetch, {
      server: 'remote',
      serverUrl: `${hop.origin}/mcp`,
      headerNames: [],
      issuer: () => undefined,
    });
    try {
      await assert.rejects(
        fetch(`${hop.origin}/.well-known/oauth-protected-resource`),
        /refused a redirect of a sign-in request: the next address uses the scheme "file:"/,
      );
    } finally {
      [target, hop].forEach((s) => s.close());
    }
  });
});

describe('addresses', () => {
  test('loopback, private and public addresses, IPv4-mapped IPv6 included', () => {
    for (const a of ['127.0.0.1', '127.9.9.9', '0.0.0.0', '::1', '::', '::ffff:127.0.0.1'])
      assert.equal(addressClass(a), 'loopback', a);
    for (const a of [
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      'fd00::1',
      'fe80::1',
      '::ffff:10.0.0.1',
    ])
      assert.equal(addressClass(a), 'private', a);
    for (const a of ['8.8.8.8', '203.0.113.2', '172.32.0.1', '2606:4700::1111'])
      assert.equal(addressClass(a), 'public', a);
  });

  test('a server may make us reach places no closer than itself', async () => {
    const policy = new AddressPolicy('https://mcp.example/mcp', async () => ['93.184.216.34']);
    const cls = await policy.server();
    assert.equal(cls, 'public');
    assert.equal(policy.check('93.184.216.35', cls), undefined);
    assert.match(
      policy.check('127.0.0.1', cls) ?? '',
      /127\.0\.0\.1 is on this machine, and the server is on the internet/,
    );
    assert.match(policy.check('10.0.0.5', cls) ?? '', /on the local network/);
    const lan = new AddressPolicy('http://10.0.0.2/mcp');
    assert.equal(lan.check('10.0.0.9', await lan.server()), undefined);
    assert.ok(lan.check('127.0.0.1', await lan.server()));
    const local = new AddressPolicy('http://localhost:3000/mcp');
    assert.equal(local.check('10.0.0.9', await local.server()), undefined);
  });
});

describe('redirect callbacks', () => {
  test('a callback reaches only the sign-in waiting for its state, through the route of its authorization server', async () => {
    const pending = new PendingCallbacks();
    const waiting = pending.wait({ state: 's1', route: 'as-1' });
    assert.equal(pending.deliver('as-1', new URLSearchParams({ state: 'forged', code: 'x' })), 'unknown');
    assert.equal(pending.deliver('as-1', new URLSearchParams({ code: 'x' })), 'unknown');
    assert.equal(pending.deliver('as-1', new URLSearchParams({ state: 's1', code: 'c' })), 'delivered');
    assert.equal((await waiting).get('code'), 'c');
    assert.equal(
      pending.deliver('as-1', new URLSearchParams({ state: 's1', code: 'again' })),
      'unknown',
      'a state is used once',
    );
    const controller = new AbortController();
    const cancelled = pending.wait({ state: 's2', route: 'as-1' }, controller.signal);
    controller.abort();
    await assert.rejects(cancelled, /cancelled/);
  });

  test("a callback for one authorization server that comes back through another's route is refused, and that sign-in fails", async () => {
    const pending = new PendingCallbacks();
    const hostile = pending.wait({ state: 'hostile-state', route: redirectRoute('https://evil.example') });
    assert.equal(
      pending.deliver(
        redirectRoute('https://honest.example'),
        new URLSearchParams({ state: 'hostile-state', code: 'honest-code' }),
      ),
      'refused',
    );
    await assert.rejects(hostile, MixUpRefused);
  });

  test('each authorization server has its own route, the same every time', () => {
    assert.equal(redirectRoute('https://auth.example'), redirectRoute('https://auth.example'));
    assert.notEqual(redirectRoute('https://auth.example'), redirectRoute('https://auth.example/tenant-2'));
    assert.match(redirectRoute('https://Auth.Example:8443/x'), /^auth\.example-8443-[0-9a-f]{10}$/);
  });
});
