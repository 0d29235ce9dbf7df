// Both protocol eras in a real VS Code: a server that speaks only 2026-07-28 and one that speaks
// only 2025-06-18 (and exits on any request it does not know) run side by side, and the Tools tree
// says (in each server's tooltip) which revision each speaks.
import assert from 'node:assert/strict';
import { describe } from 'node:test';
import { startCodeServer } from './codeServer';
import { e2eTest } from './prereqs';
import { Workbench } from './workbench';

describe('protocol eras in VS Code', () => {
  e2eTest('the tree tooltips show the revision each server speaks: 2026-07-28 beside 2025-06-18', async () => {
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
      const rows = await wb.waitForRows('both servers running', (r) => r.includes('modern 2 tools') && r.includes('legacy 1 tool'));
      assert.ok(rows.includes('modern_echo') || rows.some((x) => x.startsWith('modern_echo')), rows.join('\n'));
      // The revision each speaks is in its row's tooltip (the row keeps to tools and tokens, to fit the sidebar).
      assert.match(await (await wb.hoverRow('modern', 'MCP 2026-07-28')).innerText(), /MCP 2026-07-28 \(stateless/);
      await wb.page.mouse.move(0, 0);
      assert.match(await (await wb.hoverRow('legacy', 'MCP 2025-06-18')).innerText(), /MCP 2025-06-18 \(initialize handshake\)/);
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
