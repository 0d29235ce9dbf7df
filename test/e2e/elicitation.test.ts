// A server's elicitation form in a real VS Code: the model calls the asker fixture's ask_profile,
// the form appears as a card in the chat with its defaults filled in and the server's text shown as
// text, Accept waits for the required field, and the tool call completes with the answer, which
// the tool card shows and the model's next request carries. Then the server's sampling request is
// a card showing what would be sent; approved, exactly that goes to the chat's model. From the
// Try Tool command the form is a row of quick inputs instead, and a URL is a modal with the full URL.
import assert from 'node:assert/strict';
import { describe } from 'node:test';
import { waitFor } from '../helpers';
import { inMockChat, requests } from './mockChat';
import { e2eTest } from './prereqs';
import type { Workbench } from './workbench';

const ASKER = { 'minagent.servers': { asker: { command: 'node', args: ['${env:MINAGENT_FIXTURES}/asker.mjs'] } } };
const ANSWER = 'profile: {"name":"Ada Lovelace","team":"web","seats":3,"notify":true}';

/**
 * One quick input of a sequence: waits for its title, types `value` (if any) and picks `pick` (or the first row / the
 * typed value).
 */
async function step(w: Workbench, title: string, value: string, pick?: string): Promise<void> {
  await w.page.locator('.quick-input-widget .quick-input-title', { hasText: title }).waitFor();
  const input = w.page.locator('.quick-input-widget input');
  if (value) await input.fill(value);
  if (pick) await w.page.locator('.quick-input-list .monaco-list-row', { hasText: pick }).first().waitFor();
  await w.page.keyboard.press('Enter');
}

/** Try Tool from the command palette and its tool picker (the same command as the tree's). */
async function tryTool(w: Workbench, tool: string): Promise<void> {
  await w.row(tool).click(); // the workbench, not the chat's webview, takes the keys
  await w.command('MinAgent: Try Tool');
  await step(w, 'MinAgent: Try Tool', tool, tool);
}

describe('elicitation in VS Code', () => {
  e2eTest(
    'a form is answered in the chat and the tool call completes with the answer; a sampling request is approved in a card; from Try Tool a form is a row of quick inputs and a URL a modal with the full URL and host',
    async () => {
      await inMockChat(
        'elicitation',
        ASKER,
        (rows) => rows.some((r) => /^asker\b.*5 tools/.test(r)),
        async ({ w, chat, mock }) => {
          await chat.locator('#input').fill('Please fill in my profile');
          await chat.locator('#input').press('Enter');
          // ask_profile is not read-only: its card asks first.
          await chat
            .locator('.card.status-waiting', { hasText: 'ask_profile' })
            .locator('button', { hasText: 'Allow once' })
            .click();

          const form = chat.locator('.ask-form');
          await form.waitFor();
          const formShown = Date.now();
          await w.screenshot('elicitation-1-form');
          await w.page.waitForTimeout(1000); // the user reads the form: this time is not the call's
          // The server's message is text: its markup is shown, not rendered.
          assert.equal(await form.locator('.ask-message').innerText(), 'Tell us <b>who</b> you are');
          assert.equal(await form.locator('.ask-message b').count(), 0);
          // Defaults are filled in; the required name is empty, so Accept waits.
          assert.equal(await form.locator('select').inputValue(), 'web');
          assert.equal(await form.locator('input[type="number"]').inputValue(), '3');
          assert.equal(await form.locator('input[type="checkbox"]').isChecked(), true);
          // The tool's card says what it waits for in the user's words, not the SDK's.
          const waiting = chat.locator('.card', { hasText: 'ask_profile' });
          await waiting
            .locator('.card-progress, .card-body', { hasText: 'the server asked for your input' })
            .first()
            .waitFor();
          assert.doesNotMatch(await waiting.innerText(), /Fulfilling input required/);
          const accept = form.locator('button', { hasText: 'Accept' });
          // Accept reads as not ready (dimmed, aria-disabled); a click says why instead of doing nothing (issue 53,
          // item 9).
          assert.equal(await accept.getAttribute('aria-disabled'), 'true');
          assert.ok(Number(await accept.evaluate((b) => getComputedStyle(b).opacity)) < 0.8, 'it looks not ready');
          assert.deepEqual(
            (await form.locator('.ask-error').allInnerTexts()).filter((t) => t.trim()),
            [],
            'no error before anything was tried',
          );
          // Forced: Playwright waits for an aria-disabled button to be enabled, as a user would not.
          await accept.click({ force: true });
          await form.locator('.ask-why', { hasText: 'To accept, fill in: ' }).waitFor();
          await form.locator('.ask-error', { hasText: 'Your name is required' }).waitFor();
          assert.equal(await form.locator('.ask-outcome').count(), 0, 'nothing was sent');
          // A screen reader hears it too: the field is required and wrong, its message read with it.
          const nameField = form.locator('input[name="name"]');
          assert.equal(await nameField.getAttribute('aria-required'), 'true');
          assert.equal(await nameField.getAttribute('aria-invalid'), 'true');
          assert.match(
            await form.locator(`[id="${await nameField.getAttribute('aria-describedby')}"]`).innerText(),
            /Your name is required/,
          );
          await w.screenshot('elicitation-accept-why');
          // Leaving the field empty says why Accept waits.
          const name = form.locator('input[name="name"]');
          await name.focus();
          await form.locator('select').focus();
          await form.locator('.ask-error', { hasText: 'Your name is required' }).waitFor();
          await name.fill('A');
          await form.locator('.ask-error', { hasText: 'at least 2 characters' }).waitFor();
          // Enter on an invalid form accepts nothing.
          await name.press('Enter');
          assert.equal(await form.locator('.ask-outcome').count(), 0);
          await name.fill('Ada Lovelace');
          await waitFor('Accept to be ready', async () => (await accept.getAttribute('aria-disabled')) === 'false');
          assert.equal(
            await form.locator('.ask-why').innerText(),
            '',
            'the line beside Accept goes once the form is ready',
          );
          // Enter in a field accepts, as VS Code's own input boxes do.
          await name.press('Enter');

          await form.locator('.ask-outcome', { hasText: 'accepted' }).waitFor();
          const formOpenMs = Date.now() - formShown;
          const card = chat.locator('.card.status-done', { hasText: 'ask_profile' });
          await card.waitFor();
          // The card's duration is the call's own time: the time the user spent on the form is not in it
          // (were it counted, the card would say at least the time the form was open).
          const duration = await card.locator('.card-duration').innerText();
          const [, n, unit] = /^([\d.]+) (ms|s)$/.exec(duration) ?? [];
          assert.ok(
            n !== undefined && Number(n) * (unit === 's' ? 1000 : 1) < formOpenMs,
            `the card says ${duration}; the form was open ${formOpenMs} ms`,
          );
          assert.ok(
            (await card.locator('.card-result').innerText()).includes(ANSWER),
            'the tool card shows the answer the server got',
          );
          await chat.locator('.msg.assistant', { hasText: 'Here is what the tool returned' }).waitFor();
          await w.screenshot('elicitation-2-done');
          const seen = await requests(mock.port);
          const tool = [...seen]
            .reverse()
            .find((r) => r.body.messages.some((m) => m.role === 'tool'))
            ?.body.messages.find((m) => m.role === 'tool');
          assert.equal(tool?.content, ANSWER, "the model's next request carries the answer");

          // Sampling: the server's request is shown as a card; approved, it goes to the chat's model.
          // Once the turn before has ended (Enter while it ends sends nothing: the text stays in the input).
          await chat.locator('#send', { hasText: 'Send' }).waitFor();
          await chat.locator('#input').fill('Ask the oracle');
          await chat.locator('#input').press('Enter');
          await chat
            .locator('.card.status-waiting', { hasText: 'sample' })
            .locator('button', { hasText: 'Allow once' })
            .click();
          const sampling = chat.locator('.ask-sampling');
          await sampling.waitFor();
          const shown = await sampling.innerText();
          for (const part of [
            'asks to send this to your model',
            'up to 100 tokens',
            "this server's limit: 1024",
            'You are a terse oracle.',
            'What is 6 x 7?',
          ])
            assert.ok(shown.includes(part), `the card shows "${part}": ${shown}`);
          await w.screenshot('elicitation-3-sampling');
          const before = (await requests(mock.port)).length;
          await sampling.locator('button', { hasText: 'Allow once' }).click();
          await sampling.locator('.ask-outcome', { hasText: 'allowed' }).waitFor();
          await chat
            .locator('.card.status-done', { hasText: 'sample' })
            .locator('.card-result', { hasText: 'said: You said: What is 6 x 7?' })
            .waitFor();
          const sampled = (await requests(mock.port))[before]!.body;
          assert.deepEqual(
            sampled.messages,
            [
              { role: 'system', content: 'You are a terse oracle.' },
              { role: 'user', content: 'What is 6 x 7?' },
            ],
            'what was shown is what was sent',
          );
          assert.equal(sampled.max_tokens, 100);
          assert.equal(sampled.tools, undefined, 'no tools go with a sampling request');

          // The same editor, no second one started (the Try Tool half needs no other settings).
          // From Try Tool the same form is a row of quick inputs, not a chat card (the chat is open).
          const formsBefore = await chat.locator('.ask-form').count();
          await tryTool(w, 'ask_profile');
          await step(w, 'Try ask_profile', '');
          await step(w, 'Server "asker" asks', '', 'Answer');
          await step(w, '(1/5): Your name', 'Grace Hopper');
          await step(w, '(2/5): Team', '', 'web');
          await step(w, '(3/5): Seats', '4');
          await step(w, '(4/5): Notify me', '', 'Yes');
          await step(w, '(5/5): Email (optional)', '');
          await waitFor(
            'the result editor',
            async () =>
              (await w.editorText().catch(() => '')).includes(
                'profile: {"name":"Grace Hopper","team":"web","seats":4,"notify":true}',
              ),
            60_000,
          );
          assert.equal(await chat.locator('.ask-form').count(), formsBefore, 'no card in the chat for a Try Tool call');
          await w.screenshot('elicitation-4-try-tool');

          // URL mode: a modal with the full URL and its host; Decline opens nothing.
          await tryTool(w, 'ask_url');
          await step(w, 'Try ask_url', '{"url": "https://login.example.com/consent?step=2"}');
          const dialog = w.page.locator('.monaco-dialog-box');
          await dialog.waitFor();
          const said = await dialog.innerText();
          assert.ok(said.includes('Server "asker" asks you to open login.example.com'), said);
          assert.ok(
            said.includes('URL: https://login.example.com/consent?step=2') && said.includes('Host: login.example.com'),
            said,
          );
          await w.screenshot('elicitation-5-url');
          await dialog.locator('.monaco-button', { hasText: 'Decline' }).click();
          await waitFor(
            'the URL result',
            async () => (await w.editorText().catch(() => '')).includes('visit: decline'),
            60_000,
          );

          // Open: a 2026-07-28 round stays open while the user is in the browser, until they say Done.
          await tryTool(w, 'ask_url');
          await step(w, 'Try ask_url', '{"url": "https://login.example.com/consent?step=3"}');
          await dialog.waitFor();
          await dialog.locator('.monaco-button', { hasText: 'Open' }).click();
          // The editor's own check of an external link comes next; the page opens in a tab of its own.
          const external = w.page.locator('.monaco-dialog-box', { hasText: 'open the external website' });
          await external.waitFor();
          await external.locator('.monaco-button', { hasText: /^Open$/ }).click();
          const urlWaits = w.page.locator('.notification-toast', {
            hasText: 'waits while you finish on login.example.com',
          });
          await urlWaits.waitFor({ timeout: 30_000 });
          assert.ok(
            !(await w.editorText().catch(() => '')).includes('visit: accept'),
            'no answer before the user says Done',
          );
          await w.screenshot('elicitation-6-url-waits');
          await urlWaits.locator('.monaco-button', { hasText: 'Done' }).click();
          await waitFor(
            'the URL result after Done',
            async () => (await w.editorText().catch(() => '')).includes('visit: accept'),
            60_000,
          );
        },
      );
    },
  );
});
