// The attacks on OAuth sign-in, each played over the hub's API against real authorization servers
// (fixtures/servers/oauth.mjs): a mix-up that would steal another server's code, authorization
// endpoints with other schemes, blind SSRF from a server on another host (a network namespace), and
// a pre-registered client secret sent to whichever authorization server a server names.
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { after, describe, test } from 'node:test';
import { AuthManager } from '../../src/core/auth/manager';
import type { SignInUi } from '../../src/core/auth/signInUi';
import { LoopbackReceiver } from '../../src/core/auth/redirect';
import { MemorySecretStore } from '../memorySecretStore';
import type { HttpServerConfig } from '../../src/core/mcp/config/serverConfig';
import { ServerHub } from '../../src/core/mcp/hub/serverHub';
import type { Logger } from '../../src/core/base/logger';
import { createTestHost, type TestHost } from '../netns';
import { followInBrowser, startOAuthFixture, startOAuthFixtureIn, type OAuthFixture } from '../oauthFixture';

const PER_TEST = { timeout: 60_000 };
const CIMD = 'https://minagent.example/oauth/client.json';
const fixtures: OAuthFixture[] = [];
const cleanups: Array<() => unknown> = [];
after(async () => {
  fixtures.forEach((f) => f.stop());
  for (const c of cleanups.reverse()) await c();
});

async function fixture(...args: string[]): Promise<OAuthFixture> {
  const f = await startOAuthFixture(...args);
  fixtures.push(f);
  return f;
}

interface Setup {
  hub: ServerHub;
  manager: AuthManager;
  lines: string[];
  opened: URL[];
}

async function setup(
  servers: Array<Pick<HttpServerConfig, 'name' | 'url'> & { oauth?: HttpServerConfig['oauth'] }>,
  ui: Partial<SignInUi> = {},
): Promise<Setup> {
  const receiver = await LoopbackReceiver.start();
  cleanups.push(() => receiver.dispose());
  const opened: URL[] = [];
  const manager = new AuthManager({
    secrets: new MemorySecretStore(),
    receiver,
    interaction: 'ask',
    clientMetadataUrl: CIMD,
    ui: { open: async (url) => (opened.push(url), followInBrowser(url)), ...ui },
  });
  const lines: string[] = [];
  const log: Logger = {
    trace: (m) => lines.push(m),
    info: (m) => lines.push(m),
    warn: (m) => lines.push(m),
    error: (m) => lines.push(m),
  };
  const hub = new ServerHub({ logger: log, auth: (config, l) => manager.forServer(config, l) });
  cleanups.push(() => hub.closeAll());
  hub.reconcile(
    servers.map((s) => ({ type: 'http', headers: {}, autoApprove: [], ...s }) as HttpServerConfig),
    [],
  );
  await hub.whenIdle();
  return { hub, manager, lines, opened };
}

async function signIn(s: Setup, server: string): Promise<void> {
  s.manager.requestSignIn(server);
  s.hub.restart(server);
  await s.hub.whenIdle();
}

const stateOf = (s: Setup, name: string) => s.hub.server(name)!.state;
const messageOf = (s: Setup, name: string) => {
  const st = stateOf(s, name);
  return st.kind === 'error' || st.kind === 'signIn' ? st.message : '';
};

describe('OAuth attacks', () => {
  test(
    'mix-up: a hostile authorization server sends the browser to the honest one with the redirect of the honest one; the callback is refused and the hostile token endpoint gets no code or verifier',
    PER_TEST,
    async () => {
      // The honest authorization server sends no `iss` (RFC 9207), so only the per-server redirect stands between.
      const honest = await fixture('--cimd', '--iss', 'none');
      const evil = await fixture('--cimd', '--iss', 'none', '--mixup-to', honest.as, '--mixup-resource', honest.mcp);
      const s = await setup([
        { name: 'honest', url: honest.mcp },
        { name: 'evil', url: evil.mcp },
      ]);
      await signIn(s, 'evil');
      assert.ok(
        evil.events.some((e) => e.kind === 'mixup'),
        'the hostile server played the mix-up',
      );
      assert.ok(
        honest.events.some((e) => e.kind === 'authorize' && e.resource === honest.mcp),
        'the browser reached the honest authorization server for the honest resource',
      );
      assert.deepEqual(
        evil.events.filter((e) => e.kind === 'token'),
        [],
        'nothing reached the hostile token endpoint',
      );
      assert.deepEqual(
        honest.events.filter((e) => e.kind === 'issued'),
        [],
        'no token was issued for the honest server',
      );
      assert.equal(stateOf(s, 'evil').kind, 'error');
      assert.match(
        messageOf(s, 'evil'),
        /^mix-up refused: the browser came back through another authorization server's address/,
      );
    },
  );

  test(
    "mix-up keeping the hostile redirect: the honest server's `iss` names another issuer and the code is never redeemed",
    PER_TEST,
    async () => {
      const honest = await fixture('--cimd');
      const evil = await fixture(
        '--cimd',
        '--iss',
        'none',
        '--mixup-to',
        honest.as,
        '--mixup-resource',
        honest.mcp,
        '--mixup-keep-redirect',
      );
      const s = await setup([
        { name: 'honest', url: honest.mcp },
        { name: 'evil', url: evil.mcp },
      ]);
      await signIn(s, 'evil');
      assert.ok(
        honest.events.some((e) => e.kind === 'authorize'),
        'the browser reached the honest authorization server',
      );
      assert.deepEqual(
        evil.events.filter((e) => e.kind === 'token'),
        [],
        'nothing reached the hostile token endpoint',
      );
      assert.equal(stateOf(s, 'evil').kind, 'error');
    },
  );

  test('a callback without `iss` is refused when the authorization server says it sends one', PER_TEST, async () => {
    const f = await fixture('--iss', 'missing');
    const s = await setup([{ name: 'remote', url: f.mcp }]);
    await signIn(s, 'remote');
    assert.ok(f.events.some((e) => e.kind === 'authorize'));
    assert.deepEqual(
      f.events.filter((e) => e.kind === 'token'),
      [],
      'the code was never redeemed',
    );
    assert.equal(stateOf(s, 'remote').kind, 'error');
  });

  test(
    'an error callback is checked for `iss` too: in the name of another issuer, or without the one promised, it is refused as a mix-up',
    PER_TEST,
    async () => {
      for (const [iss, shown] of [
        ['ok', /^sign in needed for "remote": the authorization server did not sign you in \(access_denied\)$/],
        [
          'wrong',
          /^mix-up refused: an error came back in the name of another authorization server than http:\/\/127\.0\.0\.1:\d+; it was not taken as the answer$/,
        ],
        ['missing', /^mix-up refused: an error came back without the issuer http:\/\/127\.0\.0\.1:\d+ says it sends/],
      ] as const) {
        const f = await fixture('--deny', '--iss', iss);
        const s = await setup([{ name: 'remote', url: f.mcp }]);
        await signIn(s, 'remote');
        assert.ok(
          f.events.some((e) => e.kind === 'authorize'),
          `${iss}: the browser reached the authorization server`,
        );
        assert.match(messageOf(s, 'remote'), shown, `${iss}: what the server's row says`);
        await s.hub.closeAll();
      }
    },
  );

  for (const endpoint of [
    'file:///etc/passwd',
    'vscode://vscode.git/clone?url=https%3A%2F%2Fevil.example%2Frepo.git',
    'ms-msdt:/id%20PCWDiagnostic',
    'smb://evil.example/share',
    'http://203.0.113.7/authorize',
  ]) {
    test(
      `an authorization endpoint ${endpoint.split(':')[0]}:${endpoint.startsWith('http:') ? ' (plain http off this machine)' : ''} never reaches the browser; the error names the server`,
      PER_TEST,
      async () => {
        const f = await fixture('--authorization-endpoint', endpoint);
        const s = await setup([{ name: 'evil', url: f.mcp }]);
        await signIn(s, 'evil');
        assert.deepEqual(s.opened, [], 'nothing was opened');
        assert.equal(stateOf(s, 'evil').kind, 'error');
        assert.match(
          messageOf(s, 'evil'),
          /^server "evil": refused to open its authorization endpoint: it uses (the scheme|plain http)/,
        );
      },
    );
  }

  test(
    'a pre-registered client and its secret go only to their issuer: a server that names another authorization server gets neither',
    PER_TEST,
    async () => {
      const owner = await fixture('--no-dcr', '--preregistered', 'my-app:the-secret-value');
      const evil = await fixture('--no-dcr', '--preregistered', 'my-app');
      const s = await setup([
        {
          name: 'remote',
          url: evil.mcp,
          oauth: { clientId: 'my-app', clientSecret: 'the-secret-value', issuer: owner.as },
        },
      ]);
      await signIn(s, 'remote');
      assert.equal(stateOf(s, 'remote').kind, 'error');
      // The client ID is bound to the same issuer as its secret: neither is sent.
      assert.match(
        messageOf(s, 'remote'),
        /its client ID was given for http:\/\/127\.0\.0\.1:\d+, but the server now names http:\/\/127\.0\.0\.1:\d+ as its authorization server; the client ID was not sent/,
      );
      assert.ok(
        !JSON.stringify(evil.events).includes('the-secret-value'),
        'the secret never reached the other authorization server',
      );
      assert.deepEqual(
        evil.events.filter((e) => e.kind === 'authorize' || e.kind === 'token'),
        [],
      );
    },
  );

  test(
    'a client secret written before secrets were bound is asked about once, naming the issuer found; declined, nothing is sent; confirmed, the sign-in completes',
    PER_TEST,
    async () => {
      const f = await fixture('--no-dcr', '--preregistered', 'my-app:the-secret-value');
      const asked: string[] = [];
      let answer = false;
      const s = await setup(
        [{ name: 'remote', url: f.mcp, oauth: { clientId: 'my-app', clientSecret: 'the-secret-value' } }],
        {
          bindClientSecret: async (server, issuer) => (asked.push(`${server} ${issuer}`), answer),
        },
      );
      await signIn(s, 'remote');
      assert.deepEqual(asked, [`remote ${f.as}`]);
      assert.deepEqual(
        f.events.filter((e) => e.kind === 'authorize' || e.kind === 'token'),
        [],
        'declined: nothing was sent',
      );
      answer = true;
      await signIn(s, 'remote');
      // Confirmed: the entry is written (by the editor), and the restart that follows signs in.
      await signIn(s, 'remote');
      assert.equal(stateOf(s, 'remote').kind, 'running');
      assert.deepEqual(asked, [`remote ${f.as}`, `remote ${f.as}`], 'asked once more, then not again');
    },
  );
});

describe('OAuth blind SSRF from a server on another host', () => {
  let host: TestHost | undefined;
  after(() => host?.dispose());
  const testHost = () => (host ??= createTestHost());

  /** A hostile MCP server on a public address of the test host. */
  async function hostile(...args: string[]): Promise<OAuthFixture> {
    const f = await startOAuthFixtureIn(testHost().wrap, '--host', testHost().publicAddress, ...args);
    fixtures.push(f);
    return f;
  }

  test(
    'resource_metadata pointing at the local network or this machine is never fetched, not even on Sign In',
    PER_TEST,
    async () => {
      const h = testHost();
      const lan = await h.victim(h.privateAddress);
      cleanups.push(() => lan.stop());
      let local = 0;
      const loop = createServer((c) => (local++, c.destroy()));
      await new Promise<void>((r) => loop.listen(0, '127.0.0.1', r));
      cleanups.push(() => loop.close());
      const loopPort = (loop.address() as { port: number }).port;
      const toLan = await hostile(
        '--resource-metadata',
        `https://${h.privateAddress}:${lan.port}/.well-known/oauth-protected-resource`,
      );
      const toLoop = await hostile(
        '--resource-metadata',
        `https://127.0.0.1:${loopPort}/.well-known/oauth-protected-resource`,
      );
      const s = await setup([
        { name: 'lan', url: toLan.mcp },
        { name: 'loop', url: toLoop.mcp },
      ]);
      await signIn(s, 'lan');
      await signIn(s, 'loop');
      assert.equal(lan.connections(), 0, 'nothing reached the address on the local network');
      assert.equal(local, 0, 'nothing reached this machine');
      assert.ok(
        s.lines.some((l) =>
          /server "lan": refused a sign-in request to 10\.99\.0\.2:\d+: 10\.99\.0\.2 is on the local network, and the server is on the internet/.test(
            l,
          ),
        ),
        s.lines.join('\n'),
      );
      assert.ok(
        s.lines.some((l) =>
          /server "loop": refused a sign-in request to 127\.0\.0\.1:\d+: 127\.0\.0\.1 is on this machine/.test(l),
        ),
        s.lines.join('\n'),
      );
    },
  );

  test(
    'a registration endpoint on the local network gets no POST: none without a click, and none after Sign In',
    PER_TEST,
    async () => {
      const h = testHost();
      const victim = await h.victim(h.privateAddress);
      cleanups.push(() => victim.stop());
      const plain = await hostile(
        '--as-on-mcp',
        '--registration-endpoint',
        `http://${h.privateAddress}:${victim.port}/register`,
      );
      const tls = await hostile(
        '--as-on-mcp',
        '--registration-endpoint',
        `https://${h.privateAddress}:${victim.port}/register`,
      );
      const s = await setup([
        { name: 'plain', url: plain.mcp },
        { name: 'tls', url: tls.mcp },
      ]);
      assert.equal(victim.connections(), 0, 'without a click nothing is registered anywhere');
      assert.equal(stateOf(s, 'plain').kind, 'signIn', messageOf(s, 'plain'));
      await signIn(s, 'plain');
      await signIn(s, 'tls');
      assert.equal(victim.connections(), 0, 'nothing reached the address on the local network');
      assert.match(messageOf(s, 'plain'), /refused the registration endpoint: it uses plain http to 10\.99\.0\.2:\d+/);
      assert.ok(
        s.lines.some((l) =>
          /server "tls": refused a sign-in request to 10\.99\.0\.2:\d+: 10\.99\.0\.2 is on the local network/.test(l),
        ),
        s.lines.join('\n'),
      );
      assert.ok(
        !JSON.stringify([stateOf(s, 'plain'), stateOf(s, 'tls')]).includes('private body'),
        'no victim text reaches the tree',
      );
    },
  );
});
