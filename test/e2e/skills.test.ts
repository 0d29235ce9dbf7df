// Skills from an MCP server in a real VS Code (fixtures/servers/skillful.mjs): the Tools view lists the server's
// skills under it, a click reads one (checked against its entry); in the chat the model asks for a skill, the user
// allows it, the model loads the file the skill points to and answers in its template.
import assert from 'node:assert/strict';
import { describe } from 'node:test';
import { waitFor } from '../helpers';
import { ask } from './chatSteps';
import { inMockChat } from './mockChat';
import { e2eTest } from './prereqs';
import { staged } from './workbench';

const SKILLFUL = {
  'minagent.servers': { skillful: { command: 'node', args: ['${env:MINAGENT_FIXTURES}/skillful.mjs'] } },
};

describe('skills from servers in VS Code', () => {
  e2eTest(
    "the Tools view lists a server's skills and reads one; the model loads a skill the user allows and answers with its file",
    async () => {
      await inMockChat(
        'skills',
        SKILLFUL,
        (rows) => rows.some((r) => /^skillful\b.*1 tool/.test(r)),
        async ({ w, chat }) => {
          const stage = staged('skills', () => w);
          await w.page.mouse.move(900, 450);

          await stage('1-the-tools-view-lists-them', async () => {
            await w.waitForRows('the Skills row', (rows) => rows.some((r) => /^Skills 4$/.test(r)));
            await w.expandRow('Skills');
            const rows = await w.waitForRows('the skills', (r) => r.some((x) => x.startsWith('release-notes')));
            for (const name of ['release-notes', 'tampered', 'hostile', 'large'])
              assert.ok(
                rows.some((r) => r.startsWith(name)),
                `${name} listed:\n${rows.join('\n')}`,
              );
            await w.row('release-notes').click();
            await waitFor('the skill read', async () =>
              (await w.editorText().catch(() => '')).includes('# Release notes (skillful)'),
            );
            // A read-only document of its own, named for the skill (not an untitled file to save).
            await w.page.locator('.tab', { hasText: 'skill release-notes · skillful' }).waitFor();
            await w.screenshot('skills-1-tree');
          });

          await stage('2-the-model-loads-one-the-user-allows', async () => {
            await ask(chat, 'Write the release notes for this change');
            const card = chat.locator('.card', { hasText: 'load_skill' }).first();
            await card.locator('.card-status', { hasText: 'waiting for approval' }).waitFor();
            assert.match(await card.innerText(), /skillful\/release-notes/);
            // What it loads is said where it asks: the skill, its files and its digest.
            assert.match(
              await card.locator('.card-approval-note').innerText(),
              /^Loads its SKILL\.md of skill "release-notes" from server "skillful" \(2 files, \d+ bytes, sha256:[0-9a-f]{8}…\)\./,
            );
            // Allowed for this chat: the skill's file, loaded next, is bound to the same skill and runs unasked.
            await card.locator('button', { hasText: 'Allow for this chat' }).click();
            await chat
              .locator('.msg.assistant', { hasText: "Release notes, in the skill's template:" })
              .waitFor({ timeout: 30_000 });
            const answer = await chat.locator('.msg.assistant').last().innerText();
            assert.match(answer, /SHIPPED: Skills from MCP servers/);
            assert.equal(await chat.locator('.card', { hasText: 'load_skill' }).count(), 2);
            assert.equal(await chat.locator('.card.status-waiting').count(), 0, 'the file was not asked for again');
            await w.screenshot('skills-2-chat');
          });
        },
      );
    },
  );
});
