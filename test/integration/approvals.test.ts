import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { Agent } from '../../src/core/agent/agent';
import type { ApprovalRequest } from '../../src/core/agentTypes/events';
import { ScriptedModel } from '../../src/core/agent/model';
import { AlwaysAllow, type GrantStorage } from '../../src/core/approvals/alwaysAllow';
import { ServerHub } from '../../src/core/mcp/hub/serverHub';
import { asResult } from '../../src/core/toolRegistry/toolResult';
import { fixture, parseError, SERVERS, waitFor } from '../helpers';

const TIMEOUT = { timeout: 30_000 };

function runLog(): string {
  return join(mkdtempSync(join(tmpdir(), 'minagent-approvals-')), 'ran.log');
}
const ran = (log: string) => (existsSync(log) ? readFileSync(log, 'utf8') : '');
const guarded = (name: string, log: string, extra = {}) =>
  fixture(name, 'guarded.mjs', [], { env: { FIXTURE_RUN_LOG: log, FIXTURE_LABEL: name }, ...extra });

/** An approver that waits for the test to decide; `asked` resolves when a card would appear. */
function waitingApprover() {
  let decide!: (allowed: boolean) => void;
  let asked!: (req: { req: ApprovalRequest; signal: AbortSignal }) => void;
  const whenAsked = new Promise<{ req: ApprovalRequest; signal: AbortSignal }>((r) => (asked = r));
  const approve = (req: ApprovalRequest, signal?: AbortSignal) =>
    new Promise<boolean>((resolve) => {
      decide = resolve;
      signal!.addEventListener('abort', () => resolve(false), { once: true });
      asked({ req, signal: signal! });
    });
  return { approve, whenAsked, decide: (allowed: boolean) => decide(allowed) };
}

async function withHub(fn: (hub: ServerHub) => Promise<void>) {
  const hub = new ServerHub();
  try {
    await fn(hub);
  } finally {
    await hub.closeAll();
  }
}

describe('what you approve is what runs', () => {
  test('an approval waiting when its server changes its tool list is cancelled, and nothing runs', TIMEOUT, () =>
    withHub(async (hub) => {
      const log = runLog();
      hub.reconcile([guarded('g', log)]);
      await hub.whenIdle();
      const approver = waitingApprover();
      const model = new ScriptedModel([
        { toolCalls: [{ name: 'write_note', arguments: { text: 'hello' } }] },
        { final: 'done' },
      ]);
      const running = new Agent(model, hub.registry, { approve: approver.approve }).run('go');
      const { req, signal } = await approver.whenAsked;
      assert.equal(req.server, 'g');
      assert.equal(req.remoteName, 'write_note');
      // The server changes its list while the card waits (write_note goes, write_note_v2 comes).
      assert.equal(await hub.registry.call('swap_tools', {}), 'swapped');
      await waitFor('the approval to be cancelled', () => signal.aborted);
      approver.decide(true); // a late click changes nothing
      const result = await running;
      const step = result.steps.find((s) => s.kind === 'tool_call')!;
      assert.match(
        parseError(step.tool!.result),
        /server "g" changed its tool list while the call to "write_note" waited for approval; the approval was cancelled and nothing was run/,
      );
      assert.equal(ran(log), '', 'no tool ran');
      assert.ok(hub.registry.get('write_note_v2'), 'the new list is in the registry');
    }),
  );

  test('an approved call goes to the pinned server even after its name moved to another server', TIMEOUT, () =>
    withHub(async (hub) => {
      const log = runLog();
      hub.reconcile([guarded('a', log), guarded('b', log)]);
      await hub.whenIdle();
      await hub.stop('a');
      assert.equal(hub.registry.get('write_note')?.server, 'b', 'with a stopped, b owns the plain name');
      const approver = waitingApprover();
      const model = new ScriptedModel([
        { toolCalls: [{ name: 'write_note', arguments: { text: 'pinned' } }] },
        { final: 'done' },
      ]);
      const running = new Agent(model, hub.registry, { approve: approver.approve }).run('go');
      const { req, signal } = await approver.whenAsked;
      assert.equal(req.server, 'b');
      hub.start('a'); // a comes first in settings order: it takes "write_note", b's becomes "b.write_note"
      await waitFor('a to take the plain name', () => hub.registry.get('write_note')?.server === 'a');
      assert.equal(signal.aborted, false, "b's own list did not change: its approval still stands");
      approver.decide(true);
      const result = await running;
      assert.equal(result.steps.find((s) => s.kind === 'tool_call')!.tool!.result, 'b wrote pinned');
      assert.equal(ran(log), 'b write_note pinned\n', 'only b ran; a never did');
    }),
  );

  test('a renamed command lapses an Always-allow grant (real processes)', TIMEOUT, () =>
    withHub(async (hub) => {
      const log = runLog();
      const data = new Map<string, unknown>();
      const storage: GrantStorage = {
        get: <T>(k: string, d: T) => (data.has(k) ? (data.get(k) as T) : d),
        update: async (k, v) => void data.set(k, v),
      };
      const grants = new AlwaysAllow(storage);
      let asked = 0;
      // What the extension does: a grant runs the call without asking; otherwise the user is asked (here: denies).
      const approve = async (req: ApprovalRequest) =>
        grants.has(req.serverIdentity, req.remoteName) || (asked++, false);
      const call = (text: string) =>
        new Agent(
          new ScriptedModel([{ toolCalls: [{ name: 'write_note', arguments: { text } }] }, { final: 'ok' }]),
          hub.registry,
          { approve },
        ).run('go');

      hub.reconcile([guarded('g', log)]);
      await hub.whenIdle();
      const tool = hub.registry.get('write_note')!;
      await grants.add({ identity: tool.serverIdentity!, tool: tool.remoteName!, server: 'g' });
      await call('first');
      assert.equal(ran(log), 'g write_note first\n', 'the grant let the call run without asking');
      assert.equal(asked, 0);

      // The same entry name, now a renamed command (a link to node under another name).
      const renamed = join(mkdtempSync(join(tmpdir(), 'minagent-renamed-')), 'node-renamed');
      symlinkSync(process.execPath, renamed);
      hub.reconcile([guarded('g', log, { command: renamed })]);
      await hub.whenIdle();
      await waitFor(
        'the restarted server',
        () =>
          hub.server('g')?.state.kind === 'running' &&
          hub.registry.get('write_note')?.serverIdentity !== tool.serverIdentity,
      );
      const result = await call('second');
      assert.equal(asked, 1, 'the user is asked again');
      assert.match(parseError(result.steps[0]!.tool!.result), /the user denied/);
      assert.equal(ran(log), 'g write_note first\n', 'nothing ran under the old grant');
    }),
  );

  test('a pinned call never reaches a server whose entry changed after the tool was listed', TIMEOUT, () =>
    withHub(async (hub) => {
      const log = runLog();
      hub.reconcile([guarded('g', log)]);
      await hub.whenIdle();
      const old = hub.registry.get('write_note')!;
      hub.reconcile([guarded('g', log, { args: [join(SERVERS, 'guarded.mjs'), '--changed'] })]);
      await hub.whenIdle();
      // The old tool object routes by name; the hub refuses it for the changed entry.
      const refused = asResult(await old.call({ text: 'x' }));
      assert.equal(refused.status, 'error');
      assert.match(
        parseError(refused.text),
        /server "g" changed \(its origin, command, arguments or URL\) since tool "write_note" was listed; the call was not made/,
      );
      assert.equal(ran(log), '');
    }),
  );
});
