// A multi-root workspace in a real VS Code (code-server opened on a .code-workspace file): each folder's settings
// and MCP files give its own servers, with ${workspaceFolder} and the working folder of that folder, and each row
// names its folder.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe } from 'node:test';
import { waitFor } from '../helpers';
import { startCodeServer } from './codeServer';
import { e2eTest } from './prereqs';
import { staged, Workbench } from './workbench';

describe('a multi-root workspace', () => {
  e2eTest("each folder's servers start in their own folder, named on their rows", async () => {
    const cs = await startCodeServer({ workspace: 'multiroot', openFile: 'multi.code-workspace' });
    let w: Workbench | undefined;
    const stage = staged('multiroot', () => w);
    try {
      w = await Workbench.open(cs.url);
      const wb = w;
      await stage('1-both-running', async () => {
        await wb.openMinAgent();
        await waitFor(
          'both servers running',
          () =>
            ['apiserver', 'webserver'].every((n) =>
              cs.report()?.servers.some((s) => s.name === n && s.state === 'running'),
            ),
          120_000,
        );
        const rows = await wb.waitForRows('the folders on the rows', (r) =>
          ['apiserver api · ', 'webserver web · '].every((want) => r.some((x) => x.startsWith(want))),
        );
        assert.ok(rows.length >= 2);
      });
      await stage('2-own-folder', async () => {
        for (const [server, folder, file] of [
          ['apiserver', 'api', 'settings'],
          ['webserver', 'web', 'web/.vscode/mcp.json'],
        ] as const) {
          const { text } = await wb.hoverRow(server, `folder: ${folder}`);
          assert.match(text, new RegExp(`folder: ${folder}`));
          // Started in its folder, its ${workspaceFolder} that folder.
          assert.ok(text.includes(`cwd: ${join(cs.workspace, folder)}`), text);
          assert.ok(text.includes(`${join(cs.workspace, folder)}`), text);
          if (file !== 'settings') assert.match(text, new RegExp(`from ${file.replace(/[./]/g, '\\$&')}`));
          await wb.page.mouse.move(0, 0);
        }
        await wb.screenshot('multiroot-rows');
      });
    } finally {
      await w?.close();
      await cs.stop();
    }
  });
});
