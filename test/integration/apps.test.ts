// MCP Apps in the core, through a real hub, real stdio servers (the apps fixture and the official
// vanilla-JS example from npm) and the built CLI: a tool's app is known from its listing, a tool its
// server keeps for its app is never offered to the model nor callable by it, a bad app declaration is
// reported and the tool stays, and the apps extension is declared only to servers whose apps the
// host renders.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Agent } from '../../src/core/agent/agent';
import { ScriptedModel } from '../../src/core/agent/model';
import { silentLogger } from '../../src/core/base/logger';
import { ClientRequests } from '../../src/core/mcp/clientRequests/clientRequests';
import { FolderRoots } from '../../src/core/mcp/clientRequests/roots';
import { MemoryGrants } from '../../src/core/mcp/clientRequests/sampling';
import { ServerHub } from '../../src/core/mcp/hub/serverHub';
import { EchoModel, ScriptedUi } from '../clientRequestsUi';
import { fixture, ROOT, runCli, SERVERS } from '../helpers';

const VANILLA = join(ROOT, 'node_modules', '@modelcontextprotocol', 'server-basic-vanillajs', 'dist', 'index.js');
const MONITOR = join(ROOT, 'node_modules', '@modelcontextprotocol', 'server-system-monitor', 'dist', 'index.js');

function requests(apps: (server: string) => boolean) {
  const model = new EchoModel(() => 'unused');
  return new ClientRequests({
    ui: new ScriptedUi(),
    roots: new FolderRoots([ROOT]),
    sampling: { model: async () => model, maxTokens: () => 100, grants: new MemoryGrants() },
    apps: (c) => apps(c.name),
  });
}

describe('MCP Apps in the hub', { timeout: 60_000 }, () => {
  const clientRequests = requests((server) => server !== 'textonly');
  const hub = new ServerHub({ logger: silentLogger, clientRequests });
  before(async () => {
    hub.reconcile([
      fixture('apps', 'apps.mjs'),
      fixture('textonly', 'apps.mjs', [], { namespace: 'textonly' }),
      { ...fixture('vanilla', 'apps.mjs'), args: [VANILLA, '--stdio'] },
      { ...fixture('monitor', 'apps.mjs'), args: [MONITOR, '--stdio'] },
    ]);
    await hub.whenIdle();
  });
  after(async () => {
    await hub.closeAll();
    clientRequests.dispose();
  });

  test("a tool's app is known from its listing, on the official example as on ours", () => {
    assert.deepEqual(hub.registry.get('show_chart')?.app, { resourceUri: 'ui://apps/chart.html' });
    assert.equal(
      hub.registry.get('show_chart')?.visibility,
      undefined,
      'no visibility declared: the model and apps alike',
    );
    assert.deepEqual(hub.registry.get('get-time')?.app, { resourceUri: 'ui://get-time/mcp-app.html' });
    assert.equal(hub.registry.get('client_apps')?.app, undefined);
  });

  test('a tool kept for its app is not offered to the model, and the model cannot call it', async () => {
    assert.deepEqual(hub.registry.get('refresh_data')?.app, { resourceUri: 'ui://apps/chart.html' });
    assert.deepEqual(hub.registry.get('refresh_data')?.visibility, { model: false, app: true });
    const offered = hub.registry.schemas().map((s) => s.name);
    assert.ok(offered.includes('show_chart'));
    assert.ok(!offered.includes('refresh_data'), offered.join(', '));
    // A model that names it anyway (a prompt injection, a guess) is refused, and nothing runs.
    const model = new ScriptedModel([{ toolCalls: [{ name: 'refresh_data', arguments: {} }] }, { final: 'done' }]);
    const results: string[] = [];
    await new Agent(model, hub.registry).run('refresh', {
      onEvent: (e) => void (e.type === 'step' && e.step.tool && results.push(e.step.tool.result)),
    });
    assert.equal(results.length, 1);
    assert.match(results[0]!, /^\{"error":"tool \\"refresh_data\\" is not available/);
    // Its app calls it through the registry (the host's app bridge, after its own checks).
    assert.match(await hub.registry.call('refresh_data', {}), /^fresh: 4, 5, 6\n/);
  });

  test('the official system monitor\'s poll-system-stats (visibility ["app"], no app of its own) is never offered to the model, nor callable by it', async () => {
    const poll = hub.registry.get('poll-system-stats');
    assert.ok(poll, 'listed (the user sees it in the tree)');
    assert.equal(poll.app, undefined);
    assert.deepEqual(poll.visibility, { model: false, app: true });
    assert.ok(hub.registry.schemas().some((s) => s.name === 'get-system-info'));
    assert.ok(!hub.registry.schemas().some((s) => s.name === 'poll-system-stats'), 'not offered');
    const model = new ScriptedModel([{ toolCalls: [{ name: 'poll-system-stats', arguments: {} }] }, { final: 'done' }]);
    const results: string[] = [];
    await new Agent(model, hub.registry).run('poll', {
      onEvent: (e) => void (e.type === 'step' && e.step.tool && results.push(e.step.tool.result)),
    });
    assert.match(results[0] ?? '', /^\{"error":"tool \\"poll-system-stats\\" is not available/);
    // What its app calls (through the host's app bridge, after its checks) still answers.
    assert.match(await hub.registry.call('poll-system-stats', {}), /"memory"/);
  });

  test('a tool that names an app outside ui:// is reported, and stays a plain tool', async () => {
    assert.equal(hub.registry.get('bad_app')?.app, undefined);
    const problems = hub.problems().tools.map((p) => p.message);
    assert.ok(
      problems.some((p) =>
        /tool "bad_app" of server "apps" declares an app at "https:\/\/example\.com\/app\.html", which is not a ui:\/\/ URI/.test(
          p,
        ),
      ),
      problems.join('\n'),
    );
    assert.equal(await hub.registry.call('bad_app', {}), 'bad app answered');
  });

  test('the apps extension is declared to a server whose apps are shown, not to one set to text', async () => {
    assert.equal(await hub.registry.call('client_apps', {}), 'apps: {"mimeTypes":["text/html;profile=mcp-app"]}');
    assert.equal(await hub.registry.call('textonly.client_apps', {}), 'apps: not declared');
  });
});

describe('MCP Apps in the CLI', { timeout: 60_000 }, () => {
  const work = mkdtempSync(join(tmpdir(), 'minagent-apps-'));
  mkdirSync(join(work, '.vscode'));
  writeFileSync(
    join(work, '.vscode', 'settings.json'),
    JSON.stringify({
      'minagent.servers': {
        apps: { command: 'node', args: [join(SERVERS, 'apps.mjs')] },
        monitor: { command: 'node', args: [MONITOR, '--stdio'] },
      },
    }),
  );
  const cli = (args: string[]) => runCli(['--trust', ...args], { cwd: work });

  test('tools --json carries the app on the tool, and the text list names it', () => {
    const { code, out } = cli(['tools', '--json']);
    assert.equal(code, 0);
    const tools = (
      JSON.parse(out) as {
        tools: Array<{ name: string; app?: unknown; visibility?: string[]; offeredToModel: boolean }>;
      }
    ).tools;
    assert.deepEqual(tools.find((t) => t.name === 'show_chart')?.app, { resourceUri: 'ui://apps/chart.html' });
    assert.equal(tools.find((t) => t.name === 'show_chart')?.offeredToModel, true);
    assert.deepEqual(tools.find((t) => t.name === 'refresh_data')?.app, { resourceUri: 'ui://apps/chart.html' });
    assert.deepEqual(tools.find((t) => t.name === 'refresh_data')?.visibility, ['app']);
    assert.equal(tools.find((t) => t.name === 'refresh_data')?.offeredToModel, false);
    assert.equal(tools.find((t) => t.name === 'client_apps')?.app, undefined);
    // A tool kept for apps without an app of its own (the official system monitor's) is marked too.
    const poll = tools.find((t) => t.name === 'poll-system-stats');
    assert.deepEqual([poll?.app, poll?.visibility, poll?.offeredToModel], [undefined, ['app'], false]);
    const text = cli(['tools']).out;
    assert.match(
      text,
      /^refresh_data\tapps\tNew numbers for the chart \(its app calls this\)\. \[app: ui:\/\/apps\/chart\.html, called by apps only\]$/m,
    );
  });

  test('call prints the result on stdout and names the app on stderr; the CLI renders no app, so declares none', () => {
    const { code, out, err } = cli(['call', 'show_chart', '{"values":[2,3]}']);
    assert.equal(code, 0);
    assert.equal(out.trim(), 'chart of 2 values, total 5\n{"values":[2,3]}');
    assert.match(err, /the tool has an app, not shown here: \[app: ui:\/\/apps\/chart\.html\]/);
    assert.equal(cli(['call', 'client_apps']).out.trim(), 'apps: not declared');
  });
});
