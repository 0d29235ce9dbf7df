// The chat as a user meets it in a real VS Code (issue 11): room for the chat, a welcome with example
// prompts from the servers' tools, a growing input, a transcript that follows what is sent and says
// when an approval waits below, a model set-up that never removes a working model, and a history
// of conversations. Screenshots of the chat and tree, light and dark, for the README.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe } from 'node:test';
import type { Frame } from 'playwright-core';
import { listeningFixture, ROOT, waitFor } from '../helpers';
import type { CodeServer } from './codeServer';
import { inDemoChat, requests } from './mockChat';
import { ask, placement } from './chatSteps';
import { e2eTest } from './prereqs';
import { ARTIFACTS, type Workbench } from './workbench';

/** Scrolls the transcript to its top as a user's wheel would (a scroll event, scrollTop going down). */
const scrollToTop = (chat: Frame) => chat.evaluate('document.getElementById("transcript").scrollTop = 0');

/** The sidebar (activity bar included) at its default width, saved for the README when asked. */
async function sidebarShot(w: Workbench, name: string): Promise<void> {
  const box = await w.page.locator('.part.sidebar').boundingBox();
  const dir = process.env.MINAGENT_DOCS_SCREENSHOTS ? join(ROOT, 'docs', 'screenshots') : ARTIFACTS;
  mkdirSync(dir, { recursive: true });
  await w.page.screenshot({
    path: join(dir, `${name}.png`),
    clip: { x: 0, y: 0, width: Math.ceil(box!.x + box!.width), height: Math.ceil(box!.y + box!.height) },
  });
}

async function stages(
  name: string,
  body: (
    stage: (label: string, fn: () => Promise<void>) => Promise<void>,
    w: Workbench,
    cs: CodeServer,
    mockPort: string,
  ) => Promise<void>,
): Promise<void> {
  await inDemoChat(async ({ w, cs, mock }) => {
    await body(
      async (label, fn) => {
        console.log(`# ${name}: stage ${label} at ${Math.round(performance.now() / 1000)} s`);
        try {
          await fn();
        } catch (err) {
          throw new Error(
            `stage "${label}" failed (screenshot: ${await w.screenshot(`${name}-${label}`)}): ${(err as Error).message}`,
          );
        }
      },
      w,
      cs,
      mock.port,
    );
  });
}

describe('the chat, polished (issue 11)', () => {
  e2eTest(
    '9: room, welcome with example prompts, growing input, compact picker; 1: following on send and an off-screen approval; screenshots',
    async () => {
      await stages('polish', async (stage, w, _cs, port) => {
        await w.openMinAgent();
        await w.waitForRows(
          'the servers running',
          (r) => r.some((x) => x.startsWith('worker')) && r.some((x) => x.startsWith('analytics 2 tools')),
          180_000,
        );
        const chat = await w.webview();

        await stage('9-room-and-welcome', async () => {
          // The chat gets most of the sidebar; the tree stays below it, still showing its servers.
          const view = await w.page.locator('iframe.webview[src*="purpose=webviewView"]').boundingBox();
          const sidebar = await w.page.locator('.part.sidebar').boundingBox();
          assert.ok(
            view && sidebar && view.height > sidebar.height * 0.55,
            `the chat is ${view?.height} px of a ${sidebar?.height} px sidebar`,
          );
          assert.ok(
            (await w.treeRows()).some((r) => r.startsWith('research')),
            'the tree is still shown',
          );
          // New, History and Export are the view's title actions, not buttons in the page.
          for (const action of ['New Chat', 'Chat History', 'Export Chat as Markdown'])
            await w.page
              .locator(`.pane-header .action-label[aria-label^="${action}"]`)
              .first()
              .waitFor({ state: 'attached' });
          assert.equal(await chat.locator('#new-chat, #export, header button').count(), 0);

          // The welcome: example prompts from the offered tools, one per server first.
          await chat.locator('#welcome .example', { hasText: 'Use search_corpus to' }).waitFor({ timeout: 240_000 }); // the first render, on a loaded machine
          const examples = await chat.locator('#welcome .example').allInnerTexts();
          // The prompt to finish, and under it what the tool does (the server's words, whole).
          assert.ok(
            examples.some((e) => /^Use search_corpus to …\nSearch the research corpus/.test(e)),
            examples.join(' | '),
          );
          assert.ok(
            examples.some((e) => /^Use analytics\.echo to …\nEcho the text back/.test(e)),
            examples.join(' | '),
          );
          assert.equal(
            await chat.locator('#welcome .example', { hasText: 'search_corpus' }).getAttribute('title'),
            'search_corpus from research',
          );
          await chat.locator('#welcome .example', { hasText: 'analytics.echo' }).click();
          assert.equal(
            await chat.locator('#input').inputValue(),
            'Use analytics.echo to ',
            'the example is in the input, not sent',
          );
          assert.equal(await chat.locator('#transcript .msg').count(), 0);

          // The picker: compact, with the full name and where it runs in its tooltip.
          await chat.locator('#model option', { hasText: 'mock-model' }).waitFor({ state: 'attached' });
          assert.equal(
            await chat.locator('#model').getAttribute('title'),
            `mock-model · localhost\nOpenAI-compatible at http://127.0.0.1:${port}/v1`,
          );
          // The page (hidden in its HTML) shows once its state arrived, styled.
          assert.equal(await chat.evaluate('document.body.hidden'), false);
          assert.equal(await chat.evaluate('getComputedStyle(document.querySelector("footer")).display'), 'flex');
        });

        await stage('9-growing-input', async () => {
          const input = chat.locator('#input');
          const height = async () => (await input.boundingBox())!.height;
          await input.fill('one line');
          const one = await height();
          await input.fill('1\n2\n3\n4\n5');
          const five = await height();
          assert.ok(five > one * 1.8, `five lines: ${five} px, one line: ${one} px`);
          await input.fill(Array.from({ length: 40 }, (_, i) => `line ${i}`).join('\n'));
          const forty = await height();
          const view = (await w.page.locator('iframe.webview[src*="purpose=webviewView"]').boundingBox())!;
          assert.ok(
            forty > five && forty < view.height * 0.45,
            `forty lines: ${forty} px of a ${view.height} px view (it stops growing and scrolls)`,
          );
          assert.equal(await chat.evaluate('getComputedStyle(document.getElementById("input")).overflowY'), 'auto');
          await input.fill('');
          await waitFor('the input to shrink back', async () => (await height()) <= one + 1);
        });

        await stage('1-follows-on-send', async () => {
          await ask(chat, 'lots of text please');
          await chat.locator('.msg.assistant:not(.streaming)', { hasText: 'Paragraph 60 of a long answer.' }).waitFor();
          assert.equal(await chat.locator('#welcome').isHidden(), true, 'the welcome goes with the first message');
          assert.equal(
            await placement(chat, '.msg.assistant p:last-child'),
            'visible',
            'pinned to the end while the answer arrived',
          );
          await scrollToTop(chat);
          await chat.locator('#jump-latest', { hasText: 'Jump to latest' }).waitFor();
          assert.equal(await placement(chat, '.msg.assistant p:last-child'), 'below');

          // Sent while scrolled up: the view goes to the new question.
          await ask(chat, 'Now a gated slow job');
          await chat.locator('.msg.user', { hasText: 'gated slow job' }).waitFor();
          await waitFor('the question to be in view', async () => (await placement(chat, '.msg.user')) === 'visible');
          await chat.locator('#jump-latest').waitFor({ state: 'hidden' });
        });

        await stage('1-offscreen-approval', async () => {
          // The user scrolls back up to reread while the model is still answering.
          await scrollToTop(chat);
          await chat.locator('#jump-latest', { hasText: 'Jump to latest' }).waitFor();
          await fetch(`http://127.0.0.1:${port}/open/approval`, { method: 'POST' });
          const card = chat.locator('.card').last();
          await card.locator('.card-status', { hasText: 'waiting for approval' }).waitFor({ state: 'attached' });
          assert.equal(await placement(chat, '.card'), 'below', 'the view stayed where the user scrolled');
          const jump = chat.locator('#jump-latest', { hasText: 'Approval needed' });
          await jump.waitFor();
          await w.screenshot('polish-approval-below');
          await jump.click();
          await waitFor('the approval card to be in view', async () => (await placement(chat, '.card')) === 'visible');
          await card.locator('button', { hasText: 'Deny' }).click();
          await card.locator('.card-status', { hasText: 'denied' }).waitFor();
          await chat.locator('#send', { hasText: 'Send' }).waitFor();
        });

        await stage('24.1-refused-message', async () => {
          // A paste far over the model's window (32,768 tokens by default): the meter says so, and Send
          // does not send it: it stays in the input, the transcript and the history are untouched.
          const paste = Array.from(
            { length: 2500 },
            (_, i) => `line ${i}: a long log pasted into the chat, far more than the model takes`,
          ).join('\n');
          const before = await chat.locator('#transcript .msg').count();
          const input = chat.locator('#input');
          await w.paste(input, paste);
          await input.press('Enter');
          const refused = chat.locator('.notice.error', { hasText: 'Not sent: this request needs about' });
          await refused.waitFor();
          assert.match(await refused.innerText(), /Your message is back in the input\.$/);
          await waitFor('the paste back in the input', async () => (await input.inputValue()) === paste);
          assert.equal(
            await chat.evaluate('document.activeElement && document.activeElement.id'),
            'input',
            'the caret is in the input',
          );
          assert.equal(
            await chat.locator('#transcript .msg.user', { hasText: 'a long log pasted' }).count(),
            0,
            'the paste is not in the transcript',
          );
          assert.equal(await chat.locator('#transcript .msg').count(), before);
          await w.screenshot('refused-message');
          // The user shortens it and sends: the history is whole (no turn left out).
          await input.fill('just the last line, then');
          await input.press('Enter');
          await chat.locator('.msg.user', { hasText: 'just the last line' }).waitFor();
          await chat.locator('#send', { hasText: 'Send' }).waitFor();
          assert.equal(
            await chat.locator('.notice', { hasText: /oldest turns? left out/ }).count(),
            0,
            'no earlier turn was left out',
          );
        });

        await stage('screenshots', async () => {
          // The user picks a theme from the palette.
          const theme = async (name: string, selector: string) => {
            // Clicked, not Enter: "Browse Color Themes in Marketplace" can rank first for the same words.
            await w.page.keyboard.press('F1');
            await w.page.locator('.quick-input-widget input').fill('>Preferences: Color Theme');
            await w.page
              .locator('.quick-input-list .monaco-list-row', {
                has: w.page.locator('.label-name', { hasText: /^Preferences: Color Theme$/ }),
              })
              .click();
            // The theme picker lists the installed themes (the palette's own input is gone by then).
            const row = w.page.locator('.quick-input-list .monaco-list-row', { hasText: name }).first();
            await row.waitFor();
            await row.click();
            await w.page.locator(selector).waitFor();
          };
          await theme('Dark 2026', '.monaco-workbench.vs-dark');
          await w.command('MinAgent: New Chat');
          await chat.locator('#welcome .example').first().waitFor();
          await sidebarShot(w, 'welcome-dark');
          await ask(chat, 'What is MCP?');
          await chat.locator('.card .card-status', { hasText: 'done' }).waitFor();
          await chat.locator('.msg.assistant:not(.streaming) blockquote').waitFor();
          await chat.locator('#send', { hasText: 'Send' }).waitFor();
          await sidebarShot(w, 'chat-dark');
          await theme('Light 2026', '.monaco-workbench.vs:not(.vs-dark)');
          await chat.locator('.card .card-status', { hasText: 'done' }).waitFor();
          await sidebarShot(w, 'chat-light');
          await w.command('MinAgent: New Chat');
          await chat.locator('#welcome .example').first().waitFor();
          await sidebarShot(w, 'welcome-light');
        });
      });
    },
    { timeout: 540_000 },
  );

  e2eTest(
    '2: set-up keeps the working model when VS Code has none; 3: history (New keeps the old, reopen, rename, delete); 24.9: set-up adds a second model',
    async () => {
      await stages('history', async (stage, w, cs, port) => {
        await w.openMinAgent();
        let chat = await w.webview();
        await chat.locator('#send', { hasText: 'Send' }).waitFor({ timeout: 240_000 }); // the first render, on a loaded machine
        await chat.locator('#model option', { hasText: 'mock-model' }).waitFor({ state: 'attached' });

        // The chats kept before this test's own (in the editor it shares with the tests before it, theirs):
        // this test's come first in the history, most recent first, and those stay below them.
        await w.command('MinAgent: Chat History');
        const anyRow = w.page.locator('.quick-input-list .monaco-list-row').first();
        await anyRow.or(w.page.locator('.quick-input-widget input[placeholder^="No conversations yet"]')).waitFor();
        const earlier = (await anyRow.isVisible())
          ? await w.page.locator('.quick-input-list .monaco-list-row').count()
          : 0;
        await w.page.keyboard.press('Escape');

        await stage('2-setup-keeps-the-model', async () => {
          await ask(chat, 'first conversation');
          await chat.locator('.msg.assistant', { hasText: 'You said: first conversation' }).waitFor();
          await w.command('MinAgent: Set Up a Model');
          await w.page
            .locator('.quick-input-list .monaco-list-row', { hasText: 'Copilot or another VS Code language model' })
            .click();
          await w.page
            .locator('.notifications-toasts', { hasText: 'No VS Code language model is available' })
            .waitFor();
          assert.match(await w.page.locator('.notifications-toasts').innerText(), /keeps using mock-model · localhost/);
          // Nothing changed: the setting, the picker, no banner; and the chat still answers.
          assert.equal((await cs.settings('user'))['minagent.chat.provider'], 'openai');
          assert.equal(await chat.locator('#model').inputValue(), `openai:mock-model@http://127.0.0.1:${port}/v1`);
          assert.equal(await chat.locator('#banner').isHidden(), true);
          await ask(chat, 'still there?');
          await chat.locator('.msg.assistant', { hasText: 'You said: still there?' }).waitFor();
        });

        const historyRows = async () => {
          await w.command('MinAgent: Chat History');
          // The history's own pick (it has a title; the command palette, whose row it replaces, has none).
          await w.page
            .locator('.quick-input-widget .quick-input-title', { hasText: 'MinAgent: Chat History' })
            .waitFor();
          const rows = w.page.locator('.quick-input-list .monaco-list-row');
          await rows.first().waitFor();
          return rows;
        };
        /** Each row as "title | description". */
        const rowTexts = async () => {
          const rows = await historyRows();
          const out: string[] = [];
          for (let i = 0; i < (await rows.count()); i++) {
            const part = (sel: string) =>
              rows
                .nth(i)
                .locator(sel)
                .first()
                .innerText()
                .catch(() => '');
            out.push(`${(await part('.label-name')).trim()} | ${(await part('.label-description')).trim()}`);
          }
          return out;
        };

        await stage('3-new-keeps-the-old', async () => {
          await w.command('MinAgent: New Chat');
          await chat.locator('#welcome').waitFor();
          assert.equal(await chat.locator('#transcript .msg').count(), 0);
          await ask(chat, 'second conversation');
          await chat.locator('.msg.assistant', { hasText: 'You said: second conversation' }).waitFor();
          const rows = await rowTexts();
          assert.equal(rows.length, earlier + 2, rows.join(' | '));
          assert.match(rows[0]!, /^second conversation \| current · just now$/);
          assert.match(rows[1]!, /^first conversation \| (just now|\d+ min ago)$/);
        });

        await stage('3-reopen', async () => {
          // The history is still open from the last stage.
          await w.page.locator('.quick-input-list .monaco-list-row', { hasText: 'first conversation' }).click();
          await chat.locator('.msg.user', { hasText: 'still there?' }).waitFor();
          assert.deepEqual(await chat.locator('#transcript .msg.user').allInnerTexts(), [
            'first conversation',
            'still there?',
          ]);
          // And it goes on where it was: the model gets its history.
          await ask(chat, 'back again');
          await chat.locator('.msg.assistant', { hasText: 'You said: back again' }).waitFor();
          const last = (
            (await (await fetch(`http://127.0.0.1:${port}/requests`)).json()) as Array<{
              body: { messages: Array<{ role: string; content: string }> };
            }>
          ).at(-1)!;
          assert.deepEqual(
            last.body.messages.filter((m) => m.role === 'user').map((m) => m.content),
            ['first conversation', 'still there?', 'back again'],
          );
        });

        await stage('3-rename', async () => {
          const row = (await historyRows()).filter({ hasText: 'second conversation' });
          await row.hover();
          await row.locator('.action-label[aria-label="Rename"]').click();
          const input = w.page.locator('.quick-input-widget input');
          await w.page.locator('.quick-input-widget', { hasText: 'Rename Chat' }).waitFor();
          await input.fill('My renamed chat');
          await input.press('Enter');
          // The history opens again with the new name.
          await w.page.locator('.quick-input-list .monaco-list-row', { hasText: 'My renamed chat' }).waitFor();
          await w.page.keyboard.press('Escape');
          const rows = await rowTexts();
          assert.match(rows[0]!, /^first conversation \| current · /);
          assert.match(rows[1]!, /^My renamed chat \| /);
          await w.page.keyboard.press('Escape');
        });

        await stage('3-delete', async () => {
          const row = (await historyRows()).filter({ hasText: 'My renamed chat' });
          await row.hover();
          await row.locator('.action-label[aria-label="Delete"]').click();
          await waitFor(
            'the deleted chat to leave the list',
            async () => (await w.page.locator('.quick-input-list .monaco-list-row').count()) === earlier + 1,
          );
          await w.page.keyboard.press('Escape');
          const rows = await rowTexts();
          assert.equal(rows.length, earlier + 1, rows.join(' | '));
          assert.match(rows[0]!, /^first conversation \| current · /);
          await w.page.keyboard.press('Escape');
          assert.deepEqual(
            await chat.locator('#transcript .msg.user').allInnerTexts(),
            ['first conversation', 'still there?', 'back again'],
            'deleting another chat leaves the shown one',
          );
        });

        await stage('24.4-keys-and-focus', async () => {
          // Where the caret is, inside the chat's frame (the frame itself must have the focus).
          const focused = () =>
            chat.evaluate(
              'document.hasFocus() && document.activeElement ? document.activeElement.id || document.activeElement.tagName : ""',
            );
          // From the Tools tree, Ctrl+Alt+M lands in the chat's input (it focused the view, three Tabs away).
          await w.row('research').click();
          await w.page.keyboard.press('Control+Alt+M');
          await waitFor('the caret in the chat input', async () => (await focused()) === 'input');
          await w.page.keyboard.type('a slow one, please');
          await w.page.keyboard.press('Enter');
          // After Allow once the card's buttons are gone: the caret goes back to the input, not the page.
          await chat.locator('.card.status-waiting button', { hasText: 'Allow once' }).click();
          await waitFor('the caret back in the input after Allow once', async () => (await focused()) === 'input');
          await chat.locator('.card .card-status', { hasText: 'running' }).waitFor();
          await w.page.keyboard.press('Escape'); // Stop, from the input
          await chat.locator('#send', { hasText: 'Send' }).waitFor();
          // Ctrl+Alt+N in the chat starts a new chat (it opened an Untitled file in code-server).
          await w.page.keyboard.press('Control+Alt+N');
          await chat.locator('#welcome').waitFor();
          assert.equal(await chat.locator('#transcript .msg').count(), 0, 'a new, empty chat');
          assert.equal(
            await w.page.locator('.tabs-container .tab', { hasText: /Untitled/ }).count(),
            0,
            'no Untitled editor opened',
          );
          assert.equal(await focused(), 'input');
          // No server here offers a prompt: a bare / says so (it showed nothing), and Escape closes it.
          await chat.locator('#input').pressSequentially('/');
          await chat
            .locator('.slash-menu:not([hidden]) .slash-empty', {
              hasText: 'No prompts: none of your running servers offers one.',
            })
            .waitFor();
          await chat.locator('#input').press('Escape');
          await chat.locator('.slash-menu').waitFor({ state: 'hidden' });
          await chat.locator('#input').fill('');
        });

        await stage('24.10-retry-and-edit', async () => {
          await ask(chat, 'retry me');
          await chat.locator('.msg.assistant', { hasText: 'You said: retry me' }).waitFor();
          const bar = chat.locator('.last-actions:not([hidden])');
          await bar.waitFor();
          const before = (await requests(port)).length;
          await bar.locator('button', { hasText: 'Retry' }).click();
          await waitFor('the retried request', async () => (await requests(port)).length === before + 1);
          await chat.locator('#send', { hasText: 'Send' }).waitFor();
          assert.deepEqual(
            await chat.locator('#transcript .msg.user').allInnerTexts(),
            ['retry me'],
            'the message once',
          );
          assert.equal(
            await chat.locator('#transcript .msg.assistant').count(),
            1,
            'its new answer in place of the old',
          );
          await bar.locator('button', { hasText: 'Edit' }).click();
          await waitFor(
            'the message back in the input',
            async () => (await chat.locator('#input').inputValue()) === 'retry me',
          );
          assert.equal(await chat.locator('#transcript .msg').count(), 0, 'the message and its answer were taken back');
          await chat.locator('#welcome').waitFor({ timeout: 5_000 }); // the chat is empty again: its welcome is back
          assert.equal(await chat.evaluate('document.activeElement && document.activeElement.id'), 'input');
          await w.screenshot('retry-and-edit');
          // Edit has an Undo (issue 53 item 11): the turn comes back, and its text leaves the input.
          const undo = chat.locator('.undo-edit:not([hidden])');
          await undo.locator('button', { hasText: 'Undo' }).click();
          await chat.locator('.msg.assistant', { hasText: 'You said: retry me' }).waitFor();
          assert.deepEqual(
            await chat.locator('#transcript .msg.user').allInnerTexts(),
            ['retry me'],
            'the message is back',
          );
          assert.equal(await chat.locator('#input').inputValue(), '', 'its text left the input');
          assert.equal(await undo.count(), 0, 'the offer goes with its use');
          await w.screenshot('edit-undone');
          // Taken back again, for the stages that follow an empty chat.
          await bar.locator('button', { hasText: 'Edit' }).click();
          await waitFor(
            'the message back in the input again',
            async () => (await chat.locator('#input').inputValue()) === 'retry me',
          );
          await chat.locator('#input').fill('');
        });

        await stage('24.9-setup-adds-a-model', async () => {
          const second = await listeningFixture('fixtures/models/mock-model.mjs', [
            '--label',
            'second',
            '--models',
            'second-model,zz-other',
          ]);
          try {
            const host = `127.0.0.1:${second.port}`;
            const secondId = `openai:second-model@http://${host}/v1`;
            const input = w.page.locator('.quick-input-widget input');
            const title = (text: string) =>
              w.page.locator('.quick-input-widget .quick-input-title', { hasText: text }).waitFor();
            await w.command('MinAgent: Set Up a Model');
            await w.page
              .locator('.quick-input-list .monaco-list-row', { hasText: 'OpenAI-compatible endpoint' })
              .click();
            await title('Base URL');
            await input.fill(`http://${host}/v1`);
            await input.press('Enter');
            // The endpoint's own list (GET /v1/models), and a way to type a name it does not show.
            await w.page.locator('.quick-input-list .monaco-list-row', { hasText: 'zz-other' }).waitFor();
            assert.deepEqual(await w.page.locator('.quick-input-list .monaco-list-row .label-name').allInnerTexts(), [
              'second-model',
              'zz-other',
              'Another model name…',
            ]);
            await input.fill('second-model');
            await w.page
              .locator('.quick-input-list .monaco-list-row', { hasText: 'zz-other' })
              .waitFor({ state: 'detached' });
            await input.press('Enter');
            await title('API key for');
            await input.fill('No key needed');
            await w.page
              .locator('.quick-input-list .monaco-list-row', { hasText: 'Set an API key now' })
              .waitFor({ state: 'detached' });
            await input.press('Enter');
            // Said, and done: both models in the picker, the new one selected, and it answers.
            await w.page
              .locator('.notifications-toasts', { hasText: 'MinAgent now uses second-model · localhost' })
              .waitFor();
            await waitFor(
              'the new model selected',
              async () => (await chat.locator('#model').inputValue()) === secondId,
            );
            assert.deepEqual(await chat.locator('#model option').allInnerTexts(), [
              'mock-model · localhost',
              'second-model · localhost',
            ]);
            await ask(chat, 'hello second');
            await chat.locator('.msg.assistant', { hasText: '[second] You said: hello second' }).waitFor();
            // The old provider settings moved into the list once, on activation; the set-up added to it.
            const first = { provider: 'openai', baseUrl: `http://127.0.0.1:${port}/v1`, model: 'mock-model' };
            assert.deepEqual((await cs.settings('user'))['minagent.chat.models'], [
              first,
              { provider: 'openai', baseUrl: `http://${host}/v1`, model: 'second-model' },
            ]);

            // The selection survives a reload.
            await w.reload();
            await w.openMinAgent();
            chat = await w.webview();
            await chat
              .locator('#model option', { hasText: 'second-model' })
              .waitFor({ state: 'attached', timeout: 120_000 });
            assert.equal(await chat.locator('#model').inputValue(), secondId);

            // The old model is still there and still answers.
            await chat.locator('#model').selectOption({ label: 'mock-model · localhost' });
            await ask(chat, 'the first one again');
            await chat.locator('.msg.assistant', { hasText: 'You said: the first one again' }).waitFor();
            assert.doesNotMatch(await chat.locator('.msg.assistant').last().innerText(), /\[second\]/);
            assert.equal((await requests(port)).at(-1)!.body.messages.at(-1)!.content, 'the first one again');
          } finally {
            second.child.stdin!.end();
          }
        });
      });
    },
    { timeout: 720_000 },
  );
});
