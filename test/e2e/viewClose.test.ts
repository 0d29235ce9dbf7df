// Turn ownership in a real VS Code: closing the editor panel that started a turn ends that turn
// (its request to the model is closed), and the sidebar, which shows the same conversation, is free
// for the next turn, into which the ended turn writes nothing.
import assert from 'node:assert/strict';
import { describe } from 'node:test';
import { waitFor } from '../helpers';
import { requests, startDemoWithMockModel } from './mockChat';
import { e2eTest } from './prereqs';
import { Workbench } from './workbench';

describe('closing a chat view in VS Code', () => {
  e2eTest('closing the editor panel during a streaming answer ends that turn; the sidebar goes on without it', async () => {
    const { mock, cs } = await startDemoWithMockModel();
    let wb: Workbench | undefined;
    try {
      wb = await Workbench.open(cs.url);
      const w = wb;
      await w.openMinAgent();
      const sidebar = await w.webview();
      try {
        await sidebar.locator('#model option', { hasText: 'mock-model' }).waitFor({ state: 'attached' });
        await w.command('MinAgent: Open Chat');
        const panel = await w.webview({ panel: true });
        await panel.locator('#model option', { hasText: 'mock-model' }).waitFor({ state: 'attached' });
        const input = panel.locator('#input');
        await input.fill('Tell me a long story');
        await input.press('Enter');
        await panel.locator('.msg.assistant.streaming', { hasText: 'thinking' }).waitFor();
        // The sidebar shows the same turn, busy.
        await sidebar.locator('.msg.assistant.streaming', { hasText: 'thinking' }).waitFor();
        await sidebar.locator('#send', { hasText: 'Stop' }).waitFor();
        await w.screenshot('view-close-1-streaming');

        await w.command('View: Close All Editors');
        await w.page.locator('iframe.webview.ready:not([src*="purpose=webviewView"])').waitFor({ state: 'detached', timeout: 30_000 });
        await waitFor('the turn\'s request to be closed', async () => (await requests(mock.port))[0]?.closed === true, 30_000);
        await sidebar.locator('.notice', { hasText: 'Stopped: the chat view that started this turn was closed.' }).waitFor();
        await sidebar.locator('#send', { hasText: 'Send' }).waitFor();
        await w.screenshot('view-close-2-after-close');
        const ended = await sidebar.locator('#transcript .msg, #transcript .notice, #transcript .card').count();

        const side = sidebar.locator('#input');
        await side.fill('hello there');
        await side.press('Enter');
        await sidebar.locator('.msg.assistant', { hasText: 'You said: hello there' }).waitFor();
        const seen = await requests(mock.port);
        assert.equal(seen.length, 2);
        // The same conversation goes on: the new message after the ended turn's question.
        const userTexts = seen[1]!.body.messages.filter((m) => m.role === 'user').map((m) => m.content);
        assert.deepEqual(userTexts, ['Tell me a long story', 'hello there']);
        const items = await sidebar.locator('#transcript .msg, #transcript .notice, #transcript .card').allInnerTexts();
        assert.equal(items.length, ended + 2, 'only the new turn wrote into the conversation since');
        assert.match(items.at(-2)!, /hello there/);
        await w.screenshot('view-close-3-next-turn');
      } catch (err) {
        throw new Error(`view close failed (screenshot: ${await w.screenshot('view-close-failed')}): ${(err as Error).message}`);
      }
    } finally {
      await wb?.close();
      await cs.stop();
      mock.child.stdin!.end();
    }
  });
});
