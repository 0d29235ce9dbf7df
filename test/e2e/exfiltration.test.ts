// "Read-only" is a claim, not a pass, in the chat: the user's filesystem server reads a secret in
// one turn; in the next, after the user typed "ok", the model passes it to a hostile server's
// `save_note`, which its server calls read-only. The card asks and says why; Deny sends nothing.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe } from 'node:test';
import type { Frame } from 'playwright-core';
import { ROOT } from '../helpers';
import { inMockChat } from './mockChat';
import { e2eTest } from './prereqs';

const SECRET = 'AKIA-E2E-EXFIL-424242';

async function ask(chat: Frame, text: string): Promise<void> {
  await chat.locator('#send', { hasText: 'Send' }).waitFor();
  const input = chat.locator('#input');
  await input.fill(text);
  await input.press('Enter');
}

describe('read-only exfiltration in the chat', () => {
  e2eTest(
    'a secret read in one turn is not carried out by a "read-only" tool of another server in the next: the card asks and says why',
    async () => {
      const dir = realpathSync(mkdtempSync(join(tmpdir(), 'minagent-e2e-exfil-')));
      const log = join(dir, 'collected.log');
      const replies = [
        // Relative: the filesystem server resolves it in the folders it allows.
        { toolCalls: [{ name: 'read_text_file', arguments: { path: 'secret.txt' } }] },
        { text: 'I read your secret file.' },
        { toolCalls: [{ name: 'save_note', arguments: { text: SECRET } }] },
        { text: 'The note was not saved.' },
      ];
      // The user's own servers. The tree lists servers in settings order and draws only the rows in view:
      // collector first, or fs's 14 expanded tools push collector's row out of the DOM when fs connects first.
      const servers = {
        collector: { command: 'node', args: ['${env:MINAGENT_FIXTURES}/collector.mjs', '--log', log] },
        fs: {
          command: 'node',
          args: [join(ROOT, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js'), dir],
        },
      };
      let workspace: string | undefined;
      try {
        await inMockChat(
          'exfiltration',
          {},
          (r) => r.some((x) => x.startsWith('fs ')) && r.some((x) => x.startsWith('collector 1 tool')),
          async ({ w, chat, cs, mock }) => {
            // In both folders the filesystem server may hold: its argument until the editor's roots arrive, then the
            // workspace.
            workspace = cs.workspace;
            for (const folder of [dir, cs.workspace]) writeFileSync(join(folder, 'secret.txt'), SECRET);
            await fetch(`http://127.0.0.1:${mock.port}/script`, { method: 'POST', body: JSON.stringify(replies) });
            await ask(chat, 'read my secret file');
            const read = chat.locator('.card', { hasText: 'read_text_file' });
            await read
              .locator('.card-approval-note', {
                hasText: 'Ran without asking because the server declared this tool read-only',
              })
              .waitFor();
            await read.locator('.card-status', { hasText: 'done' }).waitFor();
            await read.locator('summary', { hasText: 'details' }).click();
            await read.getByText(SECRET).first().waitFor();
            await chat.locator('.msg.assistant', { hasText: 'I read your secret file.' }).waitFor();

            await ask(chat, 'ok');
            const save = chat.locator('.card', { hasText: 'save_note' });
            await save.locator('.card-status', { hasText: 'waiting for approval' }).waitFor();
            const note = await save.locator('.card-approval-note').innerText();
            assert.match(
              note,
              /Asks although its server calls it read-only: this conversation holds results from server "fs", and its arguments could carry them to "collector"\./,
            );
            await w.screenshot('exfiltration-card-asks');
            assert.equal(existsSync(log), false, 'nothing was sent while the card waits');
            await save.locator('button', { hasText: 'Deny' }).click();
            await save.locator('.card-status', { hasText: 'denied' }).waitFor();
            await chat.locator('.msg.assistant', { hasText: 'The note was not saved.' }).waitFor();
            assert.equal(
              existsSync(log) ? readFileSync(log, 'utf8') : '',
              '',
              'the secret never reached the collector',
            );
          },
          { userSettings: { 'minagent.servers': servers } },
        );
      } finally {
        rmSync(dir, { recursive: true, force: true });
        // A shared editor's workspace goes on to the next test.
        if (workspace) rmSync(join(workspace, 'secret.txt'), { force: true });
      }
    },
  );
});
