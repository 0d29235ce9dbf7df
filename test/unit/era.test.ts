// The era helpers: results without resultType in the 2026-07-28 era, the era-refusal reading that
// keeps the SSE fallback away, and the tooltip wording (a server's version is its own text).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import { completeResultsWithoutType, describeProtocol } from '../../src/core/mcp/connection/era';
import { eraRefusal } from '../../src/core/mcp/connection/eraRefusal';
import { McpTrace, tracedTransport } from '../../src/core/mcp/trace/trace';

class ScriptedTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  sent: JSONRPCMessage[] = [];
  async start(): Promise<void> {}
  async close(): Promise<void> {}
  async send(message: JSONRPCMessage): Promise<void> {
    this.sent.push(message);
  }
  /** The server's reply, as the transport itself delivers it. */
  receive(message: unknown): void {
    this.onmessage?.(message as JSONRPCMessage);
  }
}

const modern = (id: number) =>
  ({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: 't', _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } },
  }) as JSONRPCMessage;
const legacy = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 't' } }) as JSONRPCMessage;

describe('era helpers', () => {
  test('a 2026-07-28 result without resultType reaches the client as complete; others are untouched', async () => {
    const t = new ScriptedTransport();
    completeResultsWithoutType(t);
    const got: unknown[] = [];
    t.onmessage = (m) => got.push(m);
    await t.send(modern(1));
    await t.send(legacy(2));
    await t.send(modern(3));
    t.receive({ jsonrpc: '2.0', id: 1, result: { content: [] } });
    t.receive({ jsonrpc: '2.0', id: 2, result: { content: [] } });
    t.receive({ jsonrpc: '2.0', id: 3, result: { content: [], resultType: 'input_required' } });
    t.receive({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 1 } });
    assert.deepEqual(got, [
      { jsonrpc: '2.0', id: 1, result: { content: [], resultType: 'complete' } },
      { jsonrpc: '2.0', id: 2, result: { content: [] } },
      { jsonrpc: '2.0', id: 3, result: { content: [], resultType: 'input_required' } },
      { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 1 } },
    ]);
    assert.equal(t.sent.length, 3, 'what is sent goes out unchanged');
  });

  test('on a traced transport both wrappers work: the trace records the wire, the client gets the default', async () => {
    const trace = new McpTrace();
    trace.setEnabled(true);
    const t = new ScriptedTransport();
    completeResultsWithoutType(tracedTransport(t, trace));
    const got: unknown[] = [];
    t.onmessage = (m) => got.push(m);
    await t.send(modern(7));
    t.receive({ jsonrpc: '2.0', id: 7, result: {} });
    assert.deepEqual(got, [{ jsonrpc: '2.0', id: 7, result: { resultType: 'complete' } }]);
    assert.deepEqual(
      trace.entries().map((e) => `${e.direction} ${e.kind} ${e.text}`),
      [`out request ${JSON.stringify(modern(7))}`, 'in response {"jsonrpc":"2.0","id":7,"result":{}}'],
    );
  });

  test('a refusal of only our era is told apart from an old server', () => {
    const http = (status: number, text: string) =>
      Object.assign(new Error(`HTTP ${status}`), { data: { status, text } });
    assert.match(
      eraRefusal(
        http(
          400,
          JSON.stringify({
            jsonrpc: '2.0',
            id: null,
            error: { code: -32022, message: 'Unsupported', data: { supported: ['2099-01-01'] } },
          }),
        ),
      )!,
      /speaks only protocol 2099-01-01/,
    );
    assert.match(
      eraRefusal(http(400, 'Bad Request: Missing MCP-Protocol-Version header'))!,
      /refused MinAgent's protocol version \(HTTP 400/,
    );
    assert.equal(
      eraRefusal(http(405, 'Method Not Allowed')),
      undefined,
      'an old HTTP+SSE server still gets the fallback',
    );
    assert.equal(eraRefusal(http(404, '<html>Cannot POST /sse</html>')), undefined);
    assert.equal(eraRefusal(new Error('fetch failed')), undefined);
  });

  test('the protocol in words; a hostile version string is cut to plain characters', () => {
    assert.equal(describeProtocol('2026-07-28'), 'MCP 2026-07-28 (stateless: server/discover, no initialize)');
    assert.equal(describeProtocol('2025-06-18'), 'MCP 2025-06-18 (initialize handshake)');
    assert.equal(
      describeProtocol('2025-06-18](javascript:alert(1))'),
      'MCP 2025-06-18javascriptalert1 (initialize handshake)',
    );
  });
});
