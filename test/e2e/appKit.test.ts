// The rest of MCP Apps in a real VS Code, with the kit app (fixtures/apps/kit.mjs, on the ext-apps `App` class): in its
// card, the tool it offers is called by the model through an approval, it samples through the chat's sampling card and
// saves a file through a confirmation and the save dialog; it is told its fonts and the places it may go. Pinned, its
// tool still answers from the same running view. Moved to a tab, the card's view is told it goes first
// (ui/resource-teardown) and the tab's view offers its own tool. A call still running shows its app at once, and Stop
// tells it the call was cancelled. An app that declares only some places is offered only those; one that asks to be
// closed is.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe } from 'node:test';
import type { FrameLocator } from 'playwright-core';
import { SERVERS, waitFor } from '../helpers';
import { inMockChat, requests } from './mockChat';
import { e2eTest } from './prereqs';

describe('MCP Apps, the rest of the specification, in VS Code', () => {
  e2eTest(
    'the kit app: its tool, sampling, a download, fonts and modes inline; pinned; in a tab after teardown; a running call and its cancel; declared modes; an app that closes itself',
    async () => {
      const log = join(mkdtempSync(join(tmpdir(), 'minagent-kit-')), 'kit.log');
      const servers = {
        'minagent.servers': {
          kit: { command: 'node', args: [join(SERVERS, 'appkit.mjs')], env: { KIT_LOG: log } },
          // Another program to the user (its own arguments), so its apps ask again.
          narrow: {
            command: 'node',
            args: [join(SERVERS, 'appkit.mjs'), 'narrow'],
            env: { KIT_MODES: 'inline,fullscreen' },
          },
        },
      };
      const running = (rows: string[]) =>
        rows.some((r) => /^kit\b.*tool/.test(r)) && rows.some((r) => /^narrow\b.*tool/.test(r));
      await inMockChat('appkit', servers, running, async ({ w, chat, cs, mock }) => {
        const send = async (text: string) => {
          await chat.locator('#input').fill(text);
          await chat.locator('#input').press('Enter');
        };
        const allow = async (tool: string, how = 'Allow once') =>
          chat.locator('.card.status-waiting', { hasText: tool }).last().locator('button', { hasText: how }).click();
        const shown = (app: FrameLocator, selector: string) =>
          app
            .locator(selector)
            .innerText()
            .catch(() => '');
        const until = (what: string, app: FrameLocator, selector: string, ok: (t: string) => boolean) =>
          waitFor(what, async () => ok(await shown(app, selector)), 60_000);
        /** The last done card of a tool: its result's text. */
        const lastResult = async (tool: string) => {
          const done = chat.locator('.card.status-done', { hasText: tool }).last();
          await done.waitFor();
          return done.locator('.card-result').innerText();
        };
        /** The model calls the app's tool (its wire name, as the mock model picks a tool it is given). */
        const callAppTool = async (expected: string) => {
          const before = await chat.locator('.card.status-done', { hasText: 'kit_pick' }).count();
          await send('Use kit.app.kit_pick');
          await allow('kit_pick');
          await waitFor(
            'the app tool answered',
            async () => (await chat.locator('.card.status-done', { hasText: 'kit_pick' }).count()) > before,
            60_000,
          );
          assert.match(await lastResult('kit_pick'), new RegExp(expected));
        };

        // In its card: the call, the server's apps allowed once, the app with its result.
        await send('Use show_kit');
        await allow('show_kit');
        const card = chat.locator('.card', { hasText: 'show_kit' }).first();
        await card.locator('.app-consent button', { hasText: 'Show Apps of "kit"' }).click();
        const app = chat.frameLocator('.card:has-text("show_kit") .app-host iframe');
        await until('the app ready with its result', app, '#status', (t) => t.startsWith('result: kit '));
        assert.match(await shown(app, '#info'), /^tool show_kit · mode inline · may use inline,fullscreen,pip$/);
        assert.match(await shown(app, '#fonts'), /^fonts: \d+ faces$/, "the editor's fonts, as local faces");
        await w.screenshot('appkit-1-inline');

        // The tool the view offers: in the model's tools while the view lives, called through an approval.
        await app.locator('#choice').fill('green');
        await app.locator('#pick').click();
        await until('picked', app, '#picked', (t) => t === 'picked green');
        await callAppTool('picked: green');
        const offered = (await requests(mock.port)).at(-1)!.body.tools!.map((t) => t.function.name);
        assert.ok(
          offered.some((n) => /kit.*app.*kit_pick/.test(n)),
          offered.join(', '),
        );

        // Sampling from the app: the chat's sampling card, named as the app's.
        await w.page.mouse.move(900, 450);
        await app.locator('#sample').click();
        const ask = chat.locator('.ask-sampling', { hasText: 'The app of tool "show_kit" (server "kit") asks' });
        await ask.waitFor();
        await ask.locator('button', { hasText: 'Allow once' }).click();
        await until('the sampled answer', app, '#sampled', (t) => t.startsWith('sampled: '));

        // A download: confirmed first, then the save dialog; the file is written where the user said.
        await app.locator('#download').click();
        const confirm = w.page.locator('.monaco-dialog-box', {
          hasText: 'The app of tool "show_kit" (server "kit") wants to save a file: "kit-report.csv"',
        });
        await confirm.waitFor();
        await confirm.locator('.monaco-button', { hasText: 'Save As…' }).click();
        // code-server's own save dialog (a quick input): the user types where it goes.
        const saveInput = w.page.locator('.quick-input-widget input');
        await saveInput.waitFor();
        await saveInput.fill(join(cs.workspace, 'kit-report.csv'));
        await saveInput.press('Enter');
        await until('saved', app, '#downloaded', (t) => t === 'download: saved');
        const saved = join(cs.workspace, 'kit-report.csv');
        assert.ok(existsSync(saved), saved);
        assert.match(readFileSync(saved, 'utf8'), /^label,value\n/);
        await w.screenshot('appkit-2-after-download');

        // Pinned: the same running view, its tool still answers with what was picked in it.
        await card.locator('.app-bar button', { hasText: 'Pin' }).click();
        await until('told it is pinned', app, '#info', (t) => t.includes('mode pip'));
        await callAppTool('picked: green');
        await w.screenshot('appkit-3-pinned');
        await chat.locator('.app-host.pinned .app-bar button', { hasText: 'Back to its card' }).click();
        await until('back in its card', app, '#info', (t) => t.includes('mode inline'));

        // In a tab: the card's view is told it goes (it notes so through its server) before the tab's runs.
        await card.locator('.app-bar button', { hasText: 'Open in Editor' }).click();
        await card.locator('.app-note', { hasText: 'Open in an editor tab' }).waitFor();
        await waitFor('the teardown noted', async () => existsSync(log) && /teardown /.test(readFileSync(log, 'utf8')));
        const tabApp = (await w.webview({ panel: true })).frameLocator('iframe');
        await until('the app in its tab', tabApp, '#info', (t) => t.includes('mode fullscreen'));
        await callAppTool('picked: nothing yet');
        await w.screenshot('appkit-4-tab');
        await w.command('View: Close Editor');
        await until('back in its card', app, '#status', (t) => t.startsWith('result: '));

        // A call still running: its app shows at once with the input; Stop tells it the call was cancelled.
        await send('slow kit please');
        // Not before the user allows the call: an app is the server's code running.
        const waiting = chat.locator('.card.status-waiting', { hasText: 'show_kit' });
        await waiting.waitFor();
        assert.equal(await waiting.locator('.app-host').count(), 0, 'no app while the call waits for approval');
        await allow('show_kit', 'Allow for this chat');
        const slowApp = chat.frameLocator('.card.status-running .app-host iframe');
        await until('the running app has its input', slowApp, '#status', (t) => t === 'input: slow');
        await w.screenshot('appkit-5-running');
        await chat.locator('#send', { hasText: 'Stop' }).click();
        const stopped = chat.frameLocator('.card:has-text("slow") .app-host iframe').last();
        await until('told it was cancelled', stopped, '#status', (t) => t.startsWith('cancelled: '));

        // Allowed for this chat now: the next call's app shows while the model still writes its arguments.
        await send('write the kit slowly');
        const writtenApp = chat.frameLocator('.card:has-text("written slowly") .app-host iframe');
        await until('partial inputs while written', writtenApp, '#partials', (t) => /^partials: [1-9]/.test(t));
        await w.screenshot('appkit-5b-written');
        await until(
          'then its result',
          writtenApp,
          '#status',
          (t) => t === 'result: kit written slowly, a few characters at a time ready',
        );

        // An app that declares only its card and a tab: no Pin.
        await send('Use narrow.show_kit');
        await allow('show_kit');
        const narrow = chat.locator('.card', { hasText: 'narrow' }).last();
        await narrow.locator('.app-consent button', { hasText: 'Show Apps of "narrow"' }).click();
        const narrowApp = chat.frameLocator('.card:has-text("narrow") .app-host iframe');
        await until('declared modes', narrowApp, '#info', (t) => t.endsWith('may use inline,fullscreen'));
        await narrow.locator('.app-bar button', { hasText: 'Open in Editor' }).waitFor();
        assert.equal(
          await narrow.locator('.app-bar button', { hasText: 'Pin' }).count(),
          0,
          'no place it did not declare',
        );

        // An app that asks to be closed is closed, with a way to run it again.
        await narrowApp.locator('#close').click();
        await narrow.locator('.app-note', { hasText: 'The app closed itself.' }).waitFor();
        await narrow.locator('.app-bar button', { hasText: 'Run Again' }).waitFor();
        await w.screenshot('appkit-6-closed');
      });
    },
  );
});
