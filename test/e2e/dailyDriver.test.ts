// A daily driver, second pass (issue 53): what a new user met in the demo, each played as they met it,
// on the demo workspace (its chat on the mock model). Run on the shared demo editor by
// sharedDemoChat.test.ts; alone with an editor of its own.
import assert from 'node:assert/strict';
import { describe } from 'node:test';
import { waitFor } from '../helpers';
import { inDemoChat } from './mockChat';
import { ask, placement } from './chatSteps';
import { e2eTest } from './prereqs';
import type { Workbench } from './workbench';

const dialog = (w: Workbench, text: string) => w.page.locator('.monaco-dialog-box', { hasText: text });

describe('a daily driver, second pass', () => {
  e2eTest(
    'restart all asks; forgetting always-allowed tools picks nothing by itself; the trace asks before showing nothing; the Tools pane shows the servers; a sent message comes into view',
    async () => {
      await inDemoChat(async ({ w }) => {
        const stage = async (label: string, fn: () => Promise<void>) => {
          try {
            await fn();
          } catch (err) {
            throw new Error(
              `stage "${label}" failed (screenshot: ${await w.screenshot(`daily-${label}`)}): ${(err as Error).message}`,
            );
          }
        };
        await w.openMinAgent();
        const chat = await w.webview();
        await w.waitForRows(
          'the demo servers running',
          (r) => r.some((x) => /^research \d+ tools/.test(x)) && r.some((x) => /^worker \d+ tools/.test(x)),
          240_000,
        );

        await stage('8-tools-pane', async () => {
          // At the default layout the Tools pane has room for about ten rows (it had six: servers were hidden
          // below it until the divider was dragged), and the chat keeps most of the sidebar.
          const pane = (await w.page
            .locator('.pane-body:has(.monaco-list-row[aria-level="1"])')
            .first()
            .boundingBox())!;
          const row = (await w.page.locator('.pane-body .monaco-list-row[aria-level="1"]').first().boundingBox())!;
          const sidebar = (await w.page.locator('.part.sidebar').boundingBox())!;
          assert.ok(
            pane.height / row.height >= 9,
            `room for ${Math.floor(pane.height / row.height)} rows (${pane.height} px)`,
          );
          assert.ok(pane.height < sidebar.height * 0.4, 'the chat keeps most of the sidebar');
        });

        await stage('1-restart-all-asks', async () => {
          await w.row('research').click();
          await w.command('MinAgent: Restart All Servers');
          const ask = dialog(w, 'Restart all');
          await ask.waitFor({ timeout: 15_000 });
          assert.match(await ask.innerText(), /Restart all \d+ servers\?[\s\S]*"research"/);
          await w.screenshot('daily-1-restart-all');
          await w.page.keyboard.press('Escape');
          await ask.waitFor({ state: 'hidden' });
          await w.page.waitForTimeout(1_000);
          assert.ok(!(await w.treeRows()).some((r) => /starting/.test(r)), 'nothing restarted');
        });

        await stage('10-forget-picks-nothing', async () => {
          // An always-allowed tool: Forget lists it unpicked, and Enter alone forgets nothing.
          await ask(chat, 'Use ok');
          const card = chat.locator('.card.status-waiting', { hasText: 'ok' }).last();
          await card.locator('button', { hasText: 'Always allow this tool' }).click();
          await chat.locator('.card.status-done', { hasText: 'ok' }).last().waitFor();
          await w.command('MinAgent: Forget Always-Allowed Tools');
          const rows = w.page.locator('.quick-input-widget .quick-input-list .monaco-list-row');
          await rows.first().waitFor();
          assert.equal(
            await w.page.locator('.quick-input-widget .quick-input-list .monaco-list-row[aria-checked="true"]').count(),
            0,
            'nothing is picked to begin with',
          );
          await w.screenshot('daily-10-forget');
          await w.page.keyboard.press('Enter');
          await w.page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
          const cards = await chat.locator('.card').count();
          await ask(chat, 'Use ok');
          await waitFor('the next call', async () => (await chat.locator('.card').count()) > cards);
          await chat.locator('.card.status-done', { hasText: 'ok' }).nth(1).waitFor();
          assert.match(await chat.locator('.card').last().innerText(), /Always allowed/, 'still always allowed');
        });

        await stage('11-trace-off-asks-first', async () => {
          const tabs = await w.page.locator('.tab').count();
          await w.row('research').click();
          await w.command('MinAgent: Show MCP Trace');
          await w.page
            .locator('.quick-input-widget input')
            .fill('research')
            .catch(() => undefined);
          await w.page.keyboard.press('Enter').catch(() => undefined);
          const note = w.page.locator('.notifications-toasts .notification-toast', { hasText: 'the MCP trace is off' });
          await note.waitFor({ timeout: 15_000 });
          assert.equal(await w.page.locator('.tab').count(), tabs, 'no empty trace document opened');
          await note.locator('.monaco-button', { hasText: 'Turn On and Show' }).waitFor();
        });

        await stage('5-export-renamed', async () => {
          await w.command('MinAgent: Chat History');
          const row = w.page.locator('.quick-input-list .monaco-list-row').first();
          await row.hover();
          await row.locator('.action-label[aria-label="Rename"]').click();
          await w.page.locator('.quick-input-widget', { hasText: 'Rename Chat' }).waitFor();
          const input = w.page.locator('.quick-input-widget input');
          await input.fill('Demo tour');
          await input.press('Enter');
          await w.page.locator('.quick-input-list .monaco-list-row', { hasText: 'Demo tour' }).waitFor();
          await w.page.keyboard.press('Escape');
          await w.command('MinAgent: Export Chat as Markdown');
          await waitFor(
            "the export, titled with the chat's new name",
            async () =>
              /^MinAgent chat · Demo tour\.md/.test(
                (await w.page.locator('.tabs-container .tab.active').getAttribute('aria-label')) ?? '',
              ),
            20_000,
          );
          await w.command('View: Close Editor');
        });

        await stage('12-welcome-examples', async () => {
          // A new chat's examples are the user's words to finish, with what the tool does under them, whole.
          await w.command('MinAgent: New Chat');
          const example = chat.locator('#welcome .example').first();
          await example.waitFor();
          const text = await example.innerText();
          assert.match(text, /^Use \S+ to/, text);
          await example.click();
          assert.match(await chat.locator('#input').inputValue(), /^Use \S+ to $/);
          await chat.locator('#input').fill('');
          await w.screenshot('daily-12-welcome');
        });

        await stage('2-sent-message-in-view', async () => {
          // Scrolled up while the long answer streams; the next message sent comes into view.
          await ask(chat, 'lots of text please');
          await chat.locator('.msg.assistant.streaming').waitFor();
          const transcript = chat.locator('#transcript');
          const box = (await transcript.boundingBox())!;
          await w.page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
          await w.page.mouse.wheel(0, -600);
          await chat.locator('.msg.assistant:not(.streaming)', { hasText: 'Paragraph 60 of a long answer.' }).waitFor();
          await w.page.waitForTimeout(500);
          await ask(chat, 'hello after the long answer');
          await chat.locator('.msg.user', { hasText: 'hello after the long answer' }).waitFor();
          await waitFor(
            'the sent message to be in view',
            async () => (await placement(chat, '.msg.user')) === 'visible',
            10_000,
          );
          await w.screenshot('daily-2-sent-in-view');
        });
      });
    },
  );
});
