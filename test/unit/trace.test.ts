import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { McpTrace, redactFields } from '../../src/core/mcp/trace/trace';
import { traceDetail, traceSummary } from '../../src/core/mcp/trace/traceText';

const request = (id: number, params: Record<string, unknown> = {}): JSONRPCMessage =>
  ({ jsonrpc: '2.0', id, method: 'tools/call', params }) as JSONRPCMessage;
const response = (id: number, result: Record<string, unknown> = {}): JSONRPCMessage =>
  ({ jsonrpc: '2.0', id, result }) as JSONRPCMessage;

describe('McpTrace', () => {
  test('off by default: nothing is kept', () => {
    const trace = new McpTrace();
    trace.record('out', request(1));
    assert.deepEqual(trace.entries(), []);
    assert.equal(trace.isEnabled, false);
  });

  test('direction, kind, method, id, size and the time a request took', () => {
    const trace = new McpTrace();
    trace.setEnabled(true);
    trace.record('out', request(1, { name: 'echo' }));
    trace.record('in', { jsonrpc: '2.0', method: 'notifications/progress', params: { progress: 1 } } as JSONRPCMessage);
    trace.record('in', response(1, { content: [] }));
    trace.record('in', { jsonrpc: '2.0', id: 2, error: { code: -32601, message: 'nope' } } as JSONRPCMessage);
    const [req, note, res, err] = trace.entries();
    assert.deepEqual([req!.direction, req!.kind, req!.method, req!.id], ['out', 'request', 'tools/call', 1]);
    assert.equal(req!.size, Buffer.byteLength(JSON.stringify(request(1, { name: 'echo' }))));
    assert.deepEqual(
      [note!.direction, note!.kind, note!.method, note!.id],
      ['in', 'notification', 'notifications/progress', undefined],
    );
    assert.deepEqual([res!.kind, res!.method, res!.id], ['response', 'tools/call', 1]);
    assert.ok(typeof res!.durationMs === 'number' && res!.durationMs >= 0);
    assert.equal(err!.kind, 'error');
    assert.equal(err!.method, undefined, 'an answer to no request of ours has no method');
  });

  test("an app's messages sit under its server's, marked with the app, their ids apart from the server's", () => {
    const trace = new McpTrace();
    trace.setEnabled(true);
    trace.record('out', request(1, { name: 'echo' }));
    trace.record('in', { jsonrpc: '2.0', id: 1, method: 'ui/initialize', params: {} } as JSONRPCMessage, 'show_chart');
    trace.record('out', response(1, { protocolVersion: '2026-01-26' }), 'show_chart');
    trace.record('in', response(1, { content: [] }));
    const [server, appAsks, appAnswer, serverAnswer] = trace.entries();
    assert.equal(server!.app, undefined);
    assert.deepEqual(
      [appAsks!.app, appAsks!.direction, appAsks!.kind, appAsks!.method],
      ['show_chart', 'in', 'request', 'ui/initialize'],
    );
    assert.deepEqual(
      [appAnswer!.app, appAnswer!.method],
      ['show_chart', 'ui/initialize'],
      "the app's answer is matched to the app's request",
    );
    assert.equal(serverAnswer!.method, 'tools/call', "the server's answer to its own id 1");
    const summary = traceSummary('charts', trace);
    assert.match(summary, /← app show_chart\s+request\s+ui\/initialize/);
    assert.match(summary, /→ app show_chart\s+response\s+ui\/initialize/);
    assert.match(
      traceDetail('charts', appAsks!),
      /^\/\/ received from the app of tool "show_chart" of server "charts" at /,
    );
  });

  test('bounded in bytes: the oldest entries go first', () => {
    const trace = new McpTrace({ maxBytes: 10_000 });
    trace.setEnabled(true);
    for (let i = 1; i <= 200; i++) trace.record('out', request(i, { text: 'x'.repeat(100) }));
    const kept = trace.entries();
    assert.ok(trace.keptBytes <= 10_000, `kept ${trace.keptBytes} bytes`);
    assert.ok(kept.length > 10 && kept.length < 200);
    assert.equal(kept.at(-1)!.id, 200);
    assert.equal(kept[0]!.id, 200 - kept.length + 1);
  });

  test('a huge message keeps its head, and its real size', () => {
    const trace = new McpTrace({ maxMessageChars: 4096, maxBytes: 64 * 1024 });
    trace.setEnabled(true);
    const big = response(9, { content: [{ type: 'text', text: 'y'.repeat(20 * 1024 * 1024) }] });
    trace.record('in', big);
    const [entry] = trace.entries();
    const json = JSON.stringify(big);
    assert.equal(entry!.size, json.length);
    assert.equal(entry!.text, json.slice(0, 4096));
    assert.equal(entry!.cut, json.length - 4096);
    assert.ok(trace.keptBytes < 8192);
  });

  test("redacted: secret-looking fields, the server's own secrets, and a secret cut at the head", () => {
    const trace = new McpTrace({ maxMessageChars: 100, redact: (t) => t.split('hunter2-password').join('[redacted]') });
    trace.setEnabled(true);
    trace.record('out', request(1, { apiKey: 'sk-live-123456789' }));
    // The cut at 100 characters falls inside the server's secret, and inside the token.
    trace.record('out', request(2, { note: `${'p'.repeat(30)}hunter2-password` }));
    trace.record('out', request(3, { token: 'a-very-long-secret-token-that-the-head-cuts-in-the-middle' }));
    const entries = trace.entries();
    const texts = entries.map((e) => e.text);
    assert.match(texts[0]!, /"apiKey":"\[redacted\]"/);
    assert.ok(entries[1]!.cut! > 0 && entries[2]!.cut! > 0, 'both were cut');
    for (const leak of ['sk-live', 'hunter2', 'hunter', 'a-very-long', 'a-very'])
      assert.ok(!texts.join('\n').includes(leak), `"${leak}" leaked: ${texts.join('\n')}`);
    assert.match(texts[2]!, /"token":"\[redacted\]"/);
    // A cut text that ends inside a secret, even right after a backslash, and keys of any spelling.
    assert.equal(redactFields('{"params":{"token":"abc\\'), '{"params":{"token":"[redacted]');
    assert.equal(
      redactFields('{"X-Api-Key":"k1","my.password":"p1"}'),
      '{"X-Api-Key":"[redacted]","my.password":"[redacted]"}',
    );
    assert.equal(
      redactFields('{"Authorization":"Bearer x","headers":{"x-api-key":"k"},"tokens":3}'),
      '{"Authorization":"[redacted]","headers":{"x-api-key":"[redacted]"},"tokens":3}',
    );
  });
});
