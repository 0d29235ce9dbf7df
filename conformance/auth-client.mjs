#!/usr/bin/env node
// The conformance suite's client for its auth scenarios: the real `minagent` CLI (dist/cli.js) with its
// own token store, signing in headless (`--sign-in fetch`: the suite's authorization server approves at
// once). The suite appends the server URL and sets MCP_CONFORMANCE_SCENARIO and MCP_CONFORMANCE_CONTEXT
// (client credentials for the pre-registration scenario).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { discoverOAuthServerInfo } from '@modelcontextprotocol/client';

const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
// The Client ID Metadata Document URL the suite's CIMD scenario expects (auth/basic-cimd).
const CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json';

const url = process.argv.at(-1);
if (!url || !/^https?:\/\//.test(url)) {
  process.stderr.write('usage: auth-client.mjs SERVER_URL\n');
  process.exit(2);
}
const context = process.env.MCP_CONFORMANCE_CONTEXT ? JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT) : {};
const work = mkdtempSync(join(tmpdir(), 'minagent-conformance-'));
mkdirSync(join(work, '.vscode'));
// A client secret names the authorization server it was registered with (`oauth.issuer`), as the user who
// registered it knows: here read from the server's metadata, the way that user would look it up.
async function issuerOf(serverUrl) {
  const info = await discoverOAuthServerInfo(serverUrl);
  return info.authorizationServerMetadata?.issuer ?? String(info.authorizationServerUrl);
}
const oauth = context.client_id
  ? {
      clientId: context.client_id,
      ...(context.client_secret ? { clientSecret: context.client_secret, issuer: await issuerOf(url) } : {}),
    }
  : undefined;
const server = { type: 'http', url, ...(oauth ? { oauth } : {}) };
writeFileSync(join(work, '.vscode', 'settings.json'), JSON.stringify({ 'minagent.servers': { test: server } }));
const cli = (args) =>
  spawnSync(
    process.execPath,
    [
      join(ROOT, 'dist', 'cli.js'),
      '--trust',
      ...args,
      '--settings',
      join(work, '.vscode', 'settings.json'),
      '--sign-in',
      'fetch',
      '--client-metadata-url',
      CLIENT_METADATA_URL,
    ],
    {
      // A token store of its own per run, in a fresh config folder.
      env: { ...process.env, XDG_CONFIG_HOME: join(work, 'config') },
      stdio: 'inherit',
    },
  );
// Connecting lists the tools (tools/list); the call exercises a request after sign-in (and any step-up).
const code = cli(['call', 'test-tool', '{}']).status ?? 1;
rmSync(work, { recursive: true, force: true });
process.exit(code);
