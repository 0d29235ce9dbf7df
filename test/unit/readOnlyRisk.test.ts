import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ApprovalRequest } from '../../src/core/agentTypes/events';
import type { ChatMessage } from '../../src/core/agentTypes/messages';
import { resultSources } from '../../src/core/approvals/contextSources';
import { preapproval, readOnlyRisk, trustedByUser, USER_ORIGIN } from '../../src/core/approvals/policy';
import type { StdioServerConfig } from '../../src/core/mcp/config/serverConfig';
import { ToolRegistry, type Tool } from '../../src/core/toolRegistry/toolRegistry';

const tool = (name: string, server?: string, extra: Partial<Tool> = {}): Tool => ({
  name,
  description: name,
  parameters: { type: 'object', properties: {} },
  call: async () => 'ok',
  ...(server ? { server } : {}),
  ...extra,
});
const saveNote: ApprovalRequest = {
  callId: '1',
  name: 'save_note',
  wireName: 'save_note',
  server: 'collector',
  arguments: { text: 'x' },
  annotations: { readOnlyHint: true },
};
const ctx = { mode: 'readOnly', trusted: true, allowedForChat: false, alwaysAllowed: false };
const entry = (origin: string): StdioServerConfig => ({
  name: 'collector',
  type: 'stdio',
  command: 'node',
  args: [],
  env: {},
  cwd: '/',
  autoApprove: [],
  trusted: true,
  origin,
});

describe('read-only is a claim, not a pass', () => {
  test("runs unasked while only its own server's results are in the conversation; asks, saying why, once another server's are", () => {
    assert.match(preapproval(saveNote, ctx) ?? '', /read-only/);
    assert.match(preapproval({ ...saveNote, contextServers: ['collector'] }, ctx) ?? '', /read-only/);
    const risky = { ...saveNote, contextServers: ['collector', 'fs'] };
    assert.equal(preapproval(risky, ctx), undefined);
    assert.equal(
      readOnlyRisk(risky, false),
      'Asks although its server calls it read-only: this conversation holds results from server "fs", and its arguments could carry them to "collector".',
    );
  });

  test('the user vouching for the server lets it run: trusted: true in user settings (never from a workspace file), or Always allow', () => {
    const risky = { ...saveNote, contextServers: ['fs'] };
    assert.equal(trustedByUser(entry(USER_ORIGIN)), true);
    assert.equal(trustedByUser(entry('workspace settings')), false);
    assert.equal(trustedByUser(entry('.vscode/mcp.json')), false);
    assert.match(preapproval(risky, { ...ctx, serverTrusted: true }) ?? '', /read-only/);
    assert.match(preapproval(risky, { ...ctx, alwaysAllowed: true }) ?? '', /Always allowed/);
  });

  test('a tool that is not read-only is not affected (it asks anyway)', () => {
    assert.equal(readOnlyRisk({ ...saveNote, annotations: {}, contextServers: ['fs'] }, false), undefined);
  });
});

describe('resultSources: whose results the model has read', () => {
  const registry = new ToolRegistry();
  registry.add(tool('read_text_file', 'fs'));
  registry.add(tool('save_note', 'collector'));
  registry.add(
    tool('read_resource', undefined, {
      targetServer: (args) => (typeof args.server === 'string' ? args.server : undefined),
    }),
  );

  test('every tool result, earlier turns included, by its server; read_resource by the server it read; a tool no longer listed is unknown', () => {
    const messages: ChatMessage[] = [
      { role: 'user', content: 'read it' },
      {
        role: 'assistant',
        content: '',
        toolCalls: [
          { id: 'a', name: 'read_text_file', arguments: { path: '/s' } },
          { id: 'b', name: 'read_resource', arguments: '{"server":"docs","uri":"x://1"}' },
          { id: 'c', name: 'gone_tool', arguments: {} },
        ],
      },
      { role: 'tool', toolCallId: 'a', name: 'read_text_file', content: 'secret' },
      { role: 'tool', toolCallId: 'b', name: 'read_resource', content: 'doc' },
      { role: 'tool', toolCallId: 'c', name: 'gone_tool', content: 'x' },
      { role: 'assistant', content: 'ok' },
    ];
    assert.deepEqual(resultSources(messages, registry), ['fs', 'docs', 'the tool "gone_tool" (no longer listed)']);
    assert.deepEqual(resultSources(messages.slice(0, 2), registry), []);
  });

  test("MinAgent's search_tools is no server's result; a server's own tool of that name still counts as its server", () => {
    const messages: ChatMessage[] = [
      { role: 'assistant', content: '', toolCalls: [{ id: 's', name: 'search_tools', arguments: { query: 'notes' } }] },
      {
        role: 'tool',
        toolCallId: 's',
        name: 'search_tools',
        content: '{"loaded":[{"name":"save_note","server":"collector","description":"x"}],"note":"n"}',
      },
    ];
    assert.deepEqual(resultSources(messages, registry), []);
    const withOwn = new ToolRegistry();
    withOwn.add(tool('search_tools', 'lookalike'));
    assert.deepEqual(resultSources(messages, withOwn), ['lookalike']);
  });

  test('the reason names servers and tools no longer listed apart, never "server the tool"', () => {
    const req = { ...saveNote, contextServers: ['fs', 'the tool "gone_tool" (no longer listed)', 'docs'] };
    assert.equal(
      readOnlyRisk(req, false),
      'Asks although its server calls it read-only: this conversation holds results from servers "fs", "docs" and from the tool "gone_tool" (no longer listed), and its arguments could carry them to "collector".',
    );
    assert.equal(
      readOnlyRisk({ ...saveNote, contextServers: ['the tool "gone_tool" (no longer listed)'] }, false),
      'Asks although its server calls it read-only: this conversation holds results from the tool "gone_tool" (no longer listed), and its arguments could carry them to "collector".',
    );
  });
});
