// A server the user adds is shown in the Tools view once the hub has it (AddedServerReveal), with a real
// hub and server; the view is a recording stand-in (the reveal in a real VS Code: test/e2e/registry.test.ts).
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { ServerHub } from '../../src/core/mcp/hub/serverHub';
import { AddedServerReveal } from '../../src/extension/revealAdded';
import type { Node } from '../../src/extension/treeNode';
import { fixture, waitFor } from '../helpers';

function recordingView(visible = true) {
  const revealed: Array<{ node: Node; options: unknown }> = [];
  return {
    revealed,
    view: { visible, reveal: async (node: Node, options: unknown) => void revealed.push({ node, options }) },
  };
}

describe('revealing a server the user added', () => {
  const hubs: ServerHub[] = [];
  after(async () => {
    for (const hub of hubs) await hub.closeAll();
  });
  const newHub = () => {
    const hub = new ServerHub({});
    hubs.push(hub);
    return hub;
  };

  test('shown and selected once the hub has it, the keyboard left where it is; once', async () => {
    const hub = newHub();
    const { revealed, view } = recordingView();
    const reveal = new AddedServerReveal(hub, view);
    reveal.expect('notes'); // the entry written; the settings not read again yet
    await new Promise((r) => setTimeout(r, 600));
    assert.deepEqual(revealed, [], 'nothing to show before the hub has it');
    hub.reconcile([fixture('notes', 'research.mjs')]);
    await waitFor('the reveal', () => revealed.length > 0, 10_000);
    assert.deepEqual(revealed, [
      { node: { kind: 'server', name: 'notes' }, options: { select: true, focus: false, expand: false } },
    ]);
    await hub.whenIdle();
    await new Promise((r) => setTimeout(r, 600));
    assert.equal(revealed.length, 1, 'later changes of the server do not reveal it again');
    reveal.dispose();
  });

  test('a server that is already there (an entry replaced) is shown at once; a closed view stays closed', async () => {
    const hub = newHub();
    hub.reconcile([fixture('notes', 'research.mjs')]);
    const shown = recordingView();
    const reveal = new AddedServerReveal(hub, shown.view);
    reveal.expect('notes');
    await waitFor('the reveal', () => shown.revealed.length > 0, 10_000);
    reveal.dispose();

    const hidden = recordingView(false);
    const quiet = new AddedServerReveal(hub, hidden.view);
    quiet.expect('notes');
    await new Promise((r) => setTimeout(r, 800));
    assert.deepEqual(hidden.revealed, [], 'the view the user closed is not opened');
    quiet.dispose();
  });
});
