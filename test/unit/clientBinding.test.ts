// A client ID is bound to the authorization server it was given for (2026-07-28: MUST NOT be reused across
// authorization servers): a pre-registered one to its `oauth.issuer` or the first server it was used with, a typed one
// to the server it was typed for. A server that moves to another authorization server never gets the old client ID.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ClientChoice, type ClientChoiceHost } from '../../src/core/auth/clientChoice';
import { Consent } from '../../src/core/auth/signInUi';
import type { AuthRecord } from '../../src/core/auth/store';
import { silentLogger } from '../../src/core/base/logger';
import type { HttpServerConfig } from '../../src/core/mcp/config/serverConfig';

const A = 'https://auth-a.example';
const B = 'https://auth-b.example';
const noMetadataRegistration = {
  authorizationServerUrl: A,
  authorizationServerMetadata: {
    issuer: A,
    authorization_endpoint: `${A}/authorize`,
    token_endpoint: `${A}/token`,
    response_types_supported: ['code'],
  },
};

function choice(oauth: HttpServerConfig['oauth'], asked: string[] = []) {
  let issuer = A;
  let record: AuthRecord = { resource: 'https://mcp.example/mcp', discovery: noMetadataRegistration };
  const ui = {
    open: async () => true,
    askClientId: async (_server: string, at: string) => (asked.push(at), `typed-for-${new URL(at).host}`),
  };
  const host: ClientChoiceHost = {
    server: 'remote',
    config: {
      name: 'remote',
      type: 'http',
      url: 'https://mcp.example/mcp',
      headers: {},
      autoApprove: [],
      ...(oauth ? { oauth } : {}),
    },
    ui,
    consent: new Consent('remote', 'always', ui),
    log: silentLogger,
    issuer: () => issuer,
    redirectUrl: () => 'http://127.0.0.1:1/callback',
    clientMetadataUrl: () => undefined,
    clientMetadata: () => ({ redirect_uris: ['http://127.0.0.1:1/callback'] }),
    record: async () => record,
    update: async (change) => (record = change(record)),
    fetch: () => fetch,
    secret: () => undefined,
  };
  return {
    choice: new ClientChoice(host),
    moveTo: (next: string) => {
      issuer = next;
      record = {
        ...record,
        discovery: {
          authorizationServerUrl: next,
          authorizationServerMetadata: { ...noMetadataRegistration.authorizationServerMetadata, issuer: next },
        },
      };
    },
  };
}

describe('client IDs bound to their authorization server', () => {
  test('a pre-registered client ID with oauth.issuer goes only there; another server gets no client ID, and the error says why', async () => {
    const c = choice({ clientId: 'my-app', issuer: A });
    assert.equal((await c.choice.clientInformation())?.client_id, 'my-app');
    c.moveTo(B);
    await assert.rejects(
      c.choice.clientInformation(),
      /server "remote": its client ID was given for https:\/\/auth-a\.example, but the server now names https:\/\/auth-b\.example as its authorization server; the client ID was not sent/,
    );
  });

  test('a pre-registered client ID without oauth.issuer is bound to the first authorization server it is used with', async () => {
    const c = choice({ clientId: 'my-app' });
    assert.equal((await c.choice.clientInformation())?.client_id, 'my-app');
    assert.equal((await c.choice.clientInformation())?.client_id, 'my-app', 'the same server again: the same ID');
    c.moveTo(B);
    await assert.rejects(
      c.choice.clientInformation(),
      /its client ID was used with https:\/\/auth-a\.example, but the server now names https:\/\/auth-b\.example .*add "oauth\.issuer": "https:\/\/auth-b\.example" to the entry/,
    );
  });

  test('a typed client ID is asked for again when the server names another authorization server', async () => {
    const asked: string[] = [];
    const c = choice(undefined, asked);
    assert.equal((await c.choice.clientInformation())?.client_id, 'typed-for-auth-a.example');
    assert.equal(
      (await c.choice.clientInformation())?.client_id,
      'typed-for-auth-a.example',
      'kept for its own server',
    );
    c.moveTo(B);
    assert.equal((await c.choice.clientInformation())?.client_id, 'typed-for-auth-b.example');
    assert.deepEqual(asked, [A, B], 'asked once per authorization server');
  });
});
