// Server prompts in a real VS Code: typing `/` in the chat lists the library server's prompt with
// its description, the argument form completes from the server, and the prompt's messages reach the
// mock model's request. The server's label is HTML: every place it shows must show it as text.
// And the server's trace in the editor: its list, one message a link away, no secret in either.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe } from 'node:test';
import { waitFor } from '../helpers';
import { inMockChat, SHARED_EDITOR_ENV } from './mockChat';
import { e2eTest } from './prereqs';
import { inSight, staged, type Workbench } from './workbench';

/** Runs a named stage; a failure says which, with a screenshot. */
const HOSTILE = '<img src=x class=pwned onerror="document.body.dataset.pwned=1">';
const LIBRARY = {
  library: { command: 'node', args: ['${env:MINAGENT_FIXTURES}/library.mjs'], env: { LIBRARY_LABEL: HOSTILE } },
};
/** A secret in the editor's environment (a shared editor opens with it). */
const TOKEN = SHARED_EDITOR_ENV.TRACE_E2E_TOKEN!;

interface SeenRequest {
  body: { messages: Array<{ role: string; content: unknown }> };
}

describe('server prompts in the chat', () => {
  e2eTest(
    '/ lists a prompt, its argument form completes from the server, and its messages reach the model; Show MCP Trace on a server lists its messages, opens one by its link, and shows no secret the server echoes back',
    async () => {
      let wb: Workbench | undefined;
      const stage = staged('prompts', () => wb);
      const userSettings = { 'workbench.colorTheme': 'Default Light Modern', 'minagent.trace': true };
      await inMockChat(
        'prompts',
        { 'minagent.servers': LIBRARY },
        (rows) => rows.some((r) => r.startsWith('library ')),
        async ({ w, chat, cs, mock }) => {
          wb = w;
          const input = chat.locator('#input');
          const menu = chat.locator('.slash-menu:not([hidden])');

          await stage('1-menu', async () => {
            await input.click();
            // The list arrives when the server is up; typing `/` shows it.
            await waitFor(
              'the / menu to list summarize',
              async () => {
                await input.fill('');
                await input.pressSequentially('/');
                return (await menu.locator('.slash-name', { hasText: '/summarize' }).count()) > 0;
              },
              60_000,
            );
            await input.pressSequentially('sum');
            const item = menu.locator('.slash-item.active');
            assert.equal(await item.locator('.slash-name').innerText(), '/summarize');
            assert.equal(await item.locator('.slash-server').innerText(), 'library');
            assert.equal(
              await item.locator('.slash-description').innerText(),
              `Summarize a note of the ${HOSTILE}`,
              'the description, as text',
            );
            await input.pressSequentially('x');
            // No prompt matches /sumx: the menu closes.
            await chat.locator('.slash-menu').waitFor({ state: 'hidden' });
            await input.press('Backspace');
            await menu.locator('.slash-item.active .slash-name', { hasText: '/summarize' }).waitFor();
            // Escape closes the menu and keeps the text; typing opens it again.
            await input.press('Escape');
            await chat.locator('.slash-menu').waitFor({ state: 'hidden' });
            assert.equal(await input.inputValue(), '/sum');
            await input.pressSequentially('m');
            await menu.locator('.slash-item.active .slash-name', { hasText: '/summarize' }).waitFor();
            await input.press('Backspace');
            await w.screenshot('prompts-1-slash-menu-light');
          });

          await stage('2-form', async () => {
            await input.press('Enter');
            const form = chat.locator('.prompt-form:not([hidden])');
            await form.waitFor();
            assert.equal(await input.inputValue(), '', 'the picked /command leaves the input');
            assert.deepEqual(await form.locator('.prompt-label').allInnerTexts(), ['note *', 'style']);
            const note = form.locator('.prompt-input').first();
            await waitFor('the note field to have the focus', () => note.evaluate((e) => e === document.activeElement));
            await note.pressSequentially('r');
            // The server's completion for "r" (its notes are readme and guide).
            const completion = form.locator('.prompt-completions:not([hidden]) .prompt-completion');
            // The answer for the empty field (both notes) can show first; the one for "r" replaces it.
            await waitFor(
              'the completions for "r"',
              async () => JSON.stringify(await completion.allInnerTexts()) === '["readme"]',
              30_000,
            );
            await w.screenshot('prompts-2-form-completion-light');
            await note.press('ArrowDown');
            await form.locator('.prompt-completion.active', { hasText: 'readme' }).waitFor();
            await note.press('Enter');
            assert.equal(await note.inputValue(), 'readme', 'the completion was picked');
            await form.locator('.prompt-completions').first().waitFor({ state: 'hidden' });
          });

          await stage('2-form-in-a-short-chat', async () => {
            // A short window: the form scrolls inside the chat; its buttons, the chat input and the model
            // picker stay in sight, and the page itself does not scroll (it did, and hid all three).
            const full = w.page.viewportSize()!;
            await w.page.setViewportSize({ width: full.width, height: 480 });
            try {
              await waitFor(
                'the chat to lay out again',
                async () => (await chat.evaluate<number>('innerHeight')) < 300,
              );
              assert.ok(
                await inSight(chat, '.prompt-form:not([hidden]) .prompt-form-buttons button'),
                "the form's Send is in sight",
              );
              assert.ok(await inSight(chat, '#input'), 'the chat input is in sight');
              assert.ok(await inSight(chat, 'header select'), 'the model picker is in sight');
              assert.equal(await chat.evaluate('document.scrollingElement.scrollTop'), 0, 'the page did not scroll');
              await w.screenshot('prompts-2-form-short-chat-light');
            } finally {
              await w.page.setViewportSize(full);
            }
          });

          await stage('3-sent', async () => {
            await chat.locator('.prompt-input').first().press('Enter');
            await chat.locator('.prompt-form').waitFor({ state: 'hidden' });
            const item = chat.locator('#transcript .msg.prompt');
            await item.waitFor();
            assert.equal(await item.locator('.prompt-name').innerText(), '/summarize');
            assert.deepEqual(await item.locator('.prompt-text').allInnerTexts(), [
              `Summarize note readme of the ${HOSTILE}.`,
              `[resource <library://notes/readme>]\nWelcome to the ${HOSTILE}.`,
            ]);
            await chat.locator('#transcript .msg.assistant:not(.streaming)').waitFor();
            await chat.locator('#send', { hasText: 'Send' }).waitFor();
            // The server's text made no element where the prompt shows (the model's echo of it is the model's Markdown,
            // sanitized elsewhere).
            assert.equal(
              await chat.locator('.msg.prompt img, .msg.prompt [onerror], .slash-menu img, .prompt-form img').count(),
              0,
              'the server text made no element',
            );
            assert.equal(await chat.evaluate('document.body.dataset.pwned'), undefined);
            const seen = (await (await fetch(`http://127.0.0.1:${mock.port}/requests`)).json()) as SeenRequest[];
            assert.equal(seen.length, 1);
            assert.deepEqual(
              seen[0]!.body.messages.filter((m) => m.role === 'user'),
              [
                { role: 'user', content: `Summarize note readme of the ${HOSTILE}.` },
                { role: 'user', content: `[resource <library://notes/readme>]\nWelcome to the ${HOSTILE}.` },
              ],
            );
            await w.screenshot('prompts-3-sent-light');
          });

          // The trace, in the same editor: a second library server added to the workspace's settings, whose label is
          // a secret from the environment (the server puts it into its name, title and instructions: the initialize
          // reply).
          // Named and listed to come first in the tree, where its row is in sight above the first server's tools.
          const traced = {
            command: 'node',
            args: ['${env:MINAGENT_FIXTURES}/library.mjs'],
            env: { LIBRARY_LABEL: '${env:TRACE_E2E_TOKEN}' },
          };
          writeFileSync(
            join(cs.workspace, '.vscode', 'settings.json'),
            JSON.stringify({ 'minagent.servers': { archive: traced, ...LIBRARY } }, null, 2),
          );
          let list = '';
          await stage('4-trace-list', async () => {
            const rows = await w.waitForRows('the archive server running', (rows) =>
              rows.some((r) => /^archive (.* · )?\d+ tools/.test(r)),
            );
            assert.ok(
              !rows.join('\n').includes(TOKEN),
              `the tree shows no secret (the server's title echoes it):\n${rows.join('\n')}`,
            );
            await w.contextMenu('archive', 'Show MCP Trace');
            await waitFor(
              'the trace to list the start-up traffic',
              async () => /prompts\/list/.test((list = await w.editorText())),
              60_000,
            );
            assert.match(list, /MCP trace of server "archive": \d+ messages kept .* Recording\./);
            // The library server speaks 2026-07-28: its session opens with server/discover.
            assert.match(
              list,
              /#1 [\d:.]+ → out request server\/discover (\S+) \d+ bytes #2 [\d:.]+ ← in response server\/discover \1 [\d.]+ (bytes|KB) \d+ ms/,
            );
            assert.ok(!list.includes(TOKEN), 'the list shows no secret');
            await w.screenshot('trace-1-list-light');
          });
          await stage('5-trace-message', async () => {
            // The server/discover reply (#2, on line 6: the rows start on line 5) carries the secret in the server's
            // name and title.
            await w.page.locator('.editor-instance .monaco-editor textarea').first().focus();
            await w.page.keyboard.press('Control+G');
            await w.page.locator('.quick-input-widget input').waitFor();
            await w.page.keyboard.type('6');
            await w.page.keyboard.press('Enter');
            await w.command('Open Link');
            let text = '';
            await waitFor(
              'the server/discover reply to open',
              async () => /serverInfo"/.test((text = await w.editorText())),
              30_000,
            );
            assert.match(text, /^\/\/ received from server "archive" at .+: response server\/discover \(id \S+\)/);
            // The server's name and title carry the label too (the instructions further down are not on screen).
            assert.match(text, /serverInfo": \{ "name": "\[redacted\]-server", "title": "The \[redacted\] Library"/);
            assert.ok(!text.includes(TOKEN), 'the message shows no secret');
            await w.screenshot('trace-2-message-light');
          });
        },
        { userSettings, env: { TRACE_E2E_TOKEN: TOKEN } },
      );
    },
    { timeout: 480_000 },
  );
});
