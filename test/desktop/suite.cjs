// Runs inside desktop VS Code's extension host (see scripts/test-desktop.mjs).
const assert = require('node:assert/strict');
const vscode = require('vscode');

async function waitFor(what, probe, ms = 30000) {
  const until = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

exports.run = async function run() {
  const ext = vscode.extensions.getExtension('minagent.minagent');
  assert.ok(ext, 'the extension is installed');
  const api = await ext.activate();
  const servers = await waitFor('both fixture servers running', () => {
    const list = api.servers();
    return list.filter((s) => s.state.kind === 'running').length === 2 ? list : undefined;
  });
  assert.deepEqual(
    servers.map((s) => s.name),
    ['research', 'analytics'],
  );
  assert.deepEqual(api.toolNames(), ['echo', 'search_corpus', 'word_count', 'analytics.echo', 'analytics.row_count']);
  assert.match(await api.call('search_corpus', { query: 'mcp' }), /open protocol/);
  const commands = await vscode.commands.getCommands(true);
  for (const id of ['minagent.restartAll', 'minagent.tryTool', 'minagent.showLogs'])
    assert.ok(commands.includes(id), id);
};
