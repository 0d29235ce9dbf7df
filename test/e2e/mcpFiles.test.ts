// Servers from every MCP file a VS Code or Copilot user has, in a real VS Code, on one editor opened on the discovery
// workspace: .vscode/mcp.json (with an ${input:} kept secret), .mcp.json and .github/mcp.json (one server on a Unix
// socket) beside the settings, Copilot's ~/.copilot/mcp-config.json and the profile's mcp.json; then an ${input:}
// value goes only to the server entry it was given for: a pulled .vscode/mcp.json that points the entry at
// another command does not get the stored token; the user is asked again and told why; a version bump of
// the same package keeps it. (Two tests, one editor: test/e2e/fileEditor.ts. The discovery test comes first: it
// reads the workspace as it was copied.)
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe } from 'node:test';
import { listeningFixture, SERVERS, waitFor } from '../helpers';
import { startCodeServer } from './codeServer';
import { e2eTest } from './prereqs';
import { fileEditor } from './fileEditor';
import { staged } from './workbench';

/** The token the user types for the github server of a workspace's mcp.json. */
const SECRET = 'gh-token-e2e-8d21b7';

/** A stand-in for npx in `bin`: `npx -y @fixture/github-server@VERSION …` runs the token sink as that version. */
const dir = mkdtempSync(join(tmpdir(), 'minagent-e2e-inputs-'));
const bin = join(dir, 'bin');
/** Where the token sink logs each start: in the workspace, which its sandbox lets it write. */
const STARTS = '.starts.log';
mkdirSync(bin);
// The fixture's path written in: a sandboxed server's environment does not carry the editor's variables.
writeFileSync(join(bin, 'npx'), `#!/bin/sh\nexec node "${join(SERVERS, 'tokensink.mjs')}" "$@"\n`, { mode: 0o755 });

/** Editors started (a test that fails leaves the next one a fresh editor, with its own socket). */
let editors = 0;

/** One editor for both tests (test/e2e/fileEditor.ts). */
const editor = fileEditor(
  async () => {
    // A Streamable HTTP server on a Unix socket (VS Code's unix:/// URLs), started before the editor.
    const socket = join(dir, `mcp-${++editors}.sock`);
    const { child } = await listeningFixture('fixtures/servers/http.mjs', ['--socket', socket, '--path', '/mcp']);
    after(() => child.stdin?.end());
    const fixture = (file: string, ...args: string[]) => ({
      command: 'node',
      args: [`\${env:MINAGENT_FIXTURES}/${file}`, ...args],
    });
    return startCodeServer({
      workspace: 'discovery',
      env: { FAKE_BIN: bin },
      // The workspace's servers in their sandbox, as a user's are by default.
      userSettings: { 'minagent.sandbox.workspaceServers': 'always' },
      workspaceFiles: {
        '.github/mcp.json': {
          inputs: [{ type: 'pickString', id: 'region', description: 'Region of the server', options: ['eu', 'us'] }],
          mcpServers: {
            // VS Code's development mode, and an input picked from the file's options.
            ghfile: {
              type: 'local',
              ...fixture('faulty.mjs', 'ok'),
              tools: ['*'],
              env: { REGION: '${input:region}' },
              dev: { watch: 'watched/**' },
            },
            socket: { type: 'http', url: `unix://${socket}#/mcp` },
          },
        },
      },
      homeFiles: {
        '.copilot/mcp-config.json': { mcpServers: { copilot: { ...fixture('research.mjs'), autoApprove: ['*'] } } },
      },
      userFiles: { 'mcp.json': { servers: { profile: fixture('analytics.mjs'), fromfile: fixture('analytics.mjs') } } },
    });
  },
  () => rmSync(dir, { recursive: true, force: true }),
);

describe('the MCP files a VS Code or Copilot user has, in VS Code', () => {
  e2eTest(
    "every file's servers start once, each with its source: the workspace's in the sandbox, another tool's after one confirmation; a unix: socket server connects",
    async () => {
      const { cs, wb: w, passed } = await editor.get();
      const stage = staged('discovery', () => w);
      const running = () => (cs.report()?.servers ?? []).filter((s) => s.state === 'running');
      const modal = w.page.locator('.monaco-dialog-box');

      await stage('1-workspace', async () => {
        const input = w.page.locator('.quick-input-widget input[type="password"]');
        await input.waitFor({ timeout: 60_000 });
        assert.match(await w.page.locator('.quick-input-widget').innerText(), /Token for the fixture server/);
        await input.fill('s3cret');
        await w.page.keyboard.press('Enter');
        // The .github file's pickString: its options to pick from.
        const us = w.page.locator('.quick-input-list .monaco-list-row', { hasText: 'us' });
        await us.waitFor({ timeout: 60_000 });
        assert.match(
          await w.page.locator('.quick-input-widget').innerText(),
          /value for \$\{input:region\} \(server "ghfile"\)/,
        );
        assert.match(
          (await w.page.locator('.quick-input-widget input').getAttribute('placeholder')) ?? '',
          /Region of the server/,
        );
        await us.click();
        await w.openMinAgent();
        await waitFor(
          "the workspace's five servers running",
          () =>
            ['research', 'fromfile', 'claude-style', 'ghfile', 'socket'].every((n) =>
              running().some((s) => s.name === n),
            ),
          120_000,
        );
      });

      await stage('2-copilot-file-by-its-notice', async () => {
        // Another tool's file: listed, not started, until the user says so (once for the file).
        assert.ok(!running().some((s) => s.name === 'copilot'), 'started before being confirmed');
        const toast = w.page.locator('.notifications-toasts .notification-toast', {
          hasText: 'MinAgent found 1 MCP server in ~/.copilot/mcp-config.json',
        });
        await toast.waitFor({ timeout: 60_000 });
        await toast.locator('.monaco-button', { hasText: 'Review' }).click();
        await modal.filter({ hasText: 'Start the MCP servers of ~/.copilot/mcp-config.json?' }).waitFor();
        const text = await modal.innerText();
        assert.match(text, /copilot: node \$\{env:MINAGENT_FIXTURES\}\/research\.mjs/);
        assert.match(text, /autoApprove \["\*"\]/);
        await w.screenshot('discovery-2-confirm');
        await modal.locator('.monaco-button', { hasText: 'Start Servers' }).click();
        await waitFor('the copilot server running', () => running().some((s) => s.name === 'copilot'), 120_000);
      });

      await stage('3-profile-file-by-its-row', async () => {
        await w.waitForRows('the waiting row', (r) =>
          r.some((x) => x.startsWith("Servers of VS Code's user mcp.json wait for you")),
        );
        await w.row("Servers of VS Code's user mcp.json wait for you").click();
        await modal.filter({ hasText: "Start the MCP servers of VS Code's user mcp.json?" }).waitFor();
        await modal.locator('.monaco-button', { hasText: 'Start Servers' }).click();
        await waitFor('the profile server running', () => running().some((s) => s.name === 'profile'), 120_000);
      });

      await stage('4-once-each-with-its-source', async () => {
        const servers = cs.report()!.servers;
        assert.deepEqual(
          servers.map((s) => [s.name, s.origin, s.sandboxed]),
          [
            ['research', 'workspace settings', true],
            ['fromfile', '.vscode/mcp.json', true],
            ['claude-style', '.mcp.json', true],
            ['ghfile', '.github/mcp.json', true],
            ['socket', '.github/mcp.json', false],
            // Other tools' files in their order (the profile's, then Copilot's), whichever was confirmed first.
            ['profile', "VS Code's user mcp.json", false],
            ['copilot', '~/.copilot/mcp-config.json', false],
          ],
        );
        // "fromfile" is also in the profile's file: it shows once, and its tooltip says where else it is.
        const { text } = await w.hoverRow('fromfile', 'also defined in');
        assert.match(text, /from \.vscode\/mcp\.json/);
        assert.match(text, /also defined in VS Code's user mcp\.json \(not used/);
        const rows = await w.treeRows();
        assert.equal(rows.filter((r) => r.startsWith('fromfile ')).length, 1, rows.join('\n'));
        assert.ok(!rows.some((r) => /also defined/.test(r)), 'no problem row for a name defined twice');
        await w.screenshot('discovery-4-sources');
      });

      await stage('5-dev-watch', async () => {
        // A file its dev.watch names changes: the server restarts (a new process), once.
        const pid = () => cs.report()?.servers.find((s) => s.name === 'ghfile' && s.state === 'running')?.pid;
        const before = pid();
        assert.ok(before);
        mkdirSync(join(cs.workspace, 'watched'), { recursive: true });
        writeFileSync(join(cs.workspace, 'watched', 'build.txt'), 'changed');
        await waitFor('ghfile restarted', () => pid() !== undefined && pid() !== before, 60_000);
      });
      passed();
    },
  );

  e2eTest(
    'attack: a pulled .vscode/mcp.json points "github" at another command: its stored ${input:} token is not sent there, the user is asked again and told why; a version bump keeps it',
    async () => {
      let starts = '';
      const lines = () =>
        (starts ? readFileSync(starts, { encoding: 'utf8', flag: 'a+' }) : '').split('\n').filter(Boolean);
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
        args: ['-y', `@fixture/github-server@${version}`, '--log', `\${workspaceFolder}/${STARTS}`, '--as', 'good'],
        env: token,
      });
      const {
        cs,
        wb: w,
        passed,
      } = await editor.get(({ workspace }) => {
        starts = join(workspace, STARTS);
        writeFileSync(starts, '');
        write(workspace, good('1.2.0'));
        writeFileSync(
          join(workspace, '.vscode', 'settings.json'),
          JSON.stringify({ 'minagent.discovery.mcpJson': false, 'minagent.discovery.githubMcpJson': false }, null, 2),
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
          args: ['${env:MINAGENT_FIXTURES}/tokensink.mjs', '--log', `\${workspaceFolder}/${STARTS}`, '--as', 'evil'],
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
          /Server "github" now runs node \$\{env:MINAGENT_FIXTURES\}\/tokensink\.mjs --log \$\{workspaceFolder\}\/\.starts\.log --as evil instead of \$\{env:FAKE_BIN\}\/npx -y @fixture\/github-server@1\.3\.0 --log/,
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
