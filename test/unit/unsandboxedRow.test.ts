// A workspace server the user took out of its sandbox (Run Without Sandbox) does not look like any other
// in the Tools tree (issue 53, item 15): its row and tooltip as sandboxLook sets them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { unsandboxedRow } from '../../src/extension/unsandboxedRow';

test('a running unsandboxed server: its check mark becomes an unlock, its description ends in "unsandboxed", its tooltip says what it may do and how to undo it', () => {
  const row = unsandboxedRow({ description: '9 tools · ~1.2k tokens', checkMark: true });
  assert.equal(row.description, '9 tools · ~1.2k tokens · unsandboxed');
  assert.equal(row.unlockIcon, true);
  assert.deepEqual(row.tooltip, [
    'Not sandboxed: you chose Run Without Sandbox for this server in this workspace.',
    "It reads your files (~/.ssh included), writes anywhere and reaches any host, as you can. Run in Sandbox, on its row's menu, puts it back.",
  ]);
});

test('a row whose icon is not the check mark keeps it (its own icon, an error): the description says it', () => {
  assert.deepEqual(
    [
      unsandboxedRow({ description: 'error', checkMark: false }).description,
      unsandboxedRow({ description: 'error', checkMark: false }).unlockIcon,
    ],
    ['error · unsandboxed', false],
  );
  assert.equal(unsandboxedRow({ description: undefined, checkMark: false }).description, 'unsandboxed');
});
