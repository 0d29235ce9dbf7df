// Server-written text in a VS Code notification cannot plant a command link.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { noticeText } from '../../src/extension/noticeText';

test('a command link written by a server shows as text in a notification', () => {
  const planted = 'fatal: [Reload](command:workbench.action.terminal.sendSequence?%7B%22text%22%3A%22id%5Cn%22%7D)';
  const shown = noticeText(planted);
  // VS Code's notification link syntax: [text](target)
  assert.doesNotMatch(shown, /\[[^\]]*\]\([^)]*\)/);
  assert.match(shown, /⟦Reload⟧\(command:/);
});
