// OAuth in a real VS Code (code-server): a server that needs a sign-in shows "sign in needed" and a
// Sign In action; Sign In opens the authorization page through openExternal, the (fixture) authorization
// server approves and redirects back, and the server's tools appear. No token reaches the log.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { startCodeServer } from './codeServer';
import { missingPrerequisites } from './prereqs';
import { Workbench } from './workbench';
import { startOAuthFixture, type OAuthFixture } from '../oauthFixture';

let fixture: OAuthFixture | undefined;
after(() => fixture?.stop());

/** Records the addresses the workbench asks the browser to open (openExternal ends in window.open). */
async function recordOpenedWindows(page: Page): Promise<void> {
  // A string, not a function: the test transpiler would add helpers the page does not have.
  await page.evaluate(`(() => {
    const open = window.open.bind(window);
    window.__minagentOpened = [];
    window.open = (url, ...rest) => { window.__minagentOpened.push(String(url)); return open(url, ...rest); };
  })()`);
}

describe('OAuth sign-in in VS Code', () => {
  // Its own limit rather than e2eTest's 300 s: code-server start, the sign-in and the reconnect, on a shared machine.
  test('a server that needs sign-in shows Sign In; after the authorization its tools appear', { timeout: 540_000 }, async () => {
    const missing = missingPrerequisites();
    if (missing.length) throw new Error(`e2e prerequisites are missing:\n  ${missing.join('\n  ')}`);
    const f = (fixture = await startOAuthFixture());
    const cs = await startCodeServer({ workspace: 'e2e', workspaceSettings: {}, userSettings: { 'minagent.connectTimeout': 120_000, 'minagent.servers': { remote: { type: 'http', url: f.mcp } } } });
    let wb: Workbench | undefined;
    try {
      wb = await Workbench.open(cs.url);
      const w = wb;
      await w.openMinAgent();
      await w.waitForRows('the server asking for a sign-in', (r) => r.includes('remote sign in needed') && r.includes('Sign In'), 240_000);
      assert.equal(f.events.filter((e) => e.kind === 'authorize').length, 0, 'nothing opens before the user asks');
      await w.screenshot('oauth-sign-in-needed');

      await recordOpenedWindows(w.page);
      // code-server hands a localhost address to the browser through its own port proxy (/proxy/PORT/), and
      // that proxy folds the "//" inside the query's resource indicator to "/" (the fixture then issues a token
      // for the wrong resource, which its MCP server rightly refuses). That window is stopped at the proxy;
      // the test follows the recorded address itself, as the user's browser would without the proxy.
      const asPort = new URL(f.as).port;
      await w.context.route(`**/proxy/${asPort}/**`, (route) => route.abort());
      await w.row('Sign In').click();
      // The workbench opens the authorization page in a new browser window (recorded above).
      const opened = await w.page.waitForFunction(`(window.__minagentOpened || []).find(u => u.includes('/authorize?'))`, undefined, { timeout: 120_000 });
      const authorizeUrl = String(await opened.jsonValue());
      const direct = authorizeUrl.replace(new RegExp(`^https?://[^/]+/proxy/${asPort}/`), `${f.as}/`);
      assert.ok(direct.startsWith(`${f.as}/authorize?`), authorizeUrl);
      assert.match(new URL(direct).searchParams.get('redirect_uri') ?? '', /^http:\/\/127\.0\.0\.1:\d+\/callback$/);
      // The fixture approves at once and redirects back to MinAgent's loopback address.
      const back = await fetch(direct);
      assert.match(await back.text(), /Signed in/);
      await w.waitForRows('the server running with its tools', (r) => r.some((x) => x.startsWith('remote 2 tools')) && r.includes('echo') && r.includes('admin_op'), 240_000);
      assert.ok(!(await w.treeRows()).includes('Sign In'), 'the Sign In action is gone');
      await w.screenshot('oauth-signed-in');
      assert.ok(f.events.some((e) => e.kind === 'issued' && e.grant === 'authorization_code'));
      const log = cs.minagentLog();
      assert.match(log, /oauth: sign-ins return to http:\/\/127\.0\.0\.1:\d+\/callback/);
      for (const t of f.tokens()) assert.ok(!log.includes(t), 'no token in the log');
    } catch (err) {
      const shot = await wb?.screenshot('oauth-failure');
      throw new Error(`${(err as Error).message} (screenshot: ${shot})\nMinAgent log:\n${cs.minagentLog().split('\n').filter((l) => l.includes('[remote]') || l.includes('oauth')).join('\n')}\nauthorization server: ${JSON.stringify(f.events.map(({ access_token: _a, refresh_token: _r, ...e }) => e))}`);
    } finally {
      await wb?.close();
      await cs.stop();
    }
  });
});
