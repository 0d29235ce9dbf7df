// The Tasks extension (io.modelcontextprotocol/tasks) against a server that speaks it exactly (fixtures/servers/
// tasker.mjs): a call that becomes a task is followed at the server's poll interval to its outcome; its input
// request gets the same form as any server's; Stop sends tasks/cancel (never notifications/cancelled); a task that
// fails, never ends, is answered with garbage or whose server dies ends the call with what happened.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ClientRequests } from '../../src/core/mcp/clientRequests/clientRequests';
import { FolderRoots } from '../../src/core/mcp/clientRequests/roots';
import { MemoryGrants } from '../../src/core/mcp/clientRequests/sampling';
import { ServerHub } from '../../src/core/mcp/hub/serverHub';
import type { ToolProgress } from '../../src/core/toolRegistry/toolRegistry';
import { EchoModel, ScriptedUi } from '../clientRequestsUi';
import { fixture, httpFixtureWithMethods, ROOT } from '../helpers';

/** A host that answers servers' requests (so it declares the Tasks extension), with a scripted user. */
function answering(ui = new ScriptedUi()): ClientRequests {
  return new ClientRequests({
    ui,
    roots: new FolderRoots([ROOT]),
    sampling: { model: async () => new EchoModel(() => 'x'), maxTokens: () => 100, grants: new MemoryGrants() },
  });
}

const log = join(mkdtempSync(join(tmpdir(), 'minagent-tasks-')), 'tasker.log');
const seen = () => readFileSync(log, 'utf8').split('\n').filter(Boolean);

describe('tools that become tasks', { timeout: 60_000 }, () => {
  const ui = new ScriptedUi();
  const requests = answering(ui);
  const hub = new ServerHub({ clientRequests: requests });
  const call = (name: string, args: Record<string, unknown> = {}, options = {}) =>
    hub.registry.result(name, args, options);
  before(async () => {
    hub.reconcile([fixture('tasker', 'tasker.mjs', [], { env: { TASKER_LOG: log, TASKER_POLL_MS: '100' } })]);
    await hub.whenIdle();
    assert.equal(hub.server('tasker')?.state.kind, 'running');
  });
  after(async () => {
    await hub.closeAll();
    requests.dispose();
  });

  test('a task is followed to its result; its steps reach the call’s progress', async () => {
    const progress: ToolProgress[] = [];
    const r = await call('build', { ms: 700, steps: 3 }, { onProgress: (p: ToolProgress) => progress.push(p) });
    assert.deepEqual([r.status, r.text], ['ok', 'built in 0.7 s']);
    const messages = progress.map((p) => p.message);
    assert.ok(messages.includes('running as a task: step 1 of 3'), messages.join(' | '));
    assert.ok(seen().filter((l) => l === 'got tasks/get').length >= 3, 'polled with tasks/get');
  });

  test('a task that asks midway gets the form, once however often it is polled; the answer reaches it', async () => {
    const asked = ui.forms.length;
    ui.form = () => ({ action: 'accept', content: { stage: 'staging' } });
    ui.formGate = new Promise((r) => setTimeout(r, 500));
    const r = await call('deploy');
    assert.equal(r.text, 'deployed to staging');
    assert.equal(ui.forms.length - asked, 1, 'asked once');
    assert.equal(ui.forms.at(-1)?.ask.message, 'Deploy to which stage?');
    assert.ok(seen().includes('got tasks/update'));
    ui.formGate = Promise.resolve();
  });

  test('Stop cancels the task at the server with tasks/cancel, never notifications/cancelled', async () => {
    const stop = new AbortController();
    setTimeout(() => stop.abort(), 400);
    const began = Date.now();
    const r = await call('build', { ms: 30_000 }, { signal: stop.signal });
    assert.deepEqual([r.status, r.text], ['cancelled', '{"error":"cancelled"}']);
    assert.ok(Date.now() - began < 5_000, 'at once');
    assert.ok(
      seen().some((l) => /^cancelled task-\d+-build$/.test(l)),
      'the server got tasks/cancel',
    );
    assert.ok(!seen().some((l) => l.startsWith('cancelled request')), 'no notifications/cancelled for a task');
  });

  test('a task that fails, never ends, gets garbage or loses its server: the call says which', async () => {
    assert.equal(await hub.registry.call('broken', {}), '{"error":"the task failed: the build machine is gone"}');
    assert.match(
      await hub.registry.call('forever', { ttl: 600 }),
      /^\{"error":"the task did not finish within its time to live \(1 s\); it was given up"\}$/,
    );
    assert.match(
      await hub.registry.call('garbled', {}),
      /server \\"tasker\\" answered tasks\/get with something that is not a task: it has no valid taskId/,
    );
    assert.equal(await hub.registry.call('plain', {}), 'plain answer', 'a plain result is as before');
    assert.equal(
      await hub.registry.call('forged', {}),
      'honest answer',
      'attack: a task handle a server writes into an ordinary result is not taken for one',
    );
    const began = Date.now();
    assert.match(await hub.registry.call('vanish', {}), /^\{"error":"following the task failed: .+"\}$/);
    assert.ok(Date.now() - began < 10_000, 'the server’s end ends the call, not the call timeout');
  });
});

test('without the extension declared (a host that answers no requests), the server says what it needs', async () => {
  const hub = new ServerHub();
  try {
    hub.reconcile([fixture('tasker', 'tasker.mjs')]);
    await hub.whenIdle();
    assert.match(await hub.registry.call('build', {}), /Missing required client capability/);
  } finally {
    await hub.closeAll();
  }
});

test('over Streamable HTTP: the same task followed to its result, each task request routed by its Mcp-Name', async () => {
  const { url, methods, child } = await httpFixtureWithMethods('tasker.mjs', ['--http'], { TASKER_POLL_MS: '100' });
  const requests = answering();
  const hub = new ServerHub({ clientRequests: requests });
  try {
    hub.reconcile([{ name: 'remote', type: 'http', url, headers: {}, autoApprove: [] }]);
    await hub.whenIdle();
    assert.equal(await hub.registry.call('build', { ms: 400, steps: 2 }), 'built in 0.4 s');
    const routed = methods.filter((m) => m.startsWith('tasks/get mcp-name '));
    assert.ok(routed.length >= 2, methods.join('\n'));
    for (const line of routed) assert.match(line, /^tasks\/get mcp-name (task-\d+-build) taskId \1$/);
  } finally {
    await hub.closeAll();
    requests.dispose();
    child.stdin!.end();
  }
});

test('where the server sends notifications/tasks, they move the task on between polls (a 10-s poll interval)', async () => {
  for (const transport of ['stdio', 'http'] as const) {
    const env = { TASKER_POLL_MS: '10000', TASKER_NOTIFY: '1' };
    const http = transport === 'http' ? await httpFixtureWithMethods('tasker.mjs', ['--http'], env) : undefined;
    const logFile = join(mkdtempSync(join(tmpdir(), 'minagent-tasks-notify-')), 'tasker.log');
    const requests = answering();
    const hub = new ServerHub({ clientRequests: requests });
    try {
      hub.reconcile([
        http
          ? { name: 'remote', type: 'http', url: http.url, headers: {}, autoApprove: [] }
          : fixture('tasker', 'tasker.mjs', [], { env: { ...env, TASKER_LOG: logFile } }),
      ]);
      await hub.whenIdle();
      const began = Date.now();
      assert.equal(await hub.registry.call('build', { ms: 600, steps: 2 }), 'built in 0.6 s', transport);
      assert.ok(Date.now() - began < 5_000, `${transport}: notified, not polled (${Date.now() - began} ms)`);
      const lines = http ? http.methods : readFileSync(logFile, 'utf8').split('\n');
      assert.ok(lines.includes('got subscriptions/listen'), `${transport}: listened`);
      assert.ok(
        lines.some((l) => /^notified task-\d+-build completed$/.test(l)),
        `${transport}: notified`,
      );
      assert.ok(!lines.includes('got tasks/get'), `${transport}: not polled`);
    } finally {
      await hub.closeAll();
      requests.dispose();
      http?.child.stdin?.end();
    }
  }
});
