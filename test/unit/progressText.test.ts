// A tool's progress in the user's words: the SDK's report of a server's input rounds is not shown as is.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { progressText } from '../../src/core/mcp/tools/toolCall';

test('the SDK\'s "Fulfilling input required" rounds become words a user reads; a server\'s own messages are kept', () => {
  assert.equal(progressText("Fulfilling input required by 'tools/call' (round 1)"), 'the server asked for your input');
  assert.equal(
    progressText("Fulfilling input required by 'tools/call' (round 3)"),
    'the server asked for your input (3 times)',
  );
  assert.equal(progressText('Indexing 3 of 10 files'), 'Indexing 3 of 10 files');
  assert.equal(
    progressText("Fulfilling input required by 'tools/call' (round 1) and more"),
    "Fulfilling input required by 'tools/call' (round 1) and more",
  );
});
