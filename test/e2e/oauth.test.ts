// OAuth in a real VS Code (code-server), as a user clicks it: Add Server (HTTP) on a server behind an
// authorization server, "sign in needed" in the tree and a notice, Sign In clicked, the dialog that
// names the authorization server, the authorization page in the browser window the editor opened
// (through whatever address it opened: code-server's port proxy), Allow clicked, and the tools
// appear. Then the mix-up, played by a hostile server the user signs in to from its notice: the
// honest server's code never reaches it. No token reaches the log.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { inMockChat } from './mockChat';
import { missingPrerequisites } from './prereqs';
import type { Workbench } from './workbench';
import { waitFor } from '../helpers';
import { startOAuthFixture, type OAuthFixture } from '../oauthFixture';

const fixtures: OAuthFixture[] = [];
after(() => fixtures.forEach((f) => f.stop()));

async function fixture(...args: string[]): Promise<OAuthFixture> {
  const f = await startOAuthFixture(...args);
  fixtures.push(f);
  return f;
}

/** Clicks the button of the modal dialog that names the authorization server, after checking its text. */
async function confirmDialog(page: Page, text: RegExp): Promise<void> {
  const dialog = page.locator('.monaco-dialog-box');
  await dialog.waitFor({ timeout: 60_000 });
  assert.match((await dialog.innerText()).replace(/\s+/g, ' '), text);
  await dialog.locator('.monaco-button', { hasText: 'Open Browser' }).click();
}

/** The browser window the editor opens for the authorization page, once it has loaded something. */
async function nextWindow(wb: Workbench, click: () => Promise<void>): Promise<Page> {
  const popup = wb.context.waitForEvent('page', { timeout: 120_000 });
  popup.catch(() => undefined);
  await click();
  const page = await popup;
  await page.waitForLoadState('domcontentloaded');
  return page;
}

/** MinAgent: Add Server, HTTP, the URL, the name, user settings: the clicks and keys a user makes. */
async function addHttpServer(w: Workbench, url: string, name: string): Promise<void> {
  const page = w.page;
  await w.command('MinAgent: Add Server');
  // Chosen by filtering to its one row and Enter: under load a click on the row as the list was still laid
  // out landed on "Command (stdio)", the row above it.
  await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Connect to a server by URL' }).first().waitFor();
  const input = page.locator('.quick-input-widget input');
  await input.fill('HTTP');
  await waitFor(
    'HTTP alone in the pick',
    async () => (await page.locator('.quick-input-list .monaco-list-row').count()) === 1,
  );
  await page.keyboard.press('Enter');
  await page.locator('.quick-input-widget', { hasText: 'The server URL' }).waitFor();
  await input.fill(url);
  await page.keyboard.press('Enter');
  await page.locator('.quick-input-widget', { hasText: 'A name for the server' }).waitFor();
  await input.fill(name);
  await page.keyboard.press('Enter');
  await page.locator('.quick-input-list .monaco-list-row', { hasText: 'User settings' }).first().click();
}

const toast = (page: Page, text: string) => page.locator('.notification-toast', { hasText: text });

describe('OAuth sign-in in VS Code', () => {
  // Its own limit rather than e2eTest's 300 s: code-server start, two sign-ins and reconnects, on a shared machine.
  test("Add Server (HTTP), Sign In in the tree, Allow in the browser window the editor opened: the tools appear; the mix-up from a hostile server's notice gets it nothing", {
    timeout: 600_000,
  }, async () => {
    const missing = missingPrerequisites();
    if (missing.length) throw new Error(`e2e prerequisites are missing:\n  ${missing.join('\n  ')}`);
    const f = await fixture('--consent');
    const honest = await fixture('--consent', '--cimd', '--iss', 'none');
    const evil = await fixture('--cimd', '--iss', 'none', '--mixup-to', honest.as, '--mixup-resource', honest.mcp);
    const pre = await fixture('--consent', '--no-dcr', '--preregistered', 'my-app:pre-secret-value');
    const userSettings = {
      'minagent.connectTimeout': 120_000,
      'minagent.oauth.clientMetadataUrl': 'https://minagent.example/oauth/client.json',
      'minagent.servers': {
        honest: { type: 'http', url: honest.mcp },
        // A pre-registered client written before secrets were bound to an issuer.
        pre: { type: 'http', url: pre.mcp, oauth: { clientId: 'my-app', clientSecret: 'pre-secret-value' } },
      },
    };
    let log = () => '';
    try {
      await inMockChat(
        'oauth',
        {},
        (r) => r.some((x) => x.startsWith('honest')),
        async ({ w, cs }) => {
          log = () => cs.minagentLog();
          const page = w.page;
          // Four servers and their rows: the Chat view is folded so the Tools tree has the room.
          await page.locator('.sidebar .pane-header', { hasText: 'Chat' }).first().click();
          await w.waitForRows(
            'the honest server asking for a sign-in',
            (r) => r.includes('honest sign in needed'),
            240_000,
          );

          // Add Server (HTTP), as a user adds one.
          await addHttpServer(w, f.mcp, 'remote');
          const rows = await w.waitForRows(
            'the added server asking for a sign-in',
            (r) => r.includes('remote sign in needed') && r.includes('Sign In'),
            240_000,
          );
          assert.ok(
            !rows.includes('Show Logs') && !rows.includes('Restart'),
            `a sign-in is not a failure: ${rows.join(' | ')}`,
          );
          assert.equal(
            f.events.filter((e) => e.kind === 'authorize' || e.kind === 'register').length,
            0,
            'nothing is registered or opened before the user asks',
          );
          await toast(page, 'server "remote" needs you to sign in').first().waitFor({ timeout: 60_000 });
          assert.equal(await toast(page, 'failed to start').count(), 0, 'a sign-in is not reported as a failure');
          // Nothing is in progress while the server waits for the user: no busy bar runs (and costs CPU) for as long as
          // the notice is up.
          const bar = toast(page, 'server "remote" needs you to sign in').first().locator('.monaco-progress-container');
          await waitFor(
            "the notice's progress bar settled",
            async () => !/\binfinite\b/.test((await bar.getAttribute('class')) ?? ''),
            10_000,
          );
          assert.match(
            (await bar.getAttribute('class')) ?? '',
            /\bdiscrete\b/,
            'the notice shows a measured (still) bar, not a busy one',
          );
          await w.screenshot('oauth-sign-in-needed');

          // Sign In in the tree: the dialog names the authorization server, then the browser window opens.
          // The Sign In row under "remote" (the honest server's is above it).
          const remoteRow = (await w.treeRows()).findIndex((r) => r.startsWith('remote '));
          const remoteSignIn = page.locator('.pane-body .monaco-list-row').nth(remoteRow + 1);
          assert.equal((await remoteSignIn.innerText()).trim(), 'Sign In');
          const popup = await nextWindow(w, async () => {
            await remoteSignIn.click();
            await confirmDialog(page, new RegExp(`Sign in to "remote" at 127\\.0\\.0\\.1:${new URL(f.as).port}\\?`));
          });
          await popup.locator('button', { hasText: 'Allow' }).click();
          await popup.waitForURL(/\/callback\//, { timeout: 60_000 });
          assert.match(await popup.locator('body').innerText(), /Signed in/);
          await w.waitForRows(
            'the server running with its tools',
            (r) => r.some((x) => x.startsWith('remote 2 tools')) && r.includes('echo') && r.includes('admin_op'),
            240_000,
          );
          const authorize = f.events.find((e) => e.kind === 'authorize')!;
          assert.equal(authorize.resource, f.mcp, 'the resource indicator arrived whole (no "//" folded)');
          await toast(page, 'server "remote" needs you to sign in')
            .first()
            .waitFor({ state: 'detached', timeout: 60_000 });
          await w.screenshot('oauth-signed-in');

          // The mix-up: a hostile server is added; the user signs in to it from its notice.
          await addHttpServer(w, evil.mcp, 'evil');
          await w.waitForRows(
            'the hostile server asking for a sign-in',
            (r) => r.includes('evil sign in needed'),
            240_000,
          );
          const notice = toast(page, 'server "evil" needs you to sign in').first();
          await notice.waitFor({ timeout: 60_000 });
          const hostilePopup = await nextWindow(w, async () => {
            await notice.locator('a', { hasText: 'Sign In' }).click();
            await confirmDialog(page, new RegExp(`Sign in to "evil" at 127\\.0\\.0\\.1:${new URL(evil.as).port}\\?`));
          });
          // The hostile authorization server sent the browser on to the honest one, whose page asks; the user allows.
          await hostilePopup.locator('button', { hasText: 'Allow' }).click();
          await hostilePopup.waitForURL(/\/callback\//, { timeout: 60_000 });
          assert.match(await hostilePopup.locator('body').innerText(), /another authorization server .* refused/);
          await w.waitForRows(
            'the hostile server failed with the mix-up named',
            (r) => r.some((x) => /mix-up/.test(x)),
            120_000,
          );
          assert.ok(evil.events.some((e) => e.kind === 'mixup'));
          assert.deepEqual(
            evil.events.filter((e) => e.kind === 'token'),
            [],
            'the honest code and verifier never reached the hostile server',
          );
          assert.deepEqual(
            honest.events.filter((e) => e.kind === 'issued'),
            [],
            'no honest token was issued',
          );
          await w.screenshot('oauth-mix-up-refused');

          // The pre-registered secret without an issuer: Sign In asks once whether it belongs to the
          // authorization server the server names; yes writes the issuer to the entry, and the sign-in goes on.
          const preRow = (await w.treeRows()).findIndex((r) => r.startsWith('pre '));
          await page
            .locator('.pane-body .monaco-list-row')
            .nth(preRow + 1)
            .click();
          const ask = page.locator('.monaco-dialog-box');
          await ask.waitFor({ timeout: 60_000 });
          assert.match(
            (await ask.innerText()).replace(/\s+/g, ' '),
            new RegExp(
              `The client secret of "pre" names no authorization server\\. Does it belong to 127\\.0\\.0\\.1:${new URL(pre.as).port}\\?`,
            ),
          );
          assert.deepEqual(
            pre.events.filter((e) => e.kind === 'authorize' || e.kind === 'token'),
            [],
            'nothing went before the answer',
          );
          const prePopup = await nextWindow(w, async () => {
            await ask.locator('.monaco-button', { hasText: 'Send It There' }).click();
            await confirmDialog(page, new RegExp(`Sign in to "pre" at 127\\.0\\.0\\.1:${new URL(pre.as).port}\\?`));
          });
          await prePopup.locator('button', { hasText: 'Allow' }).click();
          await w.waitForRows(
            'the pre-registered server running',
            (r) => r.some((x) => x.startsWith('pre 2 tools')),
            240_000,
          );
          const written = await cs.settingsText('user');
          assert.ok(written.includes(`"issuer": "${pre.as}"`), `the issuer is written to the entry: ${written}`);
          assert.equal(
            pre.events.filter((e) => e.kind === 'authorize').length,
            1,
            'one authorization: the browser opened once',
          );

          const text = cs.minagentLog();
          for (const t of [...f.tokens(), ...honest.tokens(), ...pre.tokens(), 'pre-secret-value'])
            assert.ok(!text.includes(t), 'no token or secret in the log');
        },
        { userSettings },
      );
    } catch (err) {
      // inMockChat's message names the screenshot.
      const events = (x: OAuthFixture) =>
        JSON.stringify(x.events.map(({ access_token: _a, refresh_token: _r, ...e }) => e));
      throw new Error(
        `${(err as Error).message}\nMinAgent log:\n${log()
          .split('\n')
          .filter((l) => /\[(remote|evil|honest)\]|oauth/.test(l))
          .join('\n')}\nremote: ${events(f)}\nevil: ${events(evil)}\nhonest: ${events(honest)}`,
      );
    }
  });
});
