import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AlwaysAllow, type GrantStorage } from '../../src/core/approvals/alwaysAllow';
import { WaitingApprovals } from '../../src/core/approvals/waiting';
import { preapproval, trustedByUser, type PolicyContext } from '../../src/core/approvals/policy';
import type { ApprovalRequest } from '../../src/core/agentTypes/events';
import type { StdioServerConfig } from '../../src/core/mcp/config/serverConfig';
import { serverIdentity } from '../../src/core/mcp/config/identity';
import { pinOf, ToolRegistry, type Tool } from '../../src/core/toolRegistry/toolRegistry';

function storage(initial: Record<string, unknown> = {}): GrantStorage & { data: Map<string, unknown> } {
  const data = new Map(Object.entries(initial));
  return {
    data,
    get: <T>(key: string, d: T) => (data.has(key) ? (data.get(key) as T) : d),
    update: async (key, value) => void (value === undefined ? data.delete(key) : data.set(key, value)),
  };
}

const entry = (extra: Partial<StdioServerConfig> = {}): StdioServerConfig => ({
  name: 'files',
  type: 'stdio',
  command: 'npx',
  args: ['-y', 'server-files'],
  env: {},
  cwd: '/ws',
  autoApprove: [],
  origin: 'user settings',
  ...extra,
});

test('a server identity changes with origin, command and arguments, not with cwd, env or name', () => {
  const id = serverIdentity(entry());
  assert.notEqual(serverIdentity(entry({ command: 'npx-evil' })), id);
  assert.notEqual(serverIdentity(entry({ args: ['-y', 'server-files', '--write'] })), id);
  assert.notEqual(serverIdentity(entry({ origin: '.vscode/mcp.json' })), id);
  assert.equal(serverIdentity(entry({ cwd: '/home/u', env: { A: '1' } })), id);
  assert.equal(
    serverIdentity({ name: 'h', type: 'http', url: 'https://a.test/mcp', headers: {}, autoApprove: [] }),
    serverIdentity({ name: 'h', type: 'http', url: 'https://a.test/mcp', headers: { X: 'y' }, autoApprove: [] }),
  );
  assert.notEqual(
    serverIdentity({ name: 'h', type: 'http', url: 'https://a.test/mcp', headers: {}, autoApprove: [] }),
    serverIdentity({ name: 'h', type: 'http', url: 'https://b.test/mcp', headers: {}, autoApprove: [] }),
  );
});

test('Always allow holds for one (server identity, tool) and lapses for another identity', async () => {
  const grants = new AlwaysAllow(storage());
  const id = serverIdentity(entry());
  await grants.add({ identity: id, tool: 'write_file', server: 'files' });
  assert.equal(grants.has(id, 'write_file'), true);
  assert.equal(grants.has(id, 'delete_file'), false);
  assert.equal(grants.has(serverIdentity(entry({ command: 'npx-renamed' })), 'write_file'), false);
  await grants.remove([{ identity: id, tool: 'write_file', server: 'files' }]);
  assert.equal(grants.has(id, 'write_file'), false);
});

test('grants of earlier versions (by server name) are taken out once, never honoured', async () => {
  const s = storage({ 'minagent.approvals.always': ['files/write_file', 'x/y/z'] });
  const grants = new AlwaysAllow(s);
  assert.deepEqual(await grants.takeLegacy(), ['files/write_file', 'x/y/z']);
  assert.equal(s.data.has('minagent.approvals.always'), false);
  assert.deepEqual(await grants.takeLegacy(), [], 'the notice is given once');
  assert.equal(grants.has(serverIdentity(entry()), 'write_file'), false);
});

test('stored grants of the wrong shape are ignored, not trusted', () => {
  const grants = new AlwaysAllow(
    storage({ 'minagent.approvals.grants': [{ identity: 1, tool: 'x' }, 'files/x', null] }),
  );
  assert.deepEqual(grants.list(), []);
});

const mcpTool = (name: string, server: string, remoteName: string, serverIdentity: string, result: string): Tool => ({
  name,
  description: remoteName,
  parameters: { type: 'object' },
  server,
  remoteName,
  serverIdentity,
  call: async () => result,
});

test('a pinned call goes to the pinned tool after its registry name moved to another server', async () => {
  const r = new ToolRegistry();
  const b = mcpTool('echo', 'b', 'echo', 'id-b', 'from b');
  r.replaceAll([b]);
  const pin = pinOf(r.get('echo')!);
  r.replaceAll([mcpTool('echo', 'a', 'echo', 'id-a', 'from a'), { ...b, name: 'b.echo' }]);
  assert.equal(await r.call('echo', {}), 'from a', 'the name now means server a');
  assert.equal(await r.callPinned(pin, {}), 'from b', 'the approved call still goes to b');
});

test('a pinned call fails clearly when its server changed identity or dropped the tool', async () => {
  const r = new ToolRegistry();
  r.replaceAll([mcpTool('write', 's', 'write', 'id-1', 'wrote')]);
  const pin = pinOf(r.get('write')!);
  r.replaceAll([mcpTool('write', 's', 'write', 'id-2', 'wrote elsewhere')]);
  assert.match(
    await r.callPinned(pin, {}),
    /"the tool \\"write\\" of server \\"s\\" that was approved is no longer available.*nothing was run"/,
  );
  r.replaceAll([]);
  assert.match(await r.callPinned(pin, {}), /no longer available/);
});

test('the registry says whose tool list changed; a rename alone is not a change', () => {
  const r = new ToolRegistry();
  const seen: string[][] = [];
  r.onDidChangeServerTools((s) => seen.push([...s].sort()));
  const a = mcpTool('echo', 'a', 'echo', 'id-a', '');
  const b = mcpTool('echo', 'b', 'echo', 'id-b', '');
  r.replaceAll([b]);
  r.replaceAll([a, { ...b, name: 'b.echo' }]);
  r.replaceAll([a, { ...b, name: 'b.echo', parameters: { type: 'object', properties: {} } }]);
  assert.deepEqual(seen, [['b'], ['a'], ['b']]);
});

test('approvals fail closed: any reply but an explicit allow denies', async () => {
  const waiting = new WaitingApprovals();
  const replies: unknown[] = [
    'deny',
    'allow',
    'ALWAYS',
    'once ',
    '',
    null,
    undefined,
    1,
    true,
    { decision: 'once' },
    ['once'],
    'toString',
    '__proto__',
  ];
  for (const reply of replies) {
    const decided = waiting.wait('c1');
    waiting.answer('c1', reply);
    assert.equal(await decided, undefined, `${JSON.stringify(reply)} must deny`);
  }
  for (const reply of ['once', 'chat', 'always'] as const) {
    const decided = waiting.wait('c1');
    waiting.answer('c1', reply);
    assert.equal(await decided, reply);
  }
  assert.equal(waiting.size, 0);
});

test('a reply for another call, or with a call id that is not a string, decides nothing; Stop denies', async () => {
  const waiting = new WaitingApprovals();
  const stop = new AbortController();
  const decided = waiting.wait('c1', stop.signal);
  waiting.answer('c2', 'once');
  waiting.answer({ toString: () => 'c1' }, 'once');
  assert.equal(waiting.size, 1, 'still waiting');
  stop.abort();
  assert.equal(await decided, undefined);
  waiting.answer('c1', 'once'); // too late: nothing is waiting
  assert.equal(waiting.size, 0);
});

const request = (config: StdioServerConfig, remoteName: string, readOnly = false): ApprovalRequest => ({
  callId: '0.0',
  name: remoteName,
  wireName: remoteName,
  server: config.name,
  remoteName,
  serverIdentity: serverIdentity(config),
  arguments: {},
  ...(readOnly ? { annotations: { readOnlyHint: true } } : {}),
});
const policy = (server: StdioServerConfig, extra: Partial<PolicyContext> = {}): PolicyContext => ({
  mode: 'readOnly',
  trusted: true,
  allowedForChat: false,
  alwaysAllowed: false,
  server,
  ...extra,
});

test('autoApprove from a workspace file counts only in a trusted workspace, and "*" never', () => {
  const fromFile = entry({ origin: '.vscode/mcp.json', autoApprove: ['write_file'] });
  assert.match(
    preapproval(request(fromFile, 'write_file'), policy(fromFile))!,
    /listed in "autoApprove" of server "files" \(\.vscode\/mcp\.json\)/,
  );
  assert.equal(
    preapproval(request(fromFile, 'write_file'), policy(fromFile, { trusted: false })),
    undefined,
    'untrusted: asked',
  );
  const wildcardFile = entry({ origin: '.vscode/mcp.json', autoApprove: ['*'] });
  assert.equal(
    preapproval(request(wildcardFile, 'delete_everything'), policy(wildcardFile)),
    undefined,
    'a wildcard from a file is never accepted',
  );
  const wildcardWorkspaceSettings = entry({ origin: 'workspace settings', autoApprove: ['*'] });
  assert.equal(
    preapproval(request(wildcardWorkspaceSettings, 'delete_everything'), policy(wildcardWorkspaceSettings)),
    undefined,
  );
  const wildcardUser = entry({ autoApprove: ['*'] });
  assert.match(
    preapproval(request(wildcardUser, 'delete_everything'), policy(wildcardUser, { trusted: false }))!,
    /"autoApprove": \["\*"\] of server "files" \(user settings\)/,
  );
});

test('autoApprove holds only for the entry the call was pinned to', () => {
  const pinned = entry({ autoApprove: ['write_file'] });
  const changed = entry({ command: 'other', autoApprove: ['write_file'] });
  assert.equal(preapproval(request(pinned, 'write_file'), policy(changed)), undefined);
});

test('read-only tools keep running without asking, and the card says the server declared it', () => {
  const s = entry();
  assert.equal(
    preapproval(request(s, 'read_file', true), policy(s)),
    'Ran without asking because the server declared this tool read-only (readOnlyHint).',
  );
  assert.equal(
    preapproval(request(s, 'read_file', true), policy(s, { mode: 'always' })),
    undefined,
    '"always ask" asks for read-only tools too',
  );
  assert.equal(preapproval(request(s, 'write_file'), policy(s)), undefined, 'a tool with effects asks');
  assert.match(
    preapproval(request(s, 'write_file'), policy(s, { alwaysAllowed: true }))!,
    /Always allowed for this server's command and arguments/,
  );
});

test("another tool's user file: its autoApprove and trusted are the user's word only once the user vouched for them", () => {
  const copilot = (vouched: boolean) =>
    entry({ origin: '~/.copilot/mcp-config.json', autoApprove: ['*'], trusted: true, userFile: { vouched } });
  const asked = copilot(false);
  assert.equal(preapproval(request(asked, 'write_file'), policy(asked, { trusted: false })), undefined);
  assert.equal(trustedByUser(asked), false);
  const vouched = copilot(true);
  assert.match(
    preapproval(request(vouched, 'write_file'), policy(vouched, { trusted: false }))!,
    /"autoApprove": \["\*"\] of server "files" \(~\/\.copilot\/mcp-config\.json\)/,
  );
  assert.equal(trustedByUser(vouched), true);
});
