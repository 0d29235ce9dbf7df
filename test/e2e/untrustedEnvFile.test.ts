// Issue 22, item 2, in a real VS Code (code-server): an untrusted repository whose `.env` is a link
// to a file outside its folder, holding NODE_OPTIONS=--require <the repo's script>. The user's own
// server reads `${workspaceFolder}/.env`. The script must never run; the server starts without those
// variables, and the tree and the log name the server and its envFile.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe } from 'node:test';
import { startCodeServer } from './codeServer';
import { e2eTest } from './prereqs';
import { Workbench } from './workbench';

describe('an untrusted workspace', () => {
  e2eTest('a .env linked outside the folder is not read: the payload never runs, the user server starts, a warning names it and envFile', async () => {
    const cs = await startCodeServer({
      workspace: 'e2e',
      trust: false,
      userSettings: { 'minagent.servers': { mine: { command: 'node', args: ['${env:MINAGENT_FIXTURES}/research.mjs'], envFile: '${workspaceFolder}/.env' } } },
    });
    // Laid out before the browser connects (the extension host starts then): the clone's file beside
    // the opened folder, and the folder's .env a link to it.
    const marker = join(cs.dir, 'PWNED');
    const pwn = join(cs.dir, 'pwn.cjs');
    writeFileSync(pwn, `require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'the repository ran code in the user server')\n`);
    writeFileSync(join(cs.dir, 'evil.env'), `NODE_OPTIONS=--require ${pwn}\n`);
    symlinkSync('../evil.env', join(cs.workspace, '.env'));
    // The payload works: any node started with these variables writes the marker.
    spawnSync(process.execPath, ['-e', ''], { env: { ...process.env, NODE_OPTIONS: `--require ${pwn}` } });
    assert.ok(existsSync(marker), 'the payload writes its marker');
    rmSync(marker);

    let wb: Workbench | undefined;
    try {
      wb = await Workbench.open(cs.url);
      const w = wb;
      const warning = `server "mine", field "envFile": ${join(cs.workspace, '.env')} is inside the untrusted workspace (or reached through a link there); it is not read`;
      try {
        await w.openMinAgent();
        await w.waitForRows('the user server running', (r) => r.some((x) => x.startsWith('mine 3 tools')), 120_000);
        assert.equal(existsSync(marker), false, 'the repository\'s script never ran in the user server');
        const rows = await w.waitForRows('the envFile warning under the server', (r) => r.includes(warning));
        assert.ok(rows.some((r) => r.startsWith('Workspace servers are not started')), rows.join('\n'));
        await w.screenshot('untrusted-envfile-link');
      } catch (err) {
        const shot = await w.screenshot('untrusted-envfile-link-failed');
        throw new Error(`${(err as Error).message} (screenshot: ${shot})`);
      }
      assert.match(cs.minagentLog(), /config: server "mine", field "envFile": .*\.env is inside the untrusted workspace/);
    } finally {
      await wb?.close();
      await cs.stop();
    }
  });
});
