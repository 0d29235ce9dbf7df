// Both protocol eras in a real VS Code: a server that speaks only 2026-07-28 and one that speaks
// only 2025-06-18 (and exits on any request it does not know) run side by side, and the Tools tree
// says which revision each speaks.
import assert from 'node:assert/strict';
import { describe } from 'node:test';
import { startCodeServer } from './codeServer';
import { e2eTest } from './prereqs';
import { Workbench } from './workbench';

describe('protocol eras in VS Code', () => {
  e2eTest('the tree shows the revision each server speaks: 2026-07-28 beside 2025-06-18', async () => {
    const cs = await startCodeServer({
      workspace: 'e2e',
      userSettings: {
        'minagent.servers': {
          modern: { command: 'node', args: ['${env:MINAGENT_FIXTURES}/modern-only.mjs'] },
          legacy: { command: 'node', args: ['${env:MINAGENT_FIXTURES}/legacy-only.mjs', '--unknown', 'exit'] },
        },
      },
    });
    let wb: Workbench | undefined;
    try {
      wb = await Workbench.open(cs.url);
      await wb.openMinAgent();
      const rows = await wb.waitForRows('both servers running with their revisions', (r) => r.some((x) => /^modern 2 tools .*· 2026-07-28$/.test(x)) && r.some((x) => /^legacy 1 tool .*· 2025-06-18$/.test(x)));
      assert.ok(rows.includes('modern_echo') || rows.some((x) => x.startsWith('modern_echo')), rows.join('\n'));
      await wb.screenshot('eras-tree');
    } catch (err) {
      const shot = await wb?.screenshot('eras-failed');
      throw new Error(`${(err as Error).message} (screenshot: ${shot})`);
    } finally {
      await wb?.close();
      await cs.stop();
    }
  });
});
