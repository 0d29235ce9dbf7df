// `npm run test:desktop`: the extension in desktop VS Code through @vscode/test-electron.
// It downloads VS Code on first use, so it needs network access to VS Code's download servers;
// the machines this project's CI runs on have none, so CI runs the code-server suite (test/e2e).
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { runTests } from '@vscode/test-electron';
import { ensureNodeModules, run } from './setup.mjs';

ensureNodeModules();
if (run(process.execPath, ['scripts/build.mjs', '--test-api']) !== 0) process.exit(1);
const workspace = join(mkdtempSync(join(tmpdir(), 'minagent-desktop-')), 'workspace');
cpSync('fixtures/workspaces/e2e', workspace, { recursive: true });
process.env.MINAGENT_FIXTURES = resolve('fixtures/servers');
try {
  await runTests({
    extensionDevelopmentPath: resolve('.'),
    extensionTestsPath: resolve('test/desktop/suite.cjs'),
    launchArgs: [workspace, '--disable-extensions', '--disable-workspace-trust'],
  });
} catch (err) {
  console.error(`desktop tests failed: ${err instanceof Error ? err.message : err}`);
  process.exit(1);
}
