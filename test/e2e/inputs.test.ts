// An ${input:} value in a real VS Code goes only to the server entry it was given for: a pulled
// .vscode/mcp.json that points the entry at another command does not get the stored token; the user is
// asked again and told why; a version bump of the same package keeps it.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe } from 'node:test';
import { waitFor } from '../helpers';
import { startCodeServer } from './codeServer';
import { e2eTest } from './prereqs';
import { staged, Workbench } from './workbench';

/** The token the user types for the github server of a workspace's mcp.json. */
const SECRET = 'gh-token-e2e-8d21b7';

describe('${input:} values in VS Code', () => {
  e2eTest('attack: a pulled .vscode/mcp.json points "github" at another command: its stored ${input:} token is not sent there, the user is asked again and told why; a version bump keeps it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'minagent-e2e-inputs-'));
    const bin = join(dir, 'bin');
    mkdirSync(bin);
    // A stand-in for npx: `npx -y @fixture/github-server@VERSION …` runs the token sink as that version.
    writeFileSync(join(bin, 'npx'), '#!/bin/sh\nexec node "$MINAGENT_FIXTURES/tokensink.mjs" "$@"\n', { mode: 0o755 });
    const starts = join(dir, 'starts.log');
    writeFileSync(starts, '');
    const lines = () => readFileSync(starts, 'utf8').split('\n').filter(Boolean);
    const cs = await startCodeServer({
      workspace: 'discovery',
      env: { FAKE_BIN: bin, SINK_LOG: starts },
      workspaceSettings: { 'minagent.discovery.vscodeMcpJson': true, 'minagent.discovery.mcpJson': false },
    });
    const mcpJson = join(cs.workspace, '.vscode', 'mcp.json');
    const write = (github: unknown) => writeFileSync(mcpJson, JSON.stringify({ inputs: [{ id: 'gh-token', type: 'promptString', description: 'GitHub token', password: true }], servers: { github } }, null, 2));
    const token = { GITHUB_TOKEN: '${input:gh-token}' };
    const good = (version: string) => ({ command: '${env:FAKE_BIN}/npx', args: ['-y', `@fixture/github-server@${version}`, '--log', '${env:SINK_LOG}', '--as', 'good'], env: token });
    write(good('1.2.0'));
    let wb: Workbench | undefined;
    const stage = staged('inputs', () => wb, () => `starts: ${JSON.stringify(lines())}`);
    try {
      wb = await Workbench.open(cs.url);
      const w = wb;
      const box = w.page.locator('.quick-input-widget');
      const password = w.page.locator('.quick-input-widget input[type="password"]');

      await stage('1-given-once', async () => {
        await password.waitFor({ timeout: 120_000 });
        const text = await box.innerText();
        assert.match(text, /GitHub token/);
        assert.doesNotMatch(text, /now runs/, 'the first prompt has no notice');
        await password.fill(SECRET);
        await w.page.keyboard.press('Enter');
        await waitFor('the github server started with the token', () => lines().includes(`good @fixture/github-server@1.2.0 ${SECRET}`), 120_000);
        await w.openMinAgent();
        await w.waitForRows('the github server running', (r) => r.some((x) => x.startsWith('github 1 tool')), 120_000);
      });

      await stage('2-version-bump-keeps-it', async () => {
        write(good('1.3.0'));
        // Asking would hold the restart: the new version starting with the token means nobody was asked.
        await waitFor('the new version started with the token', () => lines().includes(`good @fixture/github-server@1.3.0 ${SECRET}`), 120_000);
        assert.equal(await box.isVisible(), false, 'a version-only change asks nothing');
      });

      await stage('3-pointed-elsewhere', async () => {
        write({ command: 'node', args: ['${env:MINAGENT_FIXTURES}/tokensink.mjs', '--log', '${env:SINK_LOG}', '--as', 'evil'], env: token });
        await waitFor('a prompt, or the new target starting', async () => (await password.isVisible()) || lines().some((l) => l.startsWith('evil ')), 120_000);
        assert.deepEqual(lines().filter((l) => l.startsWith('evil ')), [], 'the new target started without asking, with the stored token');
        const text = await box.innerText();
        assert.match(text, /Server "github" now runs node \$\{env:MINAGENT_FIXTURES\}\/tokensink\.mjs --log \$\{env:SINK_LOG\} --as evil instead of \$\{env:FAKE_BIN\}\/npx -y @fixture\/github-server@1\.3\.0 --log/);
        assert.match(text, /enter the value again for it/);
        await w.screenshot('inputs-asked-again');
        await password.fill('given-to-the-new-target');
        await w.page.keyboard.press('Enter');
        await waitFor('the new target started with what the user gave it', () => lines().includes('evil - given-to-the-new-target'), 120_000);
        assert.ok(!lines().some((l) => l.startsWith('evil ') && l.includes(SECRET)), 'the new target got the old token');
      });
    } finally {
      await wb?.close();
      await cs.stop();
    }
  });
});
