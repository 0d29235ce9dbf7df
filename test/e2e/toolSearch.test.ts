// Tool search in a real VS Code (issue 27): fifty servers of a hundred tools each are too many to send,
// so the chat's requests carry search_tools; the user asks, the model searches, finds the one tool
// that answers among five thousand, and calls it through its approval card; the meter says how many
// tools wait deferred, and the Tools tree marks the tool the chat loaded.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe } from 'node:test';
import { SERVERS, waitFor } from '../helpers';
import { inMockChat, requests } from './mockChat';
import { e2eTest } from './prereqs';

const SERVER_COUNT = 50;

describe('tool search in VS Code', () => {
  e2eTest(
    '50 servers x 100 tools: requests carry search_tools; a searched tool is called through its approval card; the meter and the tree show what is loaded and deferred',
    async () => {
      const servers = Object.fromEntries(
        Array.from({ length: SERVER_COUNT }, (_, i) => [
          `s${i}`,
          { command: 'node', args: [join(SERVERS, 'catalog.mjs'), '--index', String(i)] },
        ]),
      );
      const running = (rows: string[]) =>
        rows.some((r) => /^s0 101 tools\b/.test(r)) && rows.some((r) => /^s1 100 tools\b/.test(r));
      await inMockChat('tool-search', { 'minagent.servers': servers }, running, async ({ w, chat, mock }) => {
        await waitFor(
          'every server running',
          async () =>
            (await w.page.locator('.statusbar-item', { hasText: `${SERVER_COUNT}/${SERVER_COUNT}` }).count()) > 0,
          120_000,
        );
        // The meter: a few tools sent, five thousand deferred behind the search.
        await chat.locator('#budget-meter').click();
        const details = chat.locator('#budget-details');
        await waitFor(
          'the deferred tools in the meter',
          async () =>
            /Deferred \(5,001 tools\)\s*not sent \(~?[\d.]+[km]?\)/.test(await details.innerText().catch(() => '')),
          60_000,
        );
        assert.match(
          await details.innerText(),
          /Tool schemas \(1 tool loaded\)\n[^\n]*\nMinAgent's own · 1 tool\n/,
          'only search_tools is sent',
        );
        assert.match(
          await chat.locator('#budget-label').innerText(),
          / · 5,001 deferred$/,
          'the meter itself says tools are deferred, not only its details',
        );
        await chat.locator('#budget-meter').click();

        await chat.locator('#input').fill('What is the weather in Paris?');
        await chat.locator('#input').press('Enter');
        // The model searches (no approval: it only reads the tool list), then calls what it found.
        const search = chat.locator('.card.status-done', { hasText: 'search_tools' });
        await search.waitFor();
        // What it loaded, as the user names tools (issue 53, item 7), not the result's JSON.
        assert.match(await search.locator('.card-found').innerText(), /^weather_report \(s0\) — /m);
        assert.equal(await search.locator('.card-result').count(), 0, 'no raw JSON');
        const card = chat.locator('.card.status-waiting', { hasText: 'weather_report' });
        await card.waitFor();
        await w.screenshot('tool-search-1-approval');
        await card.locator('button', { hasText: 'Allow once' }).click();
        await chat
          .locator('.card.status-done', { hasText: 'weather_report' })
          .locator('.card-result', { hasText: 'sunny, 21 °C in Paris' })
          .waitFor();
        await chat.locator('.msg.assistant', { hasText: 'Here is what the tool returned' }).waitFor();
        const seen = await requests(mock.port);
        const names = (i: number) => (seen[i]!.body.tools ?? []).map((t) => t.function.name);
        assert.deepEqual(names(0), ['search_tools'], 'the first request carries only the search');
        assert.ok(names(1).includes('weather_report'), 'the next one carries what it found');
        assert.ok(names(1).length <= 6, `search_tools and one search's matches: ${names(1).join(', ')}`);

        // The tree marks the tool this chat loaded (its server expanded by the user).
        await w.row('s0').locator('.monaco-tl-twistie').click();
        await w.waitForRows('weather_report marked loaded', (rows) =>
          rows.some((r) => /^weather_report loaded\b/.test(r)),
        );
        await chat.locator('#budget-meter').click();
        await waitFor('the meter counting the loaded tools', async () =>
          /Tool schemas \([2-9] tools loaded\)/.test(await details.innerText().catch(() => '')),
        );
        await w.screenshot('tool-search-2-loaded');
        // The same in the other theme, for a person to look at.
        await w.command('Preferences: Toggle between Light/Dark Themes');
        await w.page.waitForTimeout(1000); // a picture: let the webview repaint first
        await w.screenshot('tool-search-3-other-theme');
      });
    },
  );
});
