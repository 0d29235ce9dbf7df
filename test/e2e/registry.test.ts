// Servers from an MCP registry, as a user meets them in a real VS Code (code-server), against a local
// registry serving the v0.1 API (fixtures/registry): the gallery searched, an npm server that needs a
// secret added (asked masked, kept in secret storage, the settings holding ${input:}) and started; an
// older version of a real npm server updated to the newer one the registry lists (its command line
// before and after shown first); a server removed; a remote added with a URL variable and a choice.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe } from 'node:test';
import { httpMcpServer, ROOT, stopFixtures, waitFor } from '../helpers';
import { fetchForNpx, NPX_FROM_CACHE } from '../npxPackages';
import { inMockChat } from './mockChat';
import { e2eTest } from './prereqs';
import { staged, type Workbench } from './workbench';

interface Fixture {
  url: string;
  close(): Promise<void>;
}
const TOKEN = 'ghp_e2e_registry_secret_9876';

describe('servers from a registry', () => {
  let registry: Fixture;
  before(async () => {
    // The real npm servers its entries run (`npx -y`), fetched before the starts the test watches.
    await fetchForNpx([
      '@modelcontextprotocol/server-memory@2026.7.4',
      '@modelcontextprotocol/server-memory@2026.8.31',
      '@modelcontextprotocol/server-github@2025.4.8',
    ]);
    const mod = (await import(join(ROOT, 'fixtures', 'registry', 'registry.mjs'))) as {
      startRegistry(o: object): Promise<Fixture>;
    };
    // Its servers, and the hostile documents of fixtures/registry/runner-options.
    registry = await mod.startRegistry({
      pageSize: 4,
      dirs: [join(ROOT, 'fixtures', 'registry', 'servers'), join(ROOT, 'fixtures', 'registry', 'runner-options')],
    });
  });
  after(async () => {
    await registry.close();
    stopFixtures();
  });

  e2eTest(
    'search the gallery, add a server with a secret, update one, remove one, add a remote with a URL variable',
    async () => {
      const remote = await httpMcpServer();
      const memoryEntry = {
        command: 'npx',
        args: ['-y', '@modelcontextprotocol/server-memory@2026.7.4'],
        registry: { url: registry.url, name: 'io.github.modelcontextprotocol/server-memory', version: '2026.7.4' },
      };
      let wb: Workbench | undefined;
      const stage = staged('registry', () => wb);
      const running = (r: string[]) => r.some((x) => /^memory\b/.test(x));
      await inMockChat(
        'registry',
        {},
        running,
        async ({ w, cs }) => {
          wb = w;
          const page = w.page;
          const userSettings = async () =>
            (await cs.settings('user')) as { 'minagent.servers'?: Record<string, Record<string, unknown>> };
          const quickRows = () => page.locator('.quick-input-widget .quick-input-list .monaco-list-row');
          const dialog = (text: string) => page.locator('.monaco-dialog-box', { hasText: text });

          // The command palette's key goes to the workbench, not to the chat's page (which has the focus once the view
          // opens).
          const palette = async (title: string) => {
            await w.row('memory').click();
            await w.command(title);
          };

          await stage('1-gallery', async () => {
            // memory running, its nine tool rows open: a server added now comes below them, out of the view's few
            // rows under the chat (the tree draws only the rows in sight) unless the tree shows it.
            await w.waitForRows('memory running', (r) => r.some((x) => /^memory 9 tools/.test(x)), 240_000);
            await palette('MinAgent: Add Server from Registry…');
            await quickRows().filter({ hasText: 'GitHub' }).first().waitFor({ timeout: 60_000 });
            await page.locator('.quick-input-widget input').fill('git');
            const row = quickRows().filter({ hasText: 'GitHub' }).first();
            const text = (await row.innerText()).replace(/\s+/g, ' ');
            assert.match(
              text,
              /io\.github\.modelcontextprotocol\/server-github 2025\.4\.8 · by io\.github\.modelcontextprotocol · npm/,
            );
            assert.match(
              text,
              /GITHUB_PERSONAL_ACCESS_TOKEN=<secret> npx -y @modelcontextprotocol\/server-github@2025\.4\.8/,
            );
            await w.screenshot('registry-1-gallery');
          });

          await stage('2-add-with-secret', async () => {
            await quickRows().filter({ hasText: 'GitHub' }).first().click();
            await page
              .locator('.quick-input-widget', { hasText: 'kept in secret storage, never in settings' })
              .waitFor();
            // Asked masked: the box is a password field.
            const input = page.locator('.quick-input-widget input[type="password"]');
            await input.waitFor({ timeout: 10_000 });
            await input.fill(TOKEN);
            await page.keyboard.press('Enter');
            // A click elsewhere while it asks where to keep the entry (here the empty editor area) loses nothing
            // typed: the question stays (it closed before, and the secret and the whole add were dropped without a
            // word).
            const keepInUser = quickRows().filter({ hasText: 'User settings' }).first();
            await keepInUser.waitFor();
            await page.locator('.part.editor').click({ position: { x: 200, y: 200 } });
            await page.waitForTimeout(500); // a closing quick input is gone well within this
            assert.equal(await keepInUser.isVisible(), true, 'the question is still open after the focus moved');
            await keepInUser.click();
            await dialog('Add "github"').waitFor();
            assert.match(
              await dialog('Add "github"').innerText(),
              /It runs: GITHUB_PERSONAL_ACCESS_TOKEN=\$\{input:github\.env\.GITHUB_PERSONAL_ACCESS_TOKEN\} npx -y @modelcontextprotocol\/server-github@2025\.4\.8/,
            );
            await w.screenshot('registry-2-confirm');
            await dialog('Add "github"').locator('.monaco-button', { hasText: 'Add Server' }).click();
            await w.waitForRows('the added server running', (r) => r.some((x) => /^github \d+ tools/.test(x)), 240_000);
            // Shown by the tree itself (scrolled to it below memory's tools), and selected.
            assert.equal(await w.row('github').getAttribute('aria-selected'), 'true', 'the added server is selected');
            // Its tools reach the chat: the welcome's examples take one tool per server, GitHub's first among them.
            const chat = await w.webview();
            await chat
              .locator('#welcome .example', { hasText: 'Use create_or_update_file to' })
              .waitFor({ timeout: 60_000 });
            const written = await cs.settingsText('user');
            assert.doesNotMatch(written, new RegExp(TOKEN), 'the secret is not in the settings');
            assert.deepEqual((await userSettings())['minagent.servers']!.github!.env, {
              GITHUB_PERSONAL_ACCESS_TOKEN: '${input:github.env.GITHUB_PERSONAL_ACCESS_TOKEN}',
            });
          });

          await stage('3-update', async () => {
            // The row's token count shows once the chat has measured the tools (an open chat has).
            await w.waitForRows(
              'memory offering its update',
              (r) => r.some((x) => /^memory 9 tools( · ~[\d.]+k? tokens)? · update 2026\.8\.31$/.test(x)),
              240_000,
            );
            await w.row('memory').hover();
            await w.row('memory').locator('.action-label[aria-label="Update from Registry"]').click();
            const update = dialog('Update "memory" from 2026.7.4 to 2026.8.31?');
            await update.waitFor();
            assert.match(
              (await update.innerText()).replace(/\s+/g, ' '),
              /Before: npx -y @modelcontextprotocol\/server-memory@2026\.7\.4 After: npx -y @modelcontextprotocol\/server-memory@2026\.8\.31/,
            );
            await update.locator('.monaco-button', { hasText: 'Update' }).click();
            await waitFor(
              'the entry at the new version',
              async () => (await userSettings())['minagent.servers']?.memory?.args?.toString().includes('2026.8.31'),
              30_000,
            );
            await w.waitForRows(
              'memory at the new version, running',
              (r) => r.some((x) => /^memory 9 tools( · ~[\d.]+k? tokens)?$/.test(x)),
              240_000,
            );
          });

          await stage('4-remove', async () => {
            await w.contextMenu('github', 'Remove Server');
            const remove = dialog('Remove "github" from the user settings?');
            await remove.waitFor();
            assert.match(
              await remove.innerText(),
              /Its stored secrets \(github\.env\.GITHUB_PERSONAL_ACCESS_TOKEN\) are deleted too/,
            );
            await remove.locator('.monaco-button', { hasText: 'Remove' }).click();
            await w.waitForRows('github gone', (r) => !r.some((x) => /^github\b/.test(x)), 60_000);
            assert.equal((await userSettings())['minagent.servers']?.github, undefined);
          });

          await stage('5-remote-with-url-variable', async () => {
            const port = new URL(remote).port;
            await palette('MinAgent: Add Server from Registry…');
            await quickRows().filter({ hasText: 'Weather (hosted)' }).first().waitFor({ timeout: 60_000 });
            await page.locator('.quick-input-widget input').fill('weather');
            await quickRows().filter({ hasText: 'Weather (hosted)' }).first().click();
            const input = page.locator('.quick-input-widget input');
            await page.locator('.quick-input-widget', { hasText: 'port (in the URL)' }).waitFor();
            await input.fill(port);
            await page.keyboard.press('Enter');
            await quickRows().filter({ hasText: 'imperial' }).first().click();
            await quickRows().filter({ hasText: 'User settings' }).first().click();
            const add = dialog('Add "weather"');
            await add.waitFor();
            assert.match(await add.innerText(), new RegExp(`It connects to: http://127\\.0\\.0\\.1:${port}/mcp`));
            await add.locator('.monaco-button', { hasText: 'Add Server' }).click();
            await w.waitForRows('the remote running', (r) => r.some((x) => /^weather \d+ tools/.test(x)), 120_000);
            assert.deepEqual((await userSettings())['minagent.servers']!.weather, {
              type: 'http',
              url: `http://127.0.0.1:${port}/mcp`,
              headers: { 'X-Units': 'imperial' },
              registry: { url: registry.url, name: 'com.example.mcp/weather', version: '1.4.0' },
            });
          });

          await stage('6-hostile-documents', async () => {
            // The real memory server with a fixed --registry marked secret: refused, naming the option; nothing
            // written.
            const before = await cs.settingsText('user');
            await palette('MinAgent: Add Server from Registry…');
            await page.locator('.quick-input-widget input').fill('com.example.hostile/memory');
            await quickRows().filter({ hasText: 'com.example.hostile/memory' }).first().click();
            const refused = page.locator('.notifications-toasts .notification-toast', { hasText: 'cannot be added' });
            await refused.waitFor({ timeout: 30_000 });
            assert.match(await refused.innerText(), /--registry/, 'the error names the option');
            assert.equal(await cs.settingsText('user'), before, 'nothing was written');
            // A newline and a direction override in what runs: the confirmation shows them as escapes.
            await palette('MinAgent: Add Server from Registry…');
            await page.locator('.quick-input-widget input').fill('com.example.hostile/invisible');
            await quickRows().filter({ hasText: 'com.example.hostile/invisible' }).first().click();
            await quickRows().filter({ hasText: 'User settings' }).first().click();
            const add = dialog('Add "invisible"');
            await add.waitFor();
            const shown = await add.innerText();
            assert.ok(shown.includes("$'ok\\nnpx -y @modelcontextprotocol/server-memory@2026.7.4'"), shown);
            assert.ok(shown.includes("MEMORY_FILE_PATH=$'/tmp/graph\\u202elnosj.jsonl'"), shown);
            assert.doesNotMatch(shown, /\u202e/);
            await w.screenshot('registry-6-escaped');
            await page.keyboard.press('Escape');
          });
        },
        {
          userSettings: { 'minagent.registries': [registry.url], 'minagent.servers': { memory: memoryEntry } },
          env: { ...NPX_FROM_CACHE },
        },
      );
    },
    { timeout: 600_000 },
  );
});
