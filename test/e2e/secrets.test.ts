// Approvals and secrets in a real VS Code: the card, the log, the model and the export
// never show a secret a server was given; a read-only tool's card says why it ran without asking.
// (An ${input:} value's binding to its entry: test/e2e/mcpFiles.test.ts.)
import assert from 'node:assert/strict';
import { describe } from 'node:test';
import { waitFor } from '../helpers';
import { inMockChat, SHARED_EDITOR_ENV } from './mockChat';
import { e2eTest } from './prereqs';
import { staged, type Workbench } from './workbench';

/** The secret in the editor's environment that the vault server is given (a shared editor opens with it). */
const VAULT_SECRET = SHARED_EDITOR_ENV.VAULT_TOKEN!;

describe('approvals and secrets in VS Code', () => {
  e2eTest(
    'a server given a secret: cards, log, model requests and export show [redacted]; a read-only tool says why it ran',
    async () => {
      const replies = [
        { toolCalls: [{ name: 'peek', arguments: {} }] },
        { text: 'peeked it' },
        { toolCalls: [{ name: 'reveal', arguments: { name: 'VAULT_TOKEN' } }] },
        { text: 'revealed it' },
      ];
      // The user's own server, given the secret from the editor's environment.
      const vault = {
        command: 'node',
        args: ['${env:MINAGENT_FIXTURES}/guarded.mjs', '--token=${env:VAULT_TOKEN}'],
        env: { VAULT_TOKEN: '${env:VAULT_TOKEN}' },
      };
      let wb: Workbench | undefined;
      const stage = staged('security', () => wb);
      await inMockChat(
        'secrets',
        {},
        (r) => r.some((x) => x.startsWith('vault 6 tools')),
        async ({ w, chat, cs, mock }) => {
          wb = w;
          await fetch(`http://127.0.0.1:${mock.port}/script`, { method: 'POST', body: JSON.stringify(replies) });
          const ask = async (text: string) => {
            await chat.locator('#send', { hasText: 'Send' }).waitFor();
            await chat.locator('#input').fill(text);
            await chat.locator('#input').press('Enter');
          };

          await stage('2-read-only-note', async () => {
            await ask('peek please');
            const card = chat.locator('.card').first();
            await card.locator('.card-status', { hasText: 'done' }).waitFor();
            assert.equal(
              await card.locator('.card-approval-note').innerText(),
              'Ran without asking because the server declared this tool read-only (readOnlyHint).',
            );
          });

          await stage('3-approve-and-redacted-result', async () => {
            await ask('reveal the token');
            const card = chat.locator('.card').nth(1);
            await card.locator('.card-status', { hasText: 'waiting for approval' }).waitFor();
            assert.equal(
              await card.locator('.card-approval-note').count(),
              0,
              'a call that asks has no "ran without asking" note',
            );
            await card.locator('button', { hasText: 'Allow once' }).click();
            await card.locator('.card-status', { hasText: 'done' }).waitFor();
            assert.equal(await card.locator('.card-result pre').innerText(), 'value: [redacted]');
            await chat.locator('.msg.assistant', { hasText: 'revealed it' }).waitFor();
            await w.screenshot('security-cards'); // for a look at the cards: the read-only note, the redacted result
          });

          await stage('4-log-model-export', async () => {
            await waitFor(
              'the start line in the MinAgent log',
              () => /\[vault\] starting: .*--token=\[redacted\]/.test(cs.minagentLog()),
              15_000,
            );
            assert.ok(!cs.minagentLog().includes(VAULT_SECRET), 'the MinAgent log shows the secret');
            const requests = await (await fetch(`http://127.0.0.1:${mock.port}/requests`)).text();
            assert.match(requests, /value: \[redacted\]/, 'the model got the redacted result');
            assert.ok(!requests.includes(VAULT_SECRET), 'a request to the model carries the secret');
            await w.command('MinAgent: Export Chat as Markdown');
            await waitFor(
              'the exported Markdown',
              async () => /value: \[redacted\]/.test(await w.editorText().catch(() => '')),
              20_000,
            );
            assert.ok(!(await w.editorText()).includes(VAULT_SECRET), 'the export shows the secret');
          });
        },
        { userSettings: { 'minagent.servers': { vault } }, env: { VAULT_TOKEN: VAULT_SECRET } },
      );
    },
  );
});
