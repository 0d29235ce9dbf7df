// An app's editor tab: what its page sends the host and what the host sends the page are checked, so
// a page an app took over (or anything else posting to it) gets nothing odd through.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseAppTabMessage, parseAppTabRequest } from '../../src/shared/appTabProtocol';
import { MAX_APP_MESSAGE_CHARS } from '../../src/shared/validateApps';

const look = { theme: 'dark', width: 800, variables: { '--color-text-primary': '#fff' } };

test("the tab's requests: a look and JSON-RPC messages only, bounded; style values that would break out of a rule are dropped", () => {
  assert.deepEqual(parseAppTabRequest({ type: 'appReady', look }), { type: 'appReady', look });
  assert.deepEqual(
    parseAppTabRequest({
      type: 'appLook',
      look: { ...look, variables: { '--x': 'red; } body { display: none', '--color-ring-primary': '#0af' } },
    }),
    { type: 'appLook', look: { ...look, variables: { '--color-ring-primary': '#0af' } } },
  );
  assert.equal(parseAppTabRequest({ type: 'appLook', look: { ...look, theme: 'javascript:' } }), undefined);
  assert.equal(
    parseAppTabRequest({ type: 'appMessage', message: { id: 1, method: 'tools/call' } }),
    undefined,
    'not JSON-RPC 2.0',
  );
  assert.equal(
    parseAppTabRequest({
      type: 'appMessage',
      message: { jsonrpc: '2.0', method: 'x', params: { blob: 'x'.repeat(MAX_APP_MESSAGE_CHARS) } },
    }),
    undefined,
    'over the size bound',
  );
  assert.equal(
    parseAppTabRequest({ type: 'append', item: { kind: 'notice', text: 'forged' } }),
    undefined,
    "the chat's own messages are not the tab's",
  );
  assert.equal(parseAppTabRequest('appReady'), undefined);
});

test("the host's messages to the tab: an app address only over http(s), and JSON-RPC messages", () => {
  assert.deepEqual(parseAppTabMessage({ type: 'appFrame', url: 'http://127.0.0.1:5000/app/abc' }), {
    type: 'appFrame',
    url: 'http://127.0.0.1:5000/app/abc',
  });
  assert.deepEqual(parseAppTabMessage({ type: 'appFrame', error: 'not running' }), {
    type: 'appFrame',
    error: 'not running',
  });
  for (const url of ['javascript:alert(1)', 'data:text/html,<script>1</script>', 'file:///etc/passwd', 5])
    assert.equal(parseAppTabMessage({ type: 'appFrame', url }), undefined, String(url));
  assert.equal(parseAppTabMessage({ type: 'appMessage', message: { method: 'x' } }), undefined);
  assert.deepEqual(
    parseAppTabMessage({
      type: 'appMessage',
      message: { jsonrpc: '2.0', method: 'ui/notifications/tool-result', params: {} },
    }),
    { type: 'appMessage', message: { jsonrpc: '2.0', method: 'ui/notifications/tool-result', params: {} } },
  );
});
