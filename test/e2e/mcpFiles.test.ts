// Servers from a workspace's MCP files in a real VS Code, on one editor opened on the discovery workspace:
// .vscode/mcp.json (with an ${input:} kept secret) and .mcp.json beside the settings; then an ${input:}
// value goes only to the server entry it was given for: a pulled .vscode/mcp.json that points the entry at
// another command does not get the stored token; the user is asked again and told why; a version bump of
// the same package keeps it. (Two tests, one editor: test/e2e/fileEditor.ts. The discovery test comes first: it
// reads the workspace as it was copied.)
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe } from 'node:test';
import { waitFor } from '../helpers';
import { startCodeServer } from './codeServer';
import { e2eTest } from './prereqs';
import { fileEditor } from './fileEditor';
import { staged } from './workbench';

/** The token the user types for the github server of a workspace's mcp.json. */
const SECRET = 'gh-token-e2e-8d21b7';

/** A stand-in for npx in `bin`: `npx -y @fixture/github-server@VERSION …` runs the token sink as that version. */
const dir = mkdtempSync(join(tmpdir(), 'minagent-e2e-inputs-'));
const bin = join(dir, 'bin');
const starts = join(dir, 'starts.log');
mkdirSync(bin);
writeFileSync(join(bin, 'npx'), '#!/bin/sh\nexec node "$MINAGENT_FIXTURES/tokensink.mjs" "$@"\n', { mode: 0o755 });
writeFileSync(starts, '');

/** One editor for both tests (test/e2e/fileEditor.ts). */
const editor = fileEditor(
  () => startCodeServer({ workspace: 'discovery', env: { FAKE_BIN: bin, SINK_LOG: starts } }),
  () => rmSync(dir, { recursive: true, force: true }),
);

describe('servers from .vscode/mcp.json and .mcp.json in VS Code', () => {
  e2eTest(
    'servers from .vscode/mcp.json (with an input kept secret) and .mcp.json, settings winning a clash',
    async () => {
      const { cs, wb: w, passed } = await editor.get();
      const stage = staged('discovery', () => w);
      await stage('discovery', async () => {
        const input = w.page.locator('.quick-input-widget input[type="password"]');
        await input.waitFor({ timeout: 60_000 });
        assert.match(await w.page.locator('.quick-input-widget').innerText(), /Token for the fixture server/);
        await input.fill('s3cret');
        await w.page.keyboard.press('Enter');
        await w.openMinAgent();
        // All three running (the extension's report), then the rows at the top of the tree (below the chat it
        // shows only its first rows; the third server's row is further down).
        await waitFor(
          'the three servers running',
          () => cs.report()?.servers.filter((s) => s.state === 'running').length === 3,
          120_000,
        );
        const rows = await w.waitForRows('the first two servers', (r) =>
          ['research 3 tools', 'fromfile 2 tools'].every((want) => r.some((x) => x.startsWith(want))),
        );
        assert.ok(
          rows.some((r) =>
            r.startsWith('server "research": also defined in .vscode/mcp.json; the entry in settings is used'),
          ),
          rows.join('\n'),
        );
        const report = cs.report()!;
        assert.deepEqual(
          report.servers.map((s) => s.name),
          ['research', 'fromfile', 'claude-style'],
        );
      });
      passed();
    },
  );

  e2eTest(
    'attack: a pulled .vscode/mcp.json points "github" at another command: its stored ${input:} token is not sent there, the user is asked again and told why; a version bump keeps it',
    async () => {
      const lines = () => readFileSync(starts, 'utf8').split('\n').filter(Boolean);
      const write = (workspace: string, github: unknown) =>
        writeFileSync(
          join(workspace, '.vscode', 'mcp.json'),
          JSON.stringify(
            {
              inputs: [{ id: 'gh-token', type: 'promptString', description: 'GitHub token', password: true }],
              servers: { github },
            },
            null,
            2,
          ),
        );
      const token = { GITHUB_TOKEN: '${input:gh-token}' };
      const good = (version: string) => ({
        command: '${env:FAKE_BIN}/npx',
        args: ['-y', `@fixture/github-server@${version}`, '--log', '${env:SINK_LOG}', '--as', 'good'],
        env: token,
      });
      const {
        cs,
        wb: w,
        passed,
      } = await editor.get(({ workspace }) => {
        write(workspace, good('1.2.0'));
        writeFileSync(
          join(workspace, '.vscode', 'settings.json'),
          JSON.stringify({ 'minagent.discovery.vscodeMcpJson': true, 'minagent.discovery.mcpJson': false }, null, 2),
        );
      });
      const stage = staged(
        'inputs',
        () => w,
        () => `starts: ${JSON.stringify(lines())}`,
      );
      const box = w.page.locator('.quick-input-widget');
      const password = w.page.locator('.quick-input-widget input[type="password"]');

      await stage('1-given-once', async () => {
        await password.waitFor({ timeout: 120_000 });
        const text = await box.innerText();
        assert.match(text, /GitHub token/);
        assert.doesNotMatch(text, /now runs/, 'the first prompt has no notice');
        await password.fill(SECRET);
        await w.page.keyboard.press('Enter');
        await waitFor(
          'the github server started with the token',
          () => lines().includes(`good @fixture/github-server@1.2.0 ${SECRET}`),
          120_000,
        );
        await w.openMinAgent();
        await w.waitForRows('the github server running', (r) => r.some((x) => x.startsWith('github 1 tool')), 120_000);
      });

      await stage('2-version-bump-keeps-it', async () => {
        write(cs.workspace, good('1.3.0'));
        // Asking would hold the restart: the new version starting with the token means nobody was asked.
        await waitFor(
          'the new version started with the token',
          () => lines().includes(`good @fixture/github-server@1.3.0 ${SECRET}`),
          120_000,
        );
        assert.equal(await box.isVisible(), false, 'a version-only change asks nothing');
      });

      await stage('3-pointed-elsewhere', async () => {
        write(cs.workspace, {
          command: 'node',
          args: ['${env:MINAGENT_FIXTURES}/tokensink.mjs', '--log', '${env:SINK_LOG}', '--as', 'evil'],
          env: token,
        });
        await waitFor(
          'a prompt, or the new target starting',
          async () => (await password.isVisible()) || lines().some((l) => l.startsWith('evil ')),
          120_000,
        );
        assert.deepEqual(
          lines().filter((l) => l.startsWith('evil ')),
          [],
          'the new target started without asking, with the stored token',
        );
        const text = await box.innerText();
        assert.match(
          text,
          /Server "github" now runs node \$\{env:MINAGENT_FIXTURES\}\/tokensink\.mjs --log \$\{env:SINK_LOG\} --as evil instead of \$\{env:FAKE_BIN\}\/npx -y @fixture\/github-server@1\.3\.0 --log/,
        );
        assert.match(text, /enter the value again for it/);
        await w.screenshot('inputs-asked-again');
        await password.fill('given-to-the-new-target');
        await w.page.keyboard.press('Enter');
        await waitFor(
          'the new target started with what the user gave it',
          () => lines().includes('evil - given-to-the-new-target'),
          120_000,
        );
        assert.ok(
          !lines().some((l) => l.startsWith('evil ') && l.includes(SECRET)),
          'the new target got the old token',
        );
      });
      passed();
    },
  );
});
