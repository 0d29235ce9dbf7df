// OAuth for HTTP servers against a local authorization server (fixtures/servers/oauth.mjs), over real HTTP:
// sign-in, refresh, scope step-up, client registration in the spec's order, and the attacks on where tokens go.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { AuthManager } from '../../src/core/auth/manager';
import type { SignInUi } from '../../src/core/auth/signInUi';
import { LoopbackReceiver } from '../../src/core/auth/redirect';
import { MemorySecretStore } from '../memorySecretStore';
import type { HttpServerConfig } from '../../src/core/mcp/config/serverConfig';
import { ServerHub } from '../../src/core/mcp/hub/serverHub';
import type { Logger } from '../../src/core/base/logger';
import { followInBrowser, startOAuthFixture, type OAuthFixture } from '../oauthFixture';

/** Each test's own limit (a sign-in is a few HTTP round trips; the machine may be busy). */
const PER_TEST = { timeout: 45_000 };
const fixtures: OAuthFixture[] = [];
const receivers: LoopbackReceiver[] = [];
after(async () => {
  fixtures.forEach((f) => f.stop());
  await Promise.all(receivers.map((r) => r.dispose()));
});

async function fixture(...args: string[]): Promise<OAuthFixture> {
  const f = await startOAuthFixture(...args);
  fixtures.push(f);
  return f;
}

/** A logger that keeps every line at every level. */
function capture(): Logger & { lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    trace: (m) => lines.push(m),
    info: (m) => lines.push(m),
    warn: (m) => lines.push(m),
    error: (m) => lines.push(m),
  };
}

interface Setup {
  hub: ServerHub;
  manager: AuthManager;
  log: ReturnType<typeof capture>;
  opened: URL[];
  secrets: MemorySecretStore;
}

async function setup(
  f: OAuthFixture,
  opts: {
    interaction?: 'ask' | 'always' | 'never';
    oauth?: HttpServerConfig['oauth'];
    clientMetadataUrl?: string;
    ui?: Partial<SignInUi>;
    secrets?: MemorySecretStore;
  } = {},
): Promise<Setup> {
  const receiver = await LoopbackReceiver.start();
  receivers.push(receiver);
  const opened: URL[] = [];
  const secrets = opts.secrets ?? new MemorySecretStore();
  const manager = new AuthManager({
    secrets,
    receiver,
    interaction: opts.interaction ?? 'ask',
    ...(opts.clientMetadataUrl ? { clientMetadataUrl: opts.clientMetadataUrl } : {}),
    ui: {
      open: async (url) => {
        opened.push(url);
        return followInBrowser(url);
      },
      confirmReauthorization: async () => true,
      ...opts.ui,
    },
  });
  const log = capture();
  const hub = new ServerHub({ logger: log, auth: (config, l) => manager.forServer(config, l) });
  const config: HttpServerConfig = {
    name: 'remote',
    type: 'http',
    url: f.mcp,
    headers: {},
    autoApprove: [],
    ...(opts.oauth ? { oauth: opts.oauth } : {}),
  };
  hub.reconcile([config], []);
  await hub.whenIdle();
  return { hub, manager, log, opened, secrets };
}

async function signIn(s: Setup): Promise<void> {
  assert.ok(s.manager.requestSignIn('remote'));
  s.hub.restart('remote');
  await s.hub.whenIdle();
}

const state = (s: Setup) => s.hub.servers()[0]!.state;

/** No token the fixture issued appears in any log line, state message, stored chat text given, or result. */
function assertNoTokenLeaked(f: OAuthFixture, texts: string[]): void {
  const tokens = f.tokens();
  assert.ok(tokens.length > 0, 'the fixture issued tokens');
  for (const text of texts)
    for (const t of tokens) assert.ok(!text.includes(t), `a token leaked into: ${text.slice(0, 120)}`);
}

describe('OAuth for HTTP servers', () => {
  test(
    'a server that needs sign-in says so; Sign In runs discovery, DCR and PKCE, and its tools appear',
    PER_TEST,
    async () => {
      const f = await fixture();
      const s = await setup(f);
      const before = state(s);
      assert.equal(before.kind, 'signIn', 'the state asks for a sign-in, and is not a failure');
      assert.match(before.kind === 'signIn' ? before.message : '', /sign in needed/);
      assert.equal(s.opened.length, 0, 'no browser opens before the user asks');

      await signIn(s);
      assert.equal(state(s).kind, 'running');
      assert.deepEqual(
        s.hub.servers()[0]!.tools.map((t) => t.name),
        ['echo', 'admin_op'],
      );
      const result = await s.hub.registry.call('echo', { text: 'hi' });
      assert.equal(result, '[oauth] hi');
      const authorize = f.events.find((e) => e.kind === 'authorize')!;
      assert.equal(authorize.pkce, 'S256');
      assert.equal(authorize.resource, f.mcp, 'the resource indicator names the MCP server');
      assert.equal(s.opened.length, 1);
      assert.ok(
        f.events.some((e) => e.kind === 'register'),
        'registered dynamically',
      );
      assertNoTokenLeaked(f, [...s.log.lines, result, JSON.stringify(s.hub.servers().map((x) => x.state))]);
      await s.hub.closeAll();
    },
  );

  test('an expired access token is refreshed without the browser', PER_TEST, async () => {
    const f = await fixture();
    const s = await setup(f);
    await signIn(s);
    await f.expireAccessTokens();
    s.hub.restart('remote');
    await s.hub.whenIdle();
    assert.equal(state(s).kind, 'running');
    assert.equal(await s.hub.registry.call('echo', { text: 'again' }), '[oauth] again');
    assert.ok(
      f.events.some((e) => e.kind === 'issued' && e.grant === 'refresh_token'),
      'a refresh grant was used',
    );
    assert.equal(s.opened.length, 1, 'only the first sign-in opened the browser');
    // The tokens survive in the store: a new hub over the same secrets connects at once.
    const again = await setup(f, { secrets: s.secrets });
    assert.equal(state(again).kind, 'running');
    assertNoTokenLeaked(f, [...s.log.lines, ...again.log.lines]);
    await s.hub.closeAll();
    await again.hub.closeAll();
  });

  test(
    '403 insufficient_scope steps up: the user signs in for the wider scope and the call completes',
    PER_TEST,
    async () => {
      const f = await fixture();
      const s = await setup(f);
      await signIn(s);
      const result = await s.hub.registry.call('admin_op', {});
      assert.match(result, /^admin done with scopes .*admin/);
      assert.ok(f.events.some((e) => e.kind === 'mcp-403'));
      const second = f.events.filter((e) => e.kind === 'authorize')[1]!;
      assert.deepEqual(
        String(second.scope).split(' ').sort(),
        ['admin', 'read'],
        'the step-up asks for the union of scopes',
      );
      assert.equal(s.opened.length, 2);
      assertNoTokenLeaked(f, [...s.log.lines, result]);
      await s.hub.closeAll();
    },
  );

  test('a step-up the user declines ends the call with a sign-in error, not a token', PER_TEST, async () => {
    const f = await fixture();
    const s = await setup(f, { ui: { confirmReauthorization: async () => false } });
    await signIn(s);
    const result = await s.hub.registry.call('admin_op', {});
    assert.match(result, /sign in needed/);
    assert.equal(s.opened.length, 1);
    assertNoTokenLeaked(f, [...s.log.lines, result]);
    await s.hub.closeAll();
  });

  test('a pre-registered client ID (and secret) from the entry comes first: no registration', PER_TEST, async () => {
    const f = await fixture('--no-dcr', '--preregistered', 'my-app:my-app-secret-value');
    const s = await setup(f, { oauth: { clientId: 'my-app', clientSecret: 'my-app-secret-value', issuer: f.as } });
    await signIn(s);
    assert.equal(state(s).kind, 'running');
    assert.equal(f.events.find((e) => e.kind === 'authorize')!.client_id, 'my-app');
    assert.ok(!f.events.some((e) => e.kind === 'register'));
    assert.ok(!s.log.lines.join('\n').includes('my-app-secret-value'), 'the client secret is not logged');
    assert.ok(
      ![...s.secrets.values.values()].join('').includes('my-app-secret-value'),
      'the secret from settings is not copied into the store',
    );
    await s.hub.closeAll();
  });

  test('a Client ID Metadata Document URL is used where the server supports it', PER_TEST, async () => {
    const f = await fixture('--cimd');
    const s = await setup(f, { clientMetadataUrl: 'https://minagent.example/oauth/client.json' });
    await signIn(s);
    assert.equal(state(s).kind, 'running');
    assert.equal(f.events.find((e) => e.kind === 'authorize')!.client_id, 'https://minagent.example/oauth/client.json');
    assert.ok(!f.events.some((e) => e.kind === 'register'));
    await s.hub.closeAll();
  });

  test('with no registration and no metadata document, the user is asked for a client ID', PER_TEST, async () => {
    const f = await fixture('--no-dcr', '--preregistered', 'typed-by-user');
    const asked: string[] = [];
    const s = await setup(f, {
      ui: { askClientId: async (server, issuer) => (asked.push(`${server} ${issuer}`), 'typed-by-user') },
    });
    await signIn(s);
    assert.equal(state(s).kind, 'running');
    assert.deepEqual(asked, [`remote ${f.as}`]);
    assert.equal(f.events.find((e) => e.kind === 'authorize')!.client_id, 'typed-by-user');
    await s.hub.closeAll();
  });

  test('attack: metadata that points the token endpoint at another origin gets no code', PER_TEST, async () => {
    const f = await fixture('--token-endpoint-elsewhere');
    const s = await setup(f);
    await signIn(s);
    const st = state(s);
    assert.equal(st.kind, 'error');
    assert.match(
      st.kind === 'error' ? st.message : '',
      /refused to send an authorization code to http:\/\/127\.0\.0\.1:\d+/,
    );
    assert.ok(!f.events.some((e) => e.kind === 'elsewhere'), 'nothing reached the other origin');
    await s.hub.closeAll();
  });

  test(
    'attack: protected-resource metadata naming another resource is refused before any authorization',
    PER_TEST,
    async () => {
      const f = await fixture('--resource-elsewhere');
      const s = await setup(f);
      await signIn(s);
      const st = state(s);
      assert.equal(st.kind, 'error');
      assert.match(st.kind === 'error' ? st.message : '', /does not match/);
      assert.ok(!f.events.some((e) => e.kind === 'authorize' || e.kind === 'elsewhere'));
      await s.hub.closeAll();
    },
  );

  test(
    'attack: a server without resource metadata whose root metadata names another origin as issuer is refused',
    PER_TEST,
    async () => {
      const f = await fixture('--legacy-foreign-issuer');
      const s = await setup(f);
      await signIn(s);
      const st = state(s);
      assert.equal(st.kind, 'error');
      assert.match(st.kind === 'error' ? st.message : '', /Issuer mismatch/);
      assert.ok(!f.events.some((e) => e.kind === 'authorize' || e.kind === 'register'));
      await s.hub.closeAll();
    },
  );

  test('attack: a callback whose iss names another issuer is refused (no token issued)', PER_TEST, async () => {
    const f = await fixture('--iss', 'wrong');
    const s = await setup(f);
    await signIn(s);
    const st = state(s);
    assert.equal(st.kind, 'error');
    assert.ok(!f.events.some((e) => e.kind === 'token'), 'the code was never redeemed');
    await s.hub.closeAll();
  });

  test(
    'a sign-in from before each authorization server had its own redirect: its tokens keep working, and the next Sign In registers the client again',
    PER_TEST,
    async () => {
      const f = await fixture();
      const s = await setup(f);
      await signIn(s);
      assert.equal(f.events.filter((e) => e.kind === 'register').length, 1);
      // Rewrite the stored record as the earlier version wrote it: one redirect for every server.
      const [key, text] = [...s.secrets.values].find(([k]) => k.startsWith('minagent.oauth/'))!;
      const record = JSON.parse(text) as { client: { redirect_uris: string[] }; tokens?: unknown };
      record.client.redirect_uris = ['http://127.0.0.1:1/callback'];
      await s.secrets.store(key, JSON.stringify(record));
      const again = await setup(f, { secrets: s.secrets });
      assert.equal(state(again).kind, 'running', 'the old tokens still work');
      assert.equal(s.opened.length + again.opened.length, 1, 'no browser');
      delete record.tokens;
      await s.secrets.store(key, JSON.stringify(record));
      const third = await setup(f, { secrets: s.secrets });
      assert.equal(state(third).kind, 'signIn');
      await signIn(third);
      assert.equal(state(third).kind, 'running');
      const registrations = f.events.filter((e) => e.kind === 'register');
      assert.equal(registrations.length, 2, 'registered again for the new redirect');
      assert.match(
        String((registrations[1]!.redirect_uris as string[])[0]),
        /^http:\/\/127\.0\.0\.1:\d+\/callback\/127\.0\.0\.1-\d+-[0-9a-f]{10}$/,
      );
      assert.ok(third.log.lines.some((l) => /the client registered earlier names another redirect/.test(l)));
      await Promise.all([s, again, third].map((x) => x.hub.closeAll()));
    },
  );

  test('Sign Out forgets the tokens: the server needs a sign-in again', PER_TEST, async () => {
    const f = await fixture();
    const s = await setup(f);
    await signIn(s);
    assert.equal(state(s).kind, 'running');
    assert.ok(await s.manager.signOut('remote'));
    s.hub.restart('remote');
    await s.hub.whenIdle();
    const st = state(s);
    assert.equal(st.kind, 'signIn');
    const stored = [...s.secrets.values.values()].join('\n');
    for (const t of f.tokens()) assert.ok(!stored.includes(t), 'no token is kept after Sign Out');
    await s.hub.closeAll();
  });
});
