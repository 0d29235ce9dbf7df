// The Tools tree and its commands as a user meets them in a real VS Code (code-server): errors in one
// line, failure notifications, problem nodes that open the entry, Try Tool's result document, a
// refresh and a Restart All during a call, and the log.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe } from 'node:test';
import { SERVERS, waitFor } from '../helpers';
import { inMockChat } from './mockChat';
import { e2eTest } from './prereqs';
import { staged, type Workbench } from './workbench';

const node = (file: string, ...args: string[]) => ({
  command: 'node',
  args: [`\${env:MINAGENT_FIXTURES}/${file}`, ...args],
});

// Six servers (more than open expanded), three of which fail to start, and one broken entry. `second`
// writes Markdown and HTML into its tool's name, title and description (an attacker's links).
const SETTINGS = {
  'minagent.servers': {
    research: node('research.mjs'),
    slow: node('faulty.mjs', 'slow'),
    missing: { command: 'node', args: ['${workspaceFolder}/no-such-server.mjs'] },
    nocmd: { command: 'definitely-not-a-command-xyz' },
    nokey: node('faulty.mjs', 'exit-at-start'),
    second: node('lowlevel.mjs', 'markup'),
    typo: { comand: 'node' },
  },
};

describe('the Tools tree, polished', () => {
  e2eTest(
    'error lines, failure notices, problem nodes, Try Tool documents, refresh and Restart All during a call, and the log',
    async () => {
      let wb: Workbench | undefined;
      const stage = staged('tree', () => wb);
      // The editor may be one the tests before used (test/e2e/sharedMockChat.test.ts): its chat is on the
      // mock model, which this test folds away.
      await inMockChat(
        'tree',
        SETTINGS,
        (r) => r.some((x) => x.startsWith('research')),
        async ({ w, cs }) => {
          wb = w;
          const page = w.page;
          const toasts = page.locator('.notifications-toasts .notification-toast');
          // Runs a command and picks the item whose label is exactly `pick` (descriptions can match too).
          const palettePick = async (command: string, pick: string, placeholder?: string) => {
            await w.command(command);
            // The palette has given way to the command's own picker (known by its placeholder, when it has one).
            if (placeholder) await page.locator(`.quick-input-widget input[placeholder="${placeholder}"]`).waitFor();
            await page.locator('.quick-input-widget input').fill(pick);
            await page
              .locator('.quick-input-list .monaco-list-row', {
                has: page.locator('.label-name', { hasText: new RegExp(`^${pick}$`) }),
              })
              .first()
              .click();
          };
          // Under load the extension's activity bar item can take minutes to appear (a bound, not an expectation).
          await page
            .locator('.activitybar .action-item:has([aria-label^="MinAgent"])')
            .first()
            .waitFor({ timeout: 300_000 });
          await w.openMinAgent();
          // This test is about the tree: fold the Chat view above it so the tree shows all six servers' rows.
          const chatHeader = page.locator('.sidebar .pane-header', { hasText: /^\s*Chat\b/ }).first();
          await chatHeader.waitFor();
          if ((await chatHeader.getAttribute('aria-expanded')) === 'true') await chatHeader.click();

          await stage('5-error-lines', async () => {
            // Six servers start collapsed, but the failed ones open: their one explaining line shows.
            // On a loaded 2-core machine the extension host can take minutes to come up: a bound, not an expectation.
            const rows = await w.waitForRows(
              'the three failures explained and research running',
              (r) =>
                r.some((x) => x.startsWith("Error: Cannot find module '") && x.includes('no-such-server.mjs')) &&
                r.some((x) => x.startsWith('command not found: "definitely-not-a-command-xyz"')) &&
                r.some((x) => x.startsWith('fatal: FIXTURE_API_KEY is not set')) &&
                r.some((x) => x.startsWith('research 3 tools')),
              240_000,
            );
            assert.ok(
              rows.some((x) =>
                /^Error: Cannot find module '.*no-such-server\.mjs' exited with code 1 during startup$/.test(x),
              ),
              `the status beside the line:\n${rows.join('\n')}`,
            );
            assert.ok(
              rows.some((x) => /^fatal: FIXTURE_API_KEY is not set exited with code 3 during startup$/.test(x)),
              rows.join('\n'),
            );
            for (const noise of [/Node\.js v\d+/, /^at /, /^\}$/, /PATH=/, /requireStack/])
              assert.ok(!rows.some((x) => noise.test(x)), `no ${noise} row:\n${rows.join('\n')}`);
            assert.ok(
              rows.some((x) => x.startsWith('research 3 tools')),
              'the running servers are there (collapsed)',
            );
            assert.ok(!rows.some((x) => x === 'echo'), 'with six servers, running ones start collapsed');
            await w.screenshot('tree-errors');
          });

          // The tree re-renders when a server's schema cost is measured: a click on the twistie can land
          // on a row being replaced. Expanded again until its tools show (bounded like every wait here).
          const expandUntil = async (server: string, tool: string) => {
            const row = w.row(server);
            for (const until = Date.now() + 60_000; !(await w.row(tool).isVisible()); ) {
              if (Date.now() > until) throw new Error(`${server} never showed its tools`);
              if ((await row.getAttribute('aria-expanded')) !== 'true') await row.locator('.monaco-tl-twistie').click();
              await w
                .row(tool)
                .waitFor({ timeout: 5_000 })
                .catch(() => undefined);
            }
          };
          await stage('5-tool-tooltip', async () => {
            // A tool's tooltip (its description and schema) is made when the row is hovered, not sent with
            // every row: hovering shows it whole.
            await expandUntil('research', 'echo');
            const { text } = await w.hoverRow('echo', 'Echo the given text back unchanged.');
            assert.match(text, /echo/);
            assert.match(text, /"text"/, `the schema's property in the tooltip:\n${text}`);
            await w.screenshot('tree-tool-tooltip');
            await page.mouse.move(0, 0);
          });

          await stage('5-hostile-tooltip', async () => {
            // The attack: a server's tool name, title and description written as Markdown and HTML links
            // (a command: link would run a VS Code command on a click). The hover shows them as text.
            const name = 'see `x` [docs](command:workbench.action.closeWindow)';
            await expandUntil('second', name);
            const { hover, text: shown } = await w.hoverRow(name, 'Click [here](command:workbench.action.closeWindow)');
            const text = shown.replace(/\u00a0/g, ' ');
            for (const literal of [
              name,
              '**Bold** <img src=x onerror="document.title=1">',
              'Click [here](command:workbench.action.closeWindow)',
              '<a href="command:workbench.action.quit">quit</a> $(info) (docs: https://evil.example/docs_(v2)/a-b?x=1).',
            ]) {
              assert.ok(text.includes(literal), `shown as text: ${literal}\nin the hover:\n${text}`);
            }
            // VS Code's Markdown makes a bare https address a link (it asks before opening one); nothing else may be.
            const links = await hover
              .locator('a')
              .evaluateAll((as) => as.map((a) => a.getAttribute('href') ?? a.getAttribute('data-href') ?? ''));
            assert.ok(
              links.every((href) => href.startsWith('https://evil.example/')),
              `only plain web addresses are links: ${links.join(', ')}`,
            );
            // An address in parentheses is one link, to exactly that address (VS Code's own escaping made it end in
            // "\").
            assert.ok(
              links.includes('https://evil.example/docs_(v2)/a-b?x=1'),
              `the documentation address is a clean link: ${links.join(', ')}`,
            );
            assert.equal(await hover.locator('img').count(), 0, 'no image in the hover');
            await w.screenshot('tree-hostile-tooltip');
            await page.mouse.move(0, 0);
            await hover.waitFor({ state: 'hidden' });
            // The row shows the name as the server wrote it.
            assert.equal((await w.row(name).locator('.label-name').innerText()).replace(/\u00a0/g, ' '), name);
            await w.screenshot('tree-hostile-row');
            // The server's own title, in its tooltip (the row keeps to tools and tokens): text, no link, no icon.
            const title = 'Docs [x](command:workbench.action.quit) $(zap) <b>b</b>';
            const { hover: serverHover, text: serverText } = await w.hoverRow('second', 'Docs [x]');
            assert.ok(
              serverText.replace(/\u00a0/g, ' ').includes(title),
              `the title in the tooltip as written:\n${serverText}`,
            );
            assert.equal(await serverHover.locator('a').count(), 0, 'no link in the server tooltip');
            assert.equal(await serverHover.locator('.codicon-zap').count(), 0, 'no icon from the title in the tooltip');
            await w.screenshot('tree-hostile-server-tooltip');
            await page.mouse.move(0, 0);
          });

          await stage('7-failure-notice', async () => {
            // The three failures at startup share one notification.
            const storm = toasts.filter({ hasText: 'servers failed' });
            await storm.first().waitFor();
            assert.equal(await storm.count(), 1);
            const stormText = await storm.first().innerText();
            // The notice waits for servers still starting, at most 15 s: on a loaded machine (a fresh-clone run, two
            // editors on two cores) nokey's start took longer, and its failure came in a notice of its own.
            if (/2 servers failed: missing, nocmd\./.test(stormText))
              await toasts.filter({ hasText: 'server "nokey" failed to start' }).first().waitFor();
            else assert.match(stormText, /3 servers failed: missing, nocmd, nokey\./);
            assert.equal(
              await toasts.filter({ hasText: /server "(missing|nocmd)" failed to start/ }).count(),
              0,
              'no notice per server beside it',
            );
            await storm.first().hover();
            await storm.first().locator('.codicon-notifications-clear').click();
            // Restarting one that fails again: one notification, for it, with its line and the actions.
            await w.contextMenu('missing', 'Restart Server');
            const one = toasts.filter({ hasText: 'server "missing" failed to start' });
            await one.first().waitFor();
            assert.match(
              await one.first().innerText(),
              /server "missing" failed to start: Error: Cannot find module '.*no-such-server\.mjs'/,
            );
            for (const action of ['Show Logs', 'Restart', 'Open Settings'])
              await one.first().locator('.monaco-button', { hasText: action }).first().waitFor();
            await w.screenshot('tree-failure-notice');
            // Show Logs: that server's own log, not everyone's.
            await one.first().locator('.monaco-button', { hasText: 'Show Logs' }).click();
            const output = page.locator('.part.panel .monaco-editor .view-lines').first();
            // Its own channel: lines without the "[missing]" tag the shared log puts on them, and no other server's.
            // Monaco renders spaces as nbsp.
            const outputText = async () => (await output.innerText().catch(() => '')).replace(/\s+/g, ' ');
            await waitFor(
              'the server log in the Output view',
              async () => /\[error\] server "missing": server process exited with code 1/.test(await outputText()),
              30_000,
            );
            const text = await outputText();
            assert.doesNotMatch(text, /research|nokey|nocmd|\[missing\]/, `only "missing" lines:\n${text}`);
            assert.equal(await toasts.filter({ hasText: 'failed' }).count(), 0, 'still one notice per failure');
          });

          await stage('6-problem-node', async () => {
            await w.row('typo').click();
            const settingsText = await cs.settingsText('workspace');
            const line = settingsText.split('\n').findIndex((l) => l.includes('"typo"')) + 1;
            const col = settingsText.split('\n')[line - 1]!.indexOf('"typo"') + 1;
            const selection = page.locator('[id="status.editor.selection"]');
            await waitFor(
              'the entry selected in settings.json',
              async () => (await selection.innerText().catch(() => '')).includes(`Ln ${line}, Col ${col + 6}`),
              30_000,
            );
            assert.match(await selection.innerText(), /\(6 selected\)/, '"typo" with its quotes is selected');
            assert.match(await page.locator('.tab.active').innerText(), /settings\s*\.json/);
          });

          await stage('8-try-tool-document', async () => {
            await w.command('MinAgent: Try Tool');
            const input = page.locator('.quick-input-widget input');
            await page.locator('.quick-input-widget input[placeholder="Tool to call"]').waitFor(); // the palette has given way to the picker
            await input.fill('search_corpus');
            const pick = page.locator('.quick-input-list .monaco-list-row', { hasText: 'search_corpus' }).first();
            await pick.waitFor();
            assert.match(await pick.innerText(), /server research/);
            assert.match(await pick.innerText(), /Search the research corpus/);
            await page.keyboard.press('Enter');
            await waitFor('the argument box', async () => (await input.inputValue()) === '{"query":""}');
            // The cursor sits inside the first value: typing fills it in.
            await page.keyboard.type('mcp');
            assert.equal(await input.inputValue(), '{"query":"mcp"}');
            await page.keyboard.press('Enter');
            const tab = page.locator('.tab.active');
            await waitFor(
              'the result document',
              async () => /search_corpus\s*·\s*research/.test(await tab.innerText().catch(() => '')),
              30_000,
            );
            await waitFor(
              'its text',
              async () => /open protocol that lets AI applications/.test(await w.editorText().catch(() => '')),
              30_000,
            );
            const text = await w.editorText();
            assert.match(text, /# search_corpus · research/);
            assert.match(text, /\*\*Arguments:\*\* `\{"query":"mcp"\}`/);
            assert.match(text, /\*\*Duration:\*\* \d+ ms/);
            assert.doesNotMatch(
              (await tab.getAttribute('class')) ?? '',
              /\bdirty\b/,
              'a read-only document, never dirty',
            );
            assert.equal(await page.locator('.tab.dirty').count(), 0);
            await w.screenshot('tree-try-tool-document');
          });

          const startSlowCall = async (ms: number) => {
            await palettePick('MinAgent: Try Tool', 'slow', 'Tool to call');
            const input = page.locator('.quick-input-widget input');
            await waitFor('the argument box', async () => (await input.inputValue()) === '{"ms":0}');
            await page.keyboard.type(String(ms)); // the 0 is selected: typing replaces it
            assert.equal(await input.inputValue(), `{"ms":${ms}}`);
            await page.keyboard.press('Enter');
            await toasts.filter({ hasText: 'Calling slow' }).first().waitFor();
          };
          const slowPid = () => cs.report()?.servers.find((s) => s.name === 'slow')?.pid;

          await stage('4-refresh-during-a-call', async () => {
            const pid = await waitFor('the slow server pid', slowPid, 30_000);
            await startSlowCall(20_000);
            // The server says its total: the notification's bar fills (no endless animation) and names the step.
            const calling = toasts.filter({ hasText: 'Calling slow' }).first();
            await waitFor(
              'the bar to fill as the server reports',
              async () =>
                !/\binfinite\b/.test(
                  (await calling.locator('.monaco-progress-container').getAttribute('class')) ?? 'infinite',
                ),
              15_000,
            );
            assert.match(await calling.innerText(), /step \d+/);
            await w.command('MinAgent: Refresh Servers');
            await waitFor('the refresh to be done', () => /refreshed: settings re-read/.test(cs.minagentLog()), 30_000);
            assert.equal(
              await toasts.filter({ hasText: 'Calling slow' }).count(),
              1,
              'the call still runs after the refresh',
            );
            await waitFor(
              'the call to finish',
              async () => /done after \d+ ms/.test(await w.editorText().catch(() => '')),
              60_000,
            );
            assert.equal(slowPid(), pid, 'a refresh that changed nothing restarted nothing');
          });

          await stage('4-restart-all-asks', async () => {
            await startSlowCall(60_000);
            await w.command('MinAgent: Restart All Servers');
            const dialog = page.locator('.monaco-dialog-box');
            await dialog.waitFor();
            assert.match(
              await dialog.innerText(),
              /Restart all \d+ servers\?[\s\S]*1 tool call is running: restarting cancels it\./,
            );
            await dialog.locator('.monaco-button', { hasText: 'Cancel' }).click();
            await dialog.waitFor({ state: 'hidden' });
            assert.equal(await toasts.filter({ hasText: 'Calling slow' }).count(), 1, 'Cancel keeps the call');
            await w.command('MinAgent: Restart All Servers');
            await dialog.locator('.monaco-button', { hasText: 'Restart All' }).click();
            await waitFor(
              'the cancelled result',
              async () => /cancelled: the server was restarted/.test(await w.editorText().catch(() => '')),
              60_000,
            );
            assert.doesNotMatch(await w.editorText(), /exited/);
          });

          await stage('10-the-log', async () => {
            await palettePick('MinAgent: Stop Server', 'research');
            await w.waitForRows('research stopped', (r) => r.some((x) => x.startsWith('research stopped')));
            const log = await waitFor(
              'the stop in the log',
              () => {
                const text = cs.minagentLog();
                return /\[research\] stopping/.test(text) ? text : undefined;
              },
              30_000,
            );
            assert.match(log, /info\] \[research\] tool call "search_corpus" \{"query":"mcp"\}/);
            assert.match(log, /info\] \[research\] tool "search_corpus" answered in \d+ ms/);
            assert.match(log, /\[slow\] tool "slow" answered in \d+ ms/);
            assert.match(log, /\[slow\] tool "slow" cancelled: the server was restarted/);
            assert.match(
              log,
              /warning\] \[nokey\] stderr: fatal: FIXTURE_API_KEY is not set/,
              'a fatal stderr line is a warning',
            );
            assert.doesNotMatch(log, /Received a progress notification for an unknown token/);
          });

          await stage('6-add-server', async () => {
            await w.command('MinAgent: Add Server');
            await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Command (stdio)' }).first().click();
            const input = page.locator('.quick-input-widget input');
            await input.fill(`node ${join(SERVERS, 'research.mjs')}`);
            await page.keyboard.press('Enter');
            await waitFor('the suggested name', async () => (await input.inputValue()) === 'research');
            // Typed again (VS Code validates on change): a name that is taken is refused.
            await input.fill('researc');
            await input.fill('research');
            await page
              .locator('.quick-input-widget', { hasText: 'A server named "research" already exists' })
              .waitFor();
            await input.fill('added');
            await page.keyboard.press('Enter');
            await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Workspace settings' }).first().click();
            await w.waitForRows('the added server running', (r) => r.some((x) => x.startsWith('added 3 tools')));
            const written = await cs.settingsText('workspace');
            assert.match(written, /"added": \{\s*"command": "node",\s*"args": \[\s*".*research\.mjs"\s*\]\s*\}/);
          });
        },
      );
    },
    { timeout: 900_000 },
  );
});
