// The context budget in a real VS Code: the meter in the chat, and a tool switched off in the Tools
// tree is neither shown to the mock model nor counted.
import assert from 'node:assert/strict';
import { describe } from 'node:test';
import type { Frame } from 'playwright-core';
import { waitFor } from '../helpers';
import { inDemoChat, requests } from './mockChat';
import { e2eTest } from './prereqs';
import { inSight, staged, type Workbench } from './workbench';

const label = (chat: Frame) => chat.locator('#budget-label').innerText();

describe('the context budget', () => {
  e2eTest('the chat shows what the next request costs; a tool switched off in the tree is not sent', async () => {
    let wb: Workbench | undefined;
    const stage = staged('budget', () => wb);
    await inDemoChat(
      async ({ w, mock }) => {
        wb = w;
        await w.openMinAgent();
        const chat = await w.webview();

        await stage('1-meter', async () => {
          // Each server's schema cost shows in the tree once the meter has measured it.
          await w.waitForRows('servers with their schema cost', (r) =>
            ['research 3 tools', 'analytics 2 tools', 'worker 2 tools'].every((s) =>
              r.some((x) => new RegExp(`^${s} · ~\\d+ tokens$`).test(x)),
            ),
          );
          await chat.locator('#budget:not([hidden])').waitFor();
          await waitFor('the meter against the 16k window', async () =>
            /^~\d+(\.\d)?k? \/ 16k$/.test(await label(chat)),
          );
          const before = await label(chat);
          await chat.locator('#input').fill('What is MCP? '.repeat(40));
          await waitFor('the meter to count the typed message', async () => (await label(chat)) !== before);
          assert.match(
            (await chat.locator('#budget-meter').getAttribute('title')) ?? '',
            /^System prompt: \d+ · \d+%\nTool schemas \(7 tools\): \d+ · \d+%\n {2}research · 3 tools: \d+\n/,
            'the breakdown on hover',
          );
          const theme = async () =>
            ((await w.page.locator('.monaco-workbench').getAttribute('class')) ?? '')
              .split(' ')
              .find((c) => c === 'vs' || c === 'vs-dark') === 'vs'
              ? 'light'
              : 'dark';
          const first = await theme();
          await w.screenshot(`budget-meter-${first}`);
          await chat.locator('#budget-meter').click();
          const details = chat.locator('#budget-details');
          await details.waitFor();
          const text = await details.innerText();
          for (const part of [
            'System prompt',
            'Tool schemas (7 tools)',
            'research · 3 tools',
            'analytics · 2 tools',
            'worker · 2 tools',
            'History',
            'New message',
            'usable tokens (window 16k: minagent.chat.contextWindow, 4k kept for the answer). Counted by estimate (1 token per 3 characters).',
          ]) {
            assert.ok(text.includes(part), `the details show "${part}":\n${text}`);
          }
          await w.screenshot(`budget-details-${first}`);
          // The other theme, at the same (default) sidebar width.
          await w.command('Preferences: Toggle between Light/Dark Themes');
          await waitFor('the other theme', async () => (await theme()) !== first);
          const second = await theme();
          await w.page.waitForTimeout(500); // a picture for a person to look at: let the webview repaint first
          await w.screenshot(`budget-details-${second}`);
          // A short window: the details are never cut off, and the input stays in sight below them.
          const full = w.page.viewportSize()!;
          await w.page.setViewportSize({ width: full.width, height: 560 });
          try {
            await waitFor('the chat to lay out again', async () => (await chat.evaluate<number>('innerHeight')) < 360);
            await w.screenshot(`budget-details-short-${second}`);
            const boxes = () =>
              chat.evaluate(
                `JSON.stringify([innerHeight, ...['#budget-details', '#input', '#transcript', '#welcome'].map((s) => { const r = document.querySelector(s)?.getBoundingClientRect(); return r && [s, Math.round(r.top), Math.round(r.bottom)]; })])`,
              );
            await waitFor(
              'the details and the input in sight',
              async () => (await inSight(chat, '#budget-details')) && (await inSight(chat, '#input')),
            ).catch(async (e: Error) => {
              throw new Error(`${e.message}: [innerHeight, [selector, top, bottom]...] ${await boxes()}`);
            });
          } finally {
            await w.page.setViewportSize(full);
          }
          await chat.locator('#budget-meter').click();
          await details.waitFor({ state: 'hidden' });
          await w.screenshot(`budget-meter-${second}`);
          // A paste past the window says so before Send (Send then keeps it in the input: chatPolish).
          await chat.locator('#input').fill('lorem ipsum dolor sit amet '.repeat(4000));
          await waitFor('the meter to say too long', async () => / · too long$/.test(await label(chat)));
          await chat.locator('#input').fill('');
          await waitFor('the meter back under the window', async () => !/too long/.test(await label(chat)));
        });

        await stage('2-switch-off', async () => {
          const row = w.row('analytics.echo');
          await row.locator('[role="checkbox"]').click();
          await w.waitForRows('the tool marked off', (r) =>
            r.some((x) => /^analytics\.echo renamed · off · analytics__echo$/.test(x)),
          );
          await waitFor(
            'the meter to drop the tool',
            async () => {
              const t = (await chat.locator('#budget-meter').getAttribute('title')) ?? '';
              return t.includes('Tool schemas (6 tools)') && t.includes('  analytics · 1 tool:');
            },
            30_000,
          );
          // The server's row agrees with the meter: the tools switched on, and their tokens (it said "2 tools" and the
          // old cost).
          const title = (await chat.locator('#budget-meter').getAttribute('title')) ?? '';
          const metered = / {2}analytics · 1 tool: (\S+)/.exec(title)?.[1];
          await w.waitForRows('the row counting what is on', (r) =>
            r.some((x) => x === `analytics 1 of 2 tools · ~${metered} tokens`),
          );
          const sent = (await requests(mock.port)).length;
          await chat.locator('#input').fill('Now use analytics');
          await chat.locator('#input').press('Enter');
          // The mock model picks analytics__echo when it is offered; it is not, so it says so.
          await chat
            .locator('.msg.assistant', { hasText: 'I would call analytics__echo, but it is not among my tools' })
            .waitFor();
          const all = await requests(mock.port);
          assert.equal(all.length, sent + 1);
          const tools = all.at(-1)!.body.tools!.map((t) => t.function.name);
          assert.ok(!tools.includes('analytics__echo'), `analytics__echo is not sent: ${tools.join(', ')}`);
          assert.ok(
            tools.includes('analytics__row_count') && tools.includes('search_corpus'),
            `the others are: ${tools.join(', ')}`,
          );
          assert.equal(tools.length, 6);
        });

        await stage('3-switch-off-server', async () => {
          await w.row('analytics').locator('[role="checkbox"]').first().click();
          await w.waitForRows('the server marked off', (r) =>
            r.some((x) => /^analytics off · 1 of 2 tools · ~\d+ tokens$/.test(x)),
          );
          await chat.locator('#send', { hasText: 'Send' }).waitFor();
          await chat.locator('#input').fill('Hello again');
          await chat.locator('#input').press('Enter');
          await chat.locator('.msg.assistant', { hasText: 'You said: Hello again' }).waitFor();
          const tools = (await requests(mock.port)).at(-1)!.body.tools!.map((t) => t.function.name);
          assert.ok(!tools.some((n) => n.startsWith('analytics__')), `no analytics tool is sent: ${tools.join(', ')}`);
          assert.ok(tools.includes('search_corpus'));
        });
      },
      { 'minagent.chat.contextWindow': 16000 },
    );
  });
});
