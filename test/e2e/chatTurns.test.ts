// Turn ownership in a real VS Code: New Chat during a streaming answer leaves an empty conversation
// that stays empty, and the next request the model gets has none of the old messages; closing the
// editor panel during a streaming answer ends that turn and the sidebar goes on without it. Then, in
// the same editor, a vscode.lm model (a test extension's, as Copilot's would be) calls MCP tools.
import assert from 'node:assert/strict';
import { describe } from 'node:test';
import type { Frame } from 'playwright-core';
import { waitFor } from '../helpers';
import { requests, startDemoWithMockModel } from './mockChat';
import { e2eTest } from './prereqs';
import { Workbench } from './workbench';

const transcriptText = (chat: Frame) => chat.locator('#transcript').innerText();
const cards = (chat: Frame) => chat.locator('.card');

async function ask(chat: Frame, text: string): Promise<void> {
  await chat.locator('#send', { hasText: 'Send' }).waitFor(); // the previous turn has ended
  const input = chat.locator('#input');
  await input.fill(text);
  await input.press('Enter');
}

/**
 * Asks for the mock's long story from `view` and waits until its answer streams (the mock sent its first words and
 * holds the stream open).
 */
async function startLongAnswer(view: Frame): Promise<void> {
  await view.locator('#model option', { hasText: 'mock-model' }).waitFor({ state: 'attached' });
  const input = view.locator('#input');
  await input.fill('Tell me a long story');
  await input.press('Enter');
  await view.locator('.msg.assistant.streaming', { hasText: 'thinking' }).waitFor();
}

describe('chat turns in VS Code', () => {
  e2eTest(
    'New Chat during a streaming answer: the new chat stays empty and the next request carries no old message; closing the editor panel during a streaming answer ends that turn and the sidebar goes on without it; a vscode.lm model (a test extension registers one, as Copilot would) calls MCP tools and gets their images',
    async () => {
      // Beside the demo's servers, one whose tool returns an image (auto-approved in its entry), for the vscode.lm
      // model.
      const pictures = {
        command: 'node',
        args: ['${env:MINAGENT_FIXTURES}/faulty.mjs', 'content'],
        autoApprove: ['mixed'],
      };
      const { mock, cs } = await startDemoWithMockModel({
        extensions: ['fake-lm'],
        userSettings: { 'minagent.servers': { pictures } },
      });
      let wb: Workbench | undefined;
      try {
        wb = await Workbench.open(cs.url);
        const w = wb;
        await w.openMinAgent();
        const chat = await w.webview();
        try {
          const input = chat.locator('#input');
          await startLongAnswer(chat);
          await chat.locator('#send', { hasText: 'Stop' }).waitFor();
          await w.screenshot('chat-turns-1-streaming');

          await w.command('MinAgent: New Chat');
          await chat.locator('#send', { hasText: 'Send' }).waitFor();
          // The old turn has really ended: its request to the model was closed.
          await waitFor(
            'the old request to be closed',
            async () => (await requests(mock.port))[0]?.closed === true,
            20_000,
          );
          assert.equal((await transcriptText(chat)).trim(), '', 'the new conversation is empty');
          assert.equal(await chat.locator('#transcript .msg, #transcript .notice, #transcript .card').count(), 0);
          await w.screenshot('chat-turns-2-after-new-chat');

          await input.fill('hello there');
          await input.press('Enter');
          await chat.locator('.msg.assistant', { hasText: 'You said: hello there' }).waitFor();
          // The turn over (its answer rendered whole: read mid-render, the answer once ended in a stray line break).
          await chat.locator('#send', { hasText: 'Send' }).waitFor();
          const seen = await requests(mock.port);
          assert.equal(seen.length, 2);
          const sent = seen[1]!.body.messages.filter((m) => m.role !== 'system');
          assert.deepEqual(sent, [{ role: 'user', content: 'hello there' }], 'only the new message went to the model');
          // The old turn wrote nothing into this conversation, then or since (no "Stopped." either).
          assert.deepEqual(
            (await chat.locator('#transcript .msg').allInnerTexts()).map((t) => t.trim()),
            ['hello there', 'You said: hello there. Ask me "What is MCP?" to see a tool call.'],
          );
          assert.equal(await chat.locator('#transcript .notice, #transcript .card').count(), 0);
          await w.screenshot('chat-turns-3-next-turn');

          // Closing the editor panel that started a turn ends that turn (its request to the model is
          // closed), and the sidebar, which shows the same conversation, is free for the next turn, into
          // which the ended turn writes nothing. In the same editor, from a new chat.
          await w.command('MinAgent: New Chat');
          await waitFor('a new, empty chat', async () => (await transcriptText(chat)).trim() === '');
          const base = (await requests(mock.port)).length;
          await w.command('MinAgent: Open Chat');
          const panel = await w.webview({ panel: true });
          await startLongAnswer(panel);
          // The sidebar shows the same turn, busy.
          await chat.locator('.msg.assistant.streaming', { hasText: 'thinking' }).waitFor();
          await chat.locator('#send', { hasText: 'Stop' }).waitFor();
          await w.screenshot('view-close-1-streaming');

          await w.command('View: Close All Editors');
          await w.page
            .locator('iframe.webview.ready:not([src*="purpose=webviewView"])')
            .waitFor({ state: 'detached', timeout: 30_000 });
          await waitFor(
            "the turn's request to be closed",
            async () => (await requests(mock.port))[base]?.closed === true,
            30_000,
          );
          await chat
            .locator('.notice', { hasText: 'Stopped: the chat view that started this turn was closed.' })
            .waitFor();
          await chat.locator('#send', { hasText: 'Send' }).waitFor();
          await w.screenshot('view-close-2-after-close');
          const ended = await chat.locator('#transcript .msg, #transcript .notice, #transcript .card').count();

          await input.fill('hello there');
          await input.press('Enter');
          await chat.locator('.msg.assistant', { hasText: 'You said: hello there' }).waitFor();
          const after = await requests(mock.port);
          assert.equal(after.length, base + 2);
          // The same conversation goes on: the new message after the ended turn's question.
          const userTexts = after[base + 1]!.body.messages.filter((m) => m.role === 'user').map((m) => m.content);
          assert.deepEqual(userTexts, ['Tell me a long story', 'hello there']);
          const items = await chat.locator('#transcript .msg, #transcript .notice, #transcript .card').allInnerTexts();
          assert.equal(items.length, ended + 2, 'only the new turn wrote into the conversation since');
          assert.match(items.at(-2)!, /hello there/);
          await w.screenshot('view-close-3-next-turn');
        } catch (err) {
          throw new Error(
            `chat turns failed (screenshot: ${await w.screenshot('chat-turns-failed')}): ${(err as Error).message}`,
          );
        }
        try {
          // Every server running (the status bar: the tree below the chat shows only its first rows).
          await w.page
            .locator('.statusbar-item', { hasText: /\b(\d+)\/\1 · \d+ tools\b/ })
            .first()
            .waitFor({ timeout: 120_000 });
          // The test extension also plays a hostile one: MinAgent's exports give it no way to run a tool.
          const probe = w.page.locator('.statusbar-item', { hasText: /^probe: / }).first();
          await probe.waitFor({ timeout: 60_000 });
          assert.equal((await probe.innerText()).trim(), 'probe: exports servers,toolNames; no way to run a tool');
          // A new chat on the vscode.lm model, picked as a user picks it.
          await w.command('MinAgent: New Chat');
          await waitFor('a new, empty chat', async () => (await transcriptText(chat)).trim() === '');
          const fake = chat.locator('#model option', { hasText: 'Fake LM (minagent-fake)' });
          await fake.waitFor({ state: 'attached' });
          await chat.locator('#model').selectOption((await fake.getAttribute('value'))!);
          await ask(chat, 'hello');
          await chat.locator('.msg.assistant', { hasText: 'Fake LM here; I was given 11 tools.' }).waitFor();
          await ask(chat, 'What is MCP?');
          const card = cards(chat).first();
          await card.locator('.card-status', { hasText: 'done' }).waitFor();
          assert.equal(await card.locator('.card-server').innerText(), '→ research');
          await chat.locator('.msg.assistant', { hasText: 'The LM read: mcp: MCP (Model Context Protocol)' }).waitFor();
          // An image a tool returns reaches the vscode.lm model as a data part, bytes intact.
          await ask(chat, 'Show me the chart');
          const chart = cards(chat).nth(1);
          await chart.locator('.card-status', { hasText: 'done' }).waitFor();
          assert.equal(await chart.locator('.card-server').innerText(), '→ pictures');
          await chat
            .locator('.msg.assistant', { hasText: 'and saw an image/png image of 7 bytes starting "PNGD"' })
            .waitFor();
        } catch (err) {
          throw new Error(
            `vscode.lm turn failed (screenshot: ${await w.screenshot('chat-vscode-lm')}): ${(err as Error).message}`,
          );
        }
      } finally {
        await wb?.close();
        await cs.stop();
        mock.child.stdin!.end();
      }
    },
  );
});
