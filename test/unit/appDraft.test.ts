// An app's message (`ui/message`) in the chat's input: beside what the user typed, never over it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { withAppMessage } from '../../src/webview/appDraft';

test("an app's message fills an empty input, and replaces only what apps put there", () => {
  assert.equal(withAppMessage('', undefined, 'from the app'), 'from the app');
  assert.equal(withAppMessage('  \n', undefined, 'from the app'), 'from the app');
  assert.equal(
    withAppMessage('first', 'first', 'second'),
    'second',
    "the app's own message, untouched by the user: the newest takes its place",
  );
});

test("what the user typed stays: the app's message goes after it, and a later one replaces only the app's", () => {
  const once = withAppMessage('my own draft', undefined, 'flood 1');
  assert.equal(once, 'my own draft\n\nflood 1');
  assert.equal(withAppMessage(once, 'flood 1', 'flood 2'), 'my own draft\n\nflood 2');
  // The user edited the app's text: it is theirs now, and the next message goes after it.
  assert.equal(
    withAppMessage('my own draft\n\nflood 1, edited', 'flood 1', 'flood 2'),
    'my own draft\n\nflood 1, edited\n\nflood 2',
  );
  assert.equal(withAppMessage('typed after  \n', 'earlier', 'next'), 'typed after\n\nnext');
});
