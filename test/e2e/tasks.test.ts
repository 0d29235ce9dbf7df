// Long-running tool calls (the Tasks extension) in a real VS Code, against the tasker fixture over HTTP (it outlives
// the window, as a remote server does): a 20-s build shows its steps on its card and runs on in the background while
// the user sends another message; the window reloads in the middle and the task is followed again; its outcome
// arrives and the model answers it. A deploy asks midway and gets the form; Stop Task cancels a build at the server.
import assert from 'node:assert/strict';
import { after, describe } from 'node:test';
import { httpFixtureWithMethods, waitFor } from '../helpers';
import { ask } from './chatSteps';
import { inMockChat } from './mockChat';
import { e2eTest } from './prereqs';
import { staged } from './workbench';

describe('long-running tool calls (tasks) in VS Code', () => {
  const children: Array<{ stdin: NodeJS.WritableStream | null }> = [];
  after(() => children.forEach((c) => c.stdin?.end()));

  e2eTest(
    'a 20-s task runs on while the user sends another message, survives a reload, and its outcome is answered; a task asks midway; Stop Task cancels at the server',
    async () => {
      const tasker = await httpFixtureWithMethods('tasker.mjs', ['--http'], { TASKER_POLL_MS: '500' });
      children.push(tasker.child);
      const settings = { 'minagent.servers': { tasker: { type: 'http', url: tasker.url } } };
      await inMockChat(
        'tasks',
        settings,
        (rows) => rows.some((r) => /^tasker\b.*8 tools/.test(r)),
        async ({ w, chat: first }) => {
          let chat = first;
          const stage = staged('tasks', () => w);
          // The activity bar's tooltip (the pointer rests there after opening MinAgent) would cover the card's buttons.
          await w.page.mouse.move(900, 450);
          const card = (name: string) => chat.locator('.card', { hasText: name }).last();

          await stage('1-a-task-shows-its-steps', async () => {
            await ask(chat, 'build it');
            await card('build').locator('button', { hasText: 'Allow once' }).click();
            await card('build')
              .locator('.card-progress', { hasText: /running as a task: step \d+ of 10/ })
              .waitFor();
            await card('build').locator('button', { hasText: 'Run in Background' }).waitFor();
            await w.screenshot('tasks-1-progress');
          });

          await stage('2-runs-on-while-the-user-chats', async () => {
            await card('build').locator('button', { hasText: 'Run in Background' }).click();
            await card('build').locator('.card-status', { hasText: 'running in the background' }).waitFor();
            // The model was told it runs on; the turn ended, and the user sends another message meanwhile.
            await chat.locator('.msg.assistant', { hasText: 'running in the background' }).waitFor();
            await ask(chat, 'hello while it builds');
            await chat.locator('.msg.assistant', { hasText: 'You said: hello while it builds' }).waitFor();
            assert.equal(await card('build').locator('.card-status').innerText(), 'running in the background');
            await w.screenshot('tasks-2-background');
          });

          await stage('3-a-reload-keeps-it', async () => {
            const polledBefore = tasker.methods.filter((m) => m === 'got tasks/get').length;
            await w.reload();
            await w.openMinAgent();
            await w.page.mouse.move(900, 450);
            chat = await w.webview();
            await card('build').locator('.card-status', { hasText: 'running in the background' }).waitFor({
              timeout: 30_000,
            });
            // Followed again by the new window: its polls go on.
            await waitFor(
              'the task polled again after the reload',
              () => tasker.methods.filter((m) => m === 'got tasks/get').length > polledBefore + 2,
              30_000,
            );
          });

          await stage('4-its-outcome-is-answered', async () => {
            await chat.locator('.msg.task-outcome', { hasText: 'built in 20 s' }).waitFor({ timeout: 40_000 });
            await chat
              .locator('.msg.assistant', { hasText: 'The background task has ended: built in 20 s' })
              .waitFor({ timeout: 30_000 });
            await card('build').locator('.card-status', { hasText: 'done' }).waitFor();
            await w.screenshot('tasks-3-outcome');
          });

          await stage('5-asks-midway', async () => {
            await ask(chat, 'deploy it');
            await card('deploy').locator('button', { hasText: 'Allow once' }).click();
            const form = chat.locator('.ask-form');
            await form.waitFor({ timeout: 30_000 });
            assert.match(await form.innerText(), /Deploy to which stage\?/);
            await form.locator('select').selectOption('staging');
            await form.locator('button', { hasText: 'Accept' }).click();
            await chat.locator('.msg.assistant', { hasText: 'deployed to staging' }).waitFor({ timeout: 30_000 });
          });

          await stage('6-stop-cancels-at-the-server', async () => {
            await ask(chat, 'build it');
            await card('build').locator('button', { hasText: 'Allow once' }).click();
            await card('build').locator('.card-progress', { hasText: 'running as a task' }).waitFor();
            await card('build').locator('button', { hasText: 'Stop Task' }).click();
            await card('build').locator('.card-status', { hasText: 'cancelled' }).waitFor();
            await waitFor(
              'tasks/cancel at the server',
              () => tasker.methods.some((m) => /^cancelled task-\d+-build$/.test(m)),
              10_000,
            );
            assert.ok(
              !tasker.methods.some((m) => m.startsWith('cancelled request')),
              'never notifications/cancelled for a task',
            );
          });
        },
      );
    },
  );
});
