// Resources and icons in a real VS Code: the Resources view opens a server's resource (and a filled
// template) read-only and follows the server's changes; "Add to Chat" puts a chip in the chat and
// the resource reaches the mock model's request; the tool card lists a result's resource links
// (hostile ones only as text); server and tool icons render in the Tools tree and the card.
import assert from 'node:assert/strict';
import { describe } from 'node:test';
import type { Frame } from 'playwright-core';
import { waitFor } from '../helpers';
import { inMockChat, requests } from './mockChat';
import { e2eTest } from './prereqs';
import { staged, type Workbench } from './workbench';

async function ask(chat: Frame, text: string): Promise<void> {
  const input = chat.locator('#input');
  await input.fill(text);
  await input.press('Enter');
}

describe('resources and icons in VS Code', () => {
  e2eTest(
    'a resource opens from the tree and follows changes; Add to Chat reaches the model; cards list resource links; icons render',
    async () => {
      const library = {
        'minagent.servers': {
          library: {
            command: 'node',
            args: ['${env:MINAGENT_FIXTURES}/library.mjs'],
            env: { LIBRARY_HOSTILE: '1', LIBRARY_MEDIA: '1' },
          },
        },
      };
      let wb: Workbench | undefined;
      const stage = staged('resources', () => wb);
      await inMockChat(
        'resources',
        library,
        (r) => r.some((x) => /^library \d+ tools · /.test(x)),
        async ({ w, mock }) => {
          wb = w;
          let chat!: Frame;
          await stage('0-chat', async () => {
            chat = await w.webview();
          });

          await stage('1-layout', async () => {
            // A server with resources arrives: the Resources view comes as a collapsed header, and the
            // chat keeps its room and its input in sight (it opened at 498 px and squeezed the chat to 148).
            const header = w.page.locator('.pane-header', { hasText: /^Resources/ });
            await header.waitFor({ timeout: 120_000 });
            await w.waitForRows('the server running', (r) => r.some((x) => /^library \d+ tools · /.test(x)));
            assert.equal(await header.getAttribute('aria-expanded'), 'false', 'Resources starts collapsed');
            const view = (await w.page.locator('iframe.webview[src*="purpose=webviewView"]').boundingBox())!;
            const sidebar = (await w.page.locator('.part.sidebar').boundingBox())!;
            assert.ok(
              view.height > sidebar.height * 0.5,
              `the chat is ${view.height} px of a ${sidebar.height} px sidebar`,
            );
            const input = (await chat.locator('#input').boundingBox())!;
            assert.ok(
              input.y + input.height <= view.y + view.height && input.y >= view.y,
              'the chat input is in sight',
            );
            await w.screenshot('resources-1-layout');
            await header.click();
            await waitFor('Resources open', async () => (await header.getAttribute('aria-expanded')) === 'true');
          });

          await stage('1-icons', async () => {
            await w.waitForRows(
              'the server, its tools and its resources',
              (r) =>
                r.some((x) => /^library \d+ tools · /.test(x)) &&
                r.some((x) => x.startsWith('Note readme')) &&
                r.some((x) => x.startsWith('cite Cite a note')),
            );
            // The server's and the cite tool's data: PNG icons, kept as files and shown as the rows' icons;
            // the hostile ones (javascript:, data:text/html, another origin, a missing file) are not.
            const icon = (label: string) =>
              w
                .row(label)
                .locator('.custom-view-tree-node-item-icon')
                .first()
                .evaluate((e) => getComputedStyle(e).backgroundImage);
            await waitFor(
              'the server icon in the Tools tree',
              async () => /icons(\/|%2F)[0-9a-f]{32}\.png/i.test(await icon('library')),
              30_000,
            );
            await waitFor(
              "the cite tool's icon",
              async () => /icons(\/|%2F)[0-9a-f]{32}\.png/i.test(await icon('cite')),
              30_000,
            );
            assert.doesNotMatch(await icon('add_note'), /icons(\/|%2F)/i, 'a tool without icons keeps the theme icon');
            await w.screenshot('resources-1-tree-icons');
          });

          await stage('2-open', async () => {
            await w.row('Note readme').click();
            await waitFor(
              'the resource in an editor',
              async () => (await w.editorText().catch(() => '')).includes('Welcome to the library.'),
              30_000,
            );
            const tab = w.page.locator('.tabs-container .tab.active');
            assert.match((await tab.getAttribute('aria-label')) ?? '', /readme/i);
            await w.screenshot('resources-2-opened');
          });

          await stage('3-update', async () => {
            // The server changes the open resource (edit_note, approved in its card): the editor follows.
            await ask(chat, 'Please edit the readme');
            await chat.locator('.card.status-waiting button', { hasText: 'Allow once' }).click();
            await waitFor(
              'the open resource to show the change',
              async () => (await w.editorText().catch(() => '')).includes('Changed by the server.'),
              30_000,
            );
            await chat.locator('#send', { hasText: 'Send' }).waitFor();
            await w.screenshot('resources-3-updated');
          });

          await stage('3b-kinds', async () => {
            // The rest of the resources are below the fold of the small Resources view: the user folds Tools away for
            // room.
            const tools = w.page.locator('.pane-header', { hasText: /^Tools/ });
            if ((await tools.getAttribute('aria-expanded')) === 'true') await tools.locator('h3.title').click();
            await waitFor('Tools folded', async () => (await tools.getAttribute('aria-expanded')) === 'false');
            // Markdown in its language; a PNG in the image preview; binary as a size note.
            await w.row('A Markdown page').click();
            await waitFor(
              'the Markdown page',
              async () => (await w.editorText().catch(() => '')).includes('# The library'),
              30_000,
            );
            await w.page
              .locator('.statusbar-item', { hasText: /^Markdown$/ })
              .first()
              .waitFor();
            await w.row('Some bytes').click();
            await waitFor(
              'the size note',
              async () =>
                (await w.editorText().catch(() => '')).includes(
                  '(binary data of type application/octet-stream: 2.9 KB; not shown)',
                ),
              30_000,
            );
            await w.row('A dot').click();
            const preview = await w.webview({ panel: true });
            const size = await preview
              .locator('img#image')
              .evaluate((img) => [(img as HTMLImageElement).naturalWidth, (img as HTMLImageElement).naturalHeight]);
            assert.deepEqual(size, [1, 1], 'the PNG decoded in the preview');
            await w.screenshot('resources-2b-image');
          });

          await stage('4-template', async () => {
            await w.row('A book').click();
            const input = w.page.locator('.quick-input-widget input');
            await input.fill('fi');
            // The server's completion for {shelf}.
            await w.page
              .locator('.quick-input-list .monaco-list-row', { hasText: 'fiction' })
              .filter({ hasText: 'suggested by the server' })
              .waitFor();
            await input.press('Enter');
            await w.page.locator('.quick-input-widget .quick-input-title', { hasText: 'title' }).waitFor();
            await input.fill('Dune');
            await w.page.locator('.quick-input-list .monaco-list-row', { hasText: 'Dune' }).first().waitFor();
            await input.press('Enter');
            await waitFor(
              'the filled template in an editor',
              async () => (await w.editorText().catch(() => '')).includes('library: "Dune" from the fiction shelf'),
              30_000,
            );
            // Its tab reads as the user knows it (it read "library_books_fiction_dune").
            const tab = w.page.locator('.tabs-container .tab.active');
            assert.match((await tab.getAttribute('aria-label')) ?? '', /^A book · books∕fiction∕Dune/i);
          });

          await stage('5-attach', async () => {
            await w.contextMenu('Note guide', 'Add to Chat', () =>
              waitFor(
                'the note open from its row',
                async () => (await w.editorText().catch(() => '')).includes('How to use the library'),
                30_000,
              ),
            );
            const chip = chat.locator('#attachments .chip', { hasText: 'Note guide' });
            await chip.waitFor();
            assert.match(await chip.innerText(), /Note guide\s*~?\d+ tokens/);
            await chat.locator('#attachments').screenshot({ path: await w.screenshot('resources-5-chip') });
            const before = (await requests(mock.port)).length;
            await ask(chat, 'What does the attached note say?');
            await chat.locator('.msg.user .msg-attachment', { hasText: 'Note guide (library)' }).waitFor();
            await waitFor(
              'the request with the attached note',
              async () => (await requests(mock.port)).length > before,
              30_000,
            );
            const user = (await requests(mock.port))
              [before]!.body.messages.filter((m) => m.role === 'user')
              .map((m) => String(m.content));
            const last = user.at(-1)!;
            assert.ok(
              last.includes(
                '[resource <library://notes/guide> (text/plain) from server "library"]\nHow to use the library: read the notes.',
              ),
              last,
            );
            assert.ok(last.endsWith('What does the attached note say?'));
            assert.equal(await chat.locator('#attachments .chip').count(), 0, 'sending took the chip');
            await chat.locator('#send', { hasText: 'Send' }).waitFor();
          });

          await stage('6-card-links', async () => {
            await ask(chat, 'cite the readme');
            const card = chat.locator('.card.status-done', { hasText: 'cite' }).last();
            await card.locator('.card-resource-open', { hasText: 'note readme' }).waitFor();
            assert.equal(await card.locator('img.card-tool-icon').count(), 1, "the tool's icon in its card");
            assert.match(
              (await card.locator('img.card-tool-icon').getAttribute('src')) ?? '',
              /^data:image\/png;base64,/,
            );
            assert.equal(await card.locator('.card-title').innerText(), 'Cite a note');
            await card.scrollIntoViewIfNeeded();
            await w.screenshot('resources-6-card');
            await card.locator('.card-resource-open', { hasText: 'note readme' }).dispatchEvent('click');
            await waitFor(
              'the linked resource in an editor',
              async () => (await w.editorText().catch(() => '')).includes('Changed by the server.'),
              30_000,
            );
            await chat.locator('#send', { hasText: 'Send' }).waitFor();
            // The same address in the model's answer is a link that opens it (it looked like one and did nothing).
            // (The mock model echoes the question; <...> is a Markdown autolink.)
            await w.command('View: Close All Editors');
            await ask(chat, 'what is in <library://notes/readme>?');
            await chat.locator('#send', { hasText: 'Send' }).waitFor();
            const link = chat.locator('.msg.assistant a[href="library://notes/readme"]').last();
            await link.click();
            await waitFor(
              'the resource the answer links to, in an editor',
              async () => (await w.editorText().catch(() => '')).includes('Changed by the server.'),
              30_000,
            );
            // An address no running server lists opens nothing, and says why.
            // (One step: once its href changes the locator no longer finds it.)
            await link.evaluate((a) => {
              a.setAttribute('href', 'library://notes/made-up');
              (a as HTMLElement).click();
            });
            await chat
              .locator('.notice.error', { hasText: 'no running server lists library://notes/made-up' })
              .waitFor();
            // What the sanitizer lets through for such links is only that: no script, data or editor address.
            await ask(
              chat,
              'and <javascript://%0Adocument.title=1> or <data://text/html,x> or [y](vscode://file/etc/passwd) or [z](command:workbench.action.quit)',
            );
            await chat.locator('.msg.assistant', { hasText: 'You said: and' }).waitFor();
            assert.equal(
              await chat
                .locator(
                  '.msg.assistant a[href^="javascript" i], .msg.assistant a[href^="data" i], .msg.assistant a[href^="vscode" i], .msg.assistant a[href^="command" i]',
                )
                .count(),
              0,
              'no dangerous link survives',
            );
            await chat.locator('#send', { hasText: 'Send' }).waitFor();
          });

          await stage('7-hostile-links', async () => {
            await ask(chat, 'show me hostile links');
            const card = chat.locator('.card.status-done', { hasText: 'hostile_links' }).last();
            const links = card.locator('.card-resource-open');
            await links.first().waitFor();
            assert.deepEqual(await links.allInnerTexts(), [
              '↗ <img src=x onerror="document.title=\'pwned-name\'">',
              '↗ Harmless notes',
              '▣ library://notes/evil',
            ]);
            assert.equal(
              await card.locator('a, img:not(.card-tool-icon), script').count(),
              0,
              'nothing a server wrote became markup',
            );
            await links.nth(0).dispatchEvent('click'); // the small sidebar chat can lay its meter over the row
            await waitFor(
              'the javascript: link to open as a failed read',
              async () => /Could not read <javascript:/.test(await w.editorText().catch(() => '')),
              30_000,
            );
            await links.nth(1).dispatchEvent('click'); // the small sidebar chat can lay its meter over the row
            await waitFor(
              'the command: link to open as a failed read',
              async () =>
                /Could not read <command:workbench\.action\.closeWindow>/.test(await w.editorText().catch(() => '')),
              30_000,
            );
            await links.nth(2).dispatchEvent('click'); // the small sidebar chat can lay its meter over the row
            await waitFor(
              'the embedded HTML shown as text',
              async () =>
                (await w.editorText().catch(() => '')).includes(
                  '<script>document.title="pwned-embedded"</script>evil page',
                ),
              30_000,
            );
            assert.doesNotMatch(await chat.evaluate('document.title'), /pwned/);
            assert.doesNotMatch(await w.page.title(), /pwned/);
            await w.page.locator('.monaco-workbench').waitFor(); // the window is still there
            await card.scrollIntoViewIfNeeded();
            await w.screenshot('resources-7-hostile');
          });
        },
      );
    },
  );
});
