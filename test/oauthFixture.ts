// Starts fixtures/servers/oauth.mjs (an MCP server behind a local OAuth server) and records its events.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { SERVERS } from './helpers';

export interface OAuthEvent {
  kind: string;
  [key: string]: unknown;
}

export interface OAuthFixture {
  as: string;
  mcp: string;
  elsewhere: string;
  events: OAuthEvent[];
  /** Every access and refresh token the server issued so far. */
  tokens(): string[];
  /** Makes every access token expire now (refresh tokens stay valid). */
  expireAccessTokens(): Promise<void>;
  stop(): void;
  child: ChildProcess;
}

export function startOAuthFixture(...args: string[]): Promise<OAuthFixture> {
  return startOAuthFixtureIn([], ...args);
}

/** The fixture started through `wrap` (e.g. `ip netns exec NAME`, to put it on another host). */
export async function startOAuthFixtureIn(wrap: string[], ...args: string[]): Promise<OAuthFixture> {
  const command = [...wrap, process.execPath, join(SERVERS, 'oauth.mjs'), ...args];
  const child = spawn(command[0]!, command.slice(1), { stdio: ['pipe', 'pipe', 'inherit'] });
  const events: OAuthEvent[] = [];
  const lines = createInterface({ input: child.stdout! });
  const urls = await new Promise<{ as: string; mcp: string; elsewhere: string }>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`oauth fixture exited with ${code}`)));
    lines.on('line', (line) => {
      if (line.startsWith('listening ')) resolve(JSON.parse(line.slice(10)));
      else if (line.startsWith('event ')) events.push(JSON.parse(line.slice(6)) as OAuthEvent);
    });
  });
  return {
    ...urls,
    events,
    child,
    tokens: () =>
      events.filter((e) => e.kind === 'issued').flatMap((e) => [e.access_token as string, e.refresh_token as string]),
    async expireAccessTokens() {
      const res = await fetch(`${urls.as}/_expire`, { method: 'POST' });
      await res.text();
    },
    stop: () => child.stdin?.end(),
  };
}

/** A "browser" that follows the authorization URL (the fixture approves at once) to the redirect. */
export async function followInBrowser(url: URL): Promise<boolean> {
  const res = await fetch(url);
  await res.text();
  return true;
}
