// The chat as a screen reader and a keyboard user meet it, in a real VS Code: what a user waits for is said in the
// chat's live regions (an answer done, an approval that waits with its tool, an error), and an automated audit
// (axe-core, in the chat's own frame and in an app's frame, the demo's chart) finds no serious or critical violation
// in the light, dark and both high-contrast themes.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe } from 'node:test';
import type { Frame } from 'playwright-core';
import { ROOT, SERVERS, waitFor } from '../helpers';
import { ask } from './chatSteps';
import { inDemoChat } from './mockChat';
import { e2eTest } from './prereqs';
import { staged, type Workbench } from './workbench';

const AXE = readFileSync(join(ROOT, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');

/** What a live region of the chat says now. */
const said = (chat: Frame, region: 'polite' | 'alert') => chat.locator(`#announce-${region}`).textContent();

/** axe-core's serious and critical violations in a frame's document (run through the debugger: no CSP applies). */
async function audit(frame: Frame): Promise<string[]> {
  const found = (await frame.evaluate(
    `${AXE}\n;axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) })))`,
  )) as Array<{ id: string; impact: string; nodes: string[] }>;
  return found
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.join(', ')}`);
}

describe('accessibility of the chat', () => {
  e2eTest(
    'the live regions say an answer done, an approval waiting and an error; axe finds nothing serious in four themes',
    async () => {
      let wb: Workbench | undefined;
      const stage = staged('a11y', () => wb);
      await inDemoChat(async ({ w, mock }) => {
        wb = w;
        await w.openMinAgent();
        await w.waitForRows('the servers running', (r) => r.some((x) => x.startsWith('analytics 2 tools')));
        let chat = await w.webview();
        await chat.locator('#model option', { hasText: 'mock-model' }).waitFor({ state: 'attached' });

        await stage('0-tree', async () => {
          // A running server's state is an icon to the eye: in words to a screen reader.
          assert.match(
            (await w.row('analytics').getAttribute('aria-label')) ?? '',
            /^server analytics, running, 2 tools · ~\d+ tokens$/,
          );
        });

        await stage('1-answer-done', async () => {
          assert.equal(await chat.locator('#transcript').getAttribute('role'), 'log');
          await ask(chat, 'What is MCP?');
          await waitFor(
            'the answer announced',
            async () => /^Answer done: /.test((await said(chat, 'polite')) ?? ''),
            60_000,
          );
        });

        await stage('2-approval-waiting', async () => {
          await ask(chat, 'Now use analytics');
          await waitFor(
            'the approval announced',
            async () => /^Approval needed: .+ of server analytics$/.test((await said(chat, 'polite')) ?? ''),
            60_000,
          );
          await chat.locator('.card').last().locator('button', { hasText: 'Allow once' }).click();
          await chat.locator('#send', { hasText: 'Send' }).waitFor({ timeout: 60_000 });
        });

        await stage('3-app', async () => {
          await ask(chat, 'Show me a chart');
          await chat
            .locator('.card.status-waiting', { hasText: 'show_chart' })
            .locator('button', { hasText: 'Allow once' })
            .click();
          await chat.locator('.app-consent button', { hasText: 'Show Apps of "charts"' }).click();
          await waitFor('the chart drawn', async () => (await appFrame(chat)?.locator('.bar').count()) === 3, 60_000);
        });

        await stage('4-error', async () => {
          await fetch(`http://127.0.0.1:${mock.port}/script`, {
            method: 'POST',
            body: JSON.stringify([{ status: 500 }]),
          });
          await ask(chat, 'this request fails');
          await waitFor('the error announced', async () => /^Error: /.test((await said(chat, 'alert')) ?? ''), 60_000);
          assert.match((await said(chat, 'alert')) ?? '', /500/);
        });

        await stage('5-audit', async () => {
          const report: string[] = [];
          const themes = [
            ['Light Modern', 'vscode-light'],
            ['Dark Modern', 'vscode-dark'],
            ['Dark High Contrast', 'vscode-high-contrast'],
            ['Light High Contrast', 'vscode-high-contrast-light'],
          ] as const;
          for (const [theme, kind] of themes) {
            // Chosen as a user does: Preferences: Color Theme, the theme's name, Enter.
            await w.command('Preferences: Color Theme');
            const input = w.page.locator('.quick-input-widget input');
            await input.fill(theme);
            await w.page.locator('.quick-input-list .monaco-list-row', { hasText: theme }).first().waitFor();
            await input.press('Enter');
            await waitFor(
              `the ${theme} theme in the chat`,
              async () => {
                chat = await w.webview();
                return (await chat.locator('body').getAttribute('class'))?.split(' ').includes(kind) ?? false;
              },
              30_000,
            );
            await w.screenshot(`a11y-${kind}`);
            report.push(...(await audit(chat)).map((v) => `${theme}: ${v}`));
            // The app follows the theme (its host context) before it is audited.
            const app = appFrame(chat);
            assert.ok(app, 'the chart app is framed');
            await waitFor(
              `the app in the ${theme} theme`,
              async () =>
                (await app.locator('html').getAttribute('data-theme')) === (kind.includes('light') ? 'light' : 'dark'),
              30_000,
            );
            report.push(...(await audit(app)).map((v) => `${theme}, the chart app: ${v}`));
          }
          // Back to the light theme, for whatever this editor is used for next.
          await w.command('Preferences: Color Theme');
          await w.page.locator('.quick-input-widget input').fill('Light Modern');
          await w.page.locator('.quick-input-list .monaco-list-row', { hasText: 'Light Modern' }).first().waitFor();
          await w.page.locator('.quick-input-widget input').press('Enter');
          assert.deepEqual(report, [], report.join('\n'));
        });
      }, CHARTS);
    },
  );
});

/** The demo's chart app, as `npm run demo` adds it: an MCP App of ours. */
const CHARTS = {
  'minagent.servers': {
    charts: {
      command: 'node',
      args: [join(SERVERS, 'apps.mjs')],
      env: { APPS_HTML: join(ROOT, 'fixtures', 'apps', 'chart.html'), APPS_DEMO: '1' },
    },
  },
};

/** The frame of the app under the chat's card (the app server's address, through the editor's forwarding). */
const appFrame = (chat: Frame): Frame | undefined => chat.childFrames().find((f) => /\/app\/[\w-]{32}$/.test(f.url()));
