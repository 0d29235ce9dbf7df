// The README's run command (until the extension lands): the minagent CLI on the demo workspace,
// whose settings list the seed's two fixture servers. No account, key or network needed.
import { ensureNodeModules, run } from './setup.mjs';

ensureNodeModules();
if (run(process.execPath, ['scripts/build.mjs']) !== 0) process.exit(1);

// Our own demo folder: trusted for these runs (a folder's servers otherwise start only once trusted).
const settings = ['--settings', 'fixtures/workspaces/demo/.vscode/settings.json', '--trust'];
const steps = [
  ['minagent servers', ['servers']],
  ['minagent tools', ['tools']],
  ['minagent call analytics.row_count \'{"table":"papers"}\'', ['call', 'analytics.row_count', '{"table":"papers"}']],
  [
    'minagent chat "what is MCP?" --script what-is-mcp.json',
    ['chat', 'what is MCP?', '--script', 'fixtures/workspaces/demo/what-is-mcp.json'],
  ],
];
let status = 0;
for (const [title, argv] of steps) {
  console.log(`\n$ ${title}`);
  status ||= run(process.execPath, ['dist/cli.js', ...argv, ...settings]);
}
process.exit(status);
