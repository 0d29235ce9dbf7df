// Approvals and secrets in a real VS Code: the card, the log, the model and the export
// never show a secret a server was given; a read-only tool's card says why it ran without asking.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe } from 'node:test';
import { listeningFixture, waitFor } from '../helpers';
import { startCodeServer } from './codeServer';
import { e2eTest } from './prereqs';
import { Workbench } from './workbench';

const SECRET = 'vault-token-e2e-5f3a9c';

describe('approvals and secrets in VS Code', () => {
  e2eTest('a server given a secret: cards, log, model requests and export show [redacted]; a read-only tool says why it ran', async () => {
    const script = join(mkdtempSync(join(tmpdir(), 'minagent-e2e-script-')), 'replies.json');
    writeFileSync(
      script,
      JSON.stringify([
        { toolCalls: [{ name: 'peek', arguments: {} }] },
        { text: 'peeked it' },
        { toolCalls: [{ name: 'reveal', arguments: { name: 'VAULT_TOKEN' } }] },
        { text: 'revealed it' },
      ]),
    );
    const mock = await listeningFixture('fixtures/models/mock-model.mjs', ['--script', script]);
    const cs = await startCodeServer({
      workspace: 'e2e',
      env: { VAULT_TOKEN: SECRET },
      userSettings: {
        'minagent.chat.provider': 'openai',
        'minagent.chat.baseUrl': `http://127.0.0.1:${mock.port}/v1`,
        'minagent.chat.model': 'mock-model',
        'minagent.servers': { vault: { command: 'node', args: ['${env:MINAGENT_FIXTURES}/guarded.mjs', '--token=${env:VAULT_TOKEN}'], env: { VAULT_TOKEN: '${env:VAULT_TOKEN}' } } },
      },
    });
    let wb: Workbench | undefined;
    const stage = async (name: string, fn: () => Promise<void>) => {
      try {
        await fn();
      } catch (err) {
        const shot = await wb?.screenshot(`security-${name}`);
        throw new Error(`stage "${name}" failed (screenshot: ${shot}): ${(err as Error).message}`);
      }
    };
    try {
      wb = await Workbench.open(cs.url);
      const w = wb;
      await w.openMinAgent();
      await w.waitForRows('the vault server running', (r) => r.some((x) => x.startsWith('vault 6 tools')));

      const chat = await w.webview();
      const ask = async (text: string) => {
        await chat.locator('#send', { hasText: 'Send' }).waitFor();
        await chat.locator('#input').fill(text);
        await chat.locator('#input').press('Enter');
      };

      await stage('2-read-only-note', async () => {
        await chat.locator('#model option', { hasText: 'mock-model' }).waitFor({ state: 'attached' });
        await ask('peek please');
        const card = chat.locator('.card').first();
        await card.locator('.card-status', { hasText: 'done' }).waitFor();
        assert.equal(await card.locator('.card-approval-note').innerText(), 'Ran without asking because the server declared this tool read-only (readOnlyHint).');
      });

      await stage('3-approve-and-redacted-result', async () => {
        await ask('reveal the token');
        const card = chat.locator('.card').nth(1);
        await card.locator('.card-status', { hasText: 'waiting for approval' }).waitFor();
        assert.equal(await card.locator('.card-approval-note').count(), 0, 'a call that asks has no "ran without asking" note');
        await card.locator('button', { hasText: 'Allow once' }).click();
        await card.locator('.card-status', { hasText: 'done' }).waitFor();
        assert.equal(await card.locator('.card-result pre').innerText(), 'value: [redacted]');
        await chat.locator('.msg.assistant', { hasText: 'revealed it' }).waitFor();
        await w.screenshot('security-cards'); // for a look at the cards: the read-only note, the redacted result
      });

      await stage('4-log-model-export', async () => {
        await waitFor('the start line in the MinAgent log', () => /\[vault\] starting: .*--token=\[redacted\]/.test(cs.minagentLog()), 15_000);
        assert.ok(!cs.minagentLog().includes(SECRET), 'the MinAgent log shows the secret');
        const requests = await (await fetch(`http://127.0.0.1:${mock.port}/requests`)).text();
        assert.match(requests, /value: \[redacted\]/, 'the model got the redacted result');
        assert.ok(!requests.includes(SECRET), 'a request to the model carries the secret');
        await w.command('MinAgent: Export Chat as Markdown');
        await waitFor('the exported Markdown', async () => /value: \[redacted\]/.test(await w.editorText().catch(() => '')), 20_000);
        assert.ok(!(await w.editorText()).includes(SECRET), 'the export shows the secret');
      });
    } finally {
      await wb?.close();
      await cs.stop();
      mock.child.stdin!.end();
    }
  });
});
