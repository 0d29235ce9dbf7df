// Turn ownership in a real VS Code: New Chat during a streaming answer leaves an empty conversation
// that stays empty, and the next request the model gets has none of the old messages.
import assert from 'node:assert/strict';
import { describe } from 'node:test';
import type { Frame } from 'playwright-core';
import { waitFor } from '../helpers';
import { requests, startDemoWithMockModel } from './mockChat';
import { e2eTest } from './prereqs';
import { Workbench } from './workbench';

const transcriptText = (chat: Frame) => chat.locator('#transcript').innerText();

describe('chat turns in VS Code', () => {
  e2eTest('New Chat during a streaming answer: the new chat stays empty and the next request carries no old message', async () => {
    const { mock, cs } = await startDemoWithMockModel();
    let wb: Workbench | undefined;
    try {
      wb = await Workbench.open(cs.url);
      const w = wb;
      await w.openMinAgent();
      const chat = await w.webview();
      try {
        await chat.locator('#model option', { hasText: 'mock-model' }).waitFor({ state: 'attached' });
        const input = chat.locator('#input');
        await input.fill('Tell me a long story');
        await input.press('Enter');
        // The answer is streaming (the mock sent its first words and holds the stream open).
        await chat.locator('.msg.assistant.streaming', { hasText: 'thinking' }).waitFor();
        await chat.locator('#send', { hasText: 'Stop' }).waitFor();
        await w.screenshot('chat-turns-1-streaming');

        await w.command('MinAgent: New Chat');
        await chat.locator('#send', { hasText: 'Send' }).waitFor();
        // The old turn has really ended: its request to the model was closed.
        await waitFor('the old request to be closed', async () => (await requests(mock.port))[0]?.closed === true, 20_000);
        assert.equal((await transcriptText(chat)).trim(), '', 'the new conversation is empty');
        assert.equal(await chat.locator('#transcript .msg, #transcript .notice, #transcript .card').count(), 0);
        await w.screenshot('chat-turns-2-after-new-chat');

        await input.fill('hello there');
        await input.press('Enter');
        await chat.locator('.msg.assistant', { hasText: 'You said: hello there' }).waitFor();
        const seen = await requests(mock.port);
        assert.equal(seen.length, 2);
        const sent = seen[1]!.body.messages.filter((m) => m.role !== 'system');
        assert.deepEqual(sent, [{ role: 'user', content: 'hello there' }], 'only the new message went to the model');
        // The old turn wrote nothing into this conversation, then or since (no "Stopped." either).
        assert.deepEqual(await chat.locator('#transcript .msg').allInnerTexts(), ['hello there', 'You said: hello there. Ask me "What is MCP?" to see a tool call.']);
        assert.equal(await chat.locator('#transcript .notice, #transcript .card').count(), 0);
        await w.screenshot('chat-turns-3-next-turn');
      } catch (err) {
        throw new Error(`chat turns failed (screenshot: ${await w.screenshot('chat-turns-failed')}): ${(err as Error).message}`);
      }
    } finally {
      await wb?.close();
      await cs.stop();
      mock.child.stdin!.end();
    }
  });
});
