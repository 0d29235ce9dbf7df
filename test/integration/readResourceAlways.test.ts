// "Always allow" for the built-in read_resource is kept per server it reads from, in the
// workspace's storage (as the extension's Approvals keeps it), never for every server at once.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { Agent } from '../../src/core/agent/agent';
import type { ApprovalRequest } from '../../src/core/agentTypes/events';
import { ScriptedModel } from '../../src/core/agent/model';
import { AlwaysAllow, grantKey, type GrantStorage } from '../../src/core/approvals/alwaysAllow';
import { preapproval } from '../../src/core/approvals/policy';
import { ServerHub } from '../../src/core/mcp/hub/serverHub';
import { serverIdentity } from '../../src/core/mcp/config/identity';
import { fixture, parseError } from '../helpers';

/** Workspace state as VS Code's Memento keeps it: JSON values by key. */
function workspaceState(): GrantStorage & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return {
    data,
    get: <T>(key: string, d: T) => (data.has(key) ? (JSON.parse(data.get(key)!) as T) : d),
    update: async (key, value) => void (value === undefined ? data.delete(key) : data.set(key, JSON.stringify(value))),
  };
}

describe('read_resource: "Always allow" per server', { timeout: 60_000 }, () => {
  const hub = new ServerHub();
  after(() => hub.closeAll());
  // Each server runs with its own arguments: an identity is origin, command and arguments (env is left out).
  const identityOf = (server: string) => {
    const config = hub.server(server)?.config;
    return config ? serverIdentity(config) : undefined;
  };

  /** One run of the agent, approving as the extension does: a grant or a reply from the "user". */
  async function run(
    grants: AlwaysAllow,
    calls: Array<{ name: string; arguments: Record<string, unknown> }>,
    reply: (req: ApprovalRequest) => 'always' | 'deny',
  ) {
    const asked: string[] = [];
    const model = new ScriptedModel([{ toolCalls: calls }, { final: 'done' }]);
    const agent = new Agent(model, hub.registry, {
      approve: async (req) => {
        const server = req.server !== undefined ? hub.server(req.server)?.config : undefined;
        const key = grantKey(req, identityOf);
        if (
          preapproval(req, {
            mode: 'readOnly',
            trusted: true,
            allowedForChat: false,
            alwaysAllowed: grants.hasKey(key),
            ...(server ? { server } : {}),
          })
        )
          return true;
        asked.push(`${req.name}@${req.server}`);
        if (reply(req) !== 'always') return false;
        if (key) await grants.add(key);
        return true;
      },
    });
    const result = await agent.run('read');
    return { asked, results: result.steps.filter((s) => s.kind === 'tool_call').map((s) => s.tool!.result) };
  }

  test('allowed always for beta: beta reads without asking (also after a reload of the storage), alpha still asks, and a server tool of the same name is not covered', async () => {
    hub.reconcile([
      fixture('alpha', 'library.mjs', ['alpha'], { env: { LIBRARY_LABEL: 'alpha' } }),
      fixture('beta', 'library.mjs', ['beta'], { env: { LIBRARY_LABEL: 'beta', LIBRARY_READ_RESOURCE_TOOL: '1' } }),
    ]);
    await hub.whenIdle();
    // beta's own tool is named read_resource, so the built-in is minagent.read_resource and beta's is
    // beta.read_resource or read_resource.
    const builtin = hub.registry
      .names()
      .find((n) => n.endsWith('read_resource') && hub.registry.get(n)!.server === undefined)!;
    const own = hub.registry
      .names()
      .find((n) => n.endsWith('read_resource') && hub.registry.get(n)!.server === 'beta')!;
    assert.ok(builtin && own, hub.registry.names().join(', '));
    const wire = (name: string) => hub.registry.wireName(name)!;
    const state = workspaceState();

    const first = await run(
      new AlwaysAllow(state),
      [{ name: wire(builtin), arguments: { server: 'beta', uri: 'library://notes/readme' } }],
      () => 'always',
    );
    assert.deepEqual(first.asked, [`${builtin}@beta`]);
    assert.match(first.results[0]!, /Welcome to the beta\./);
    const stored = JSON.parse(state.data.get('minagent.approvals.grants')!) as Array<{
      server: string;
      tool: string;
      builtin?: boolean;
    }>;
    assert.deepEqual(
      stored.map((g) => [g.server, g.tool, g.builtin]),
      [['beta', builtin, true]],
      'one grant, for beta only, in the workspace storage',
    );

    // A new window: the grants come back from the workspace storage.
    const second = await run(
      new AlwaysAllow(state),
      [
        { name: wire(builtin), arguments: { server: 'beta', uri: 'library://notes/guide' } },
        { name: wire(builtin), arguments: { server: 'alpha', uri: 'library://notes/readme' } },
        { name: wire(own), arguments: {} },
      ],
      () => 'deny',
    );
    assert.deepEqual(
      second.asked.sort(),
      [`${builtin}@alpha`, `${own}@beta`].sort(),
      "beta's read ran without asking; alpha and beta's own tool asked",
    );
    assert.match(second.results[0]!, /How to use the beta/);
    assert.equal(parseError(second.results[1]!), `the user denied the call to "${builtin}"`);
  });

  test("the grant lapses when beta's entry changes what it runs", async () => {
    const state = workspaceState();
    hub.reconcile([
      fixture('alpha', 'library.mjs', ['alpha'], { env: { LIBRARY_LABEL: 'alpha' } }),
      fixture('beta', 'library.mjs', ['beta'], { env: { LIBRARY_LABEL: 'beta' } }),
    ]);
    await hub.whenIdle();
    await run(
      new AlwaysAllow(state),
      [{ name: 'read_resource', arguments: { server: 'beta', uri: 'library://notes/readme' } }],
      () => 'always',
    );
    hub.reconcile([
      fixture('alpha', 'library.mjs', ['alpha'], { env: { LIBRARY_LABEL: 'alpha' } }),
      fixture('beta', 'library.mjs', ['beta', '--changed'], { env: { LIBRARY_LABEL: 'beta' } }),
    ]);
    await hub.whenIdle();
    const again = await run(
      new AlwaysAllow(state),
      [{ name: 'read_resource', arguments: { server: 'beta', uri: 'library://notes/readme' } }],
      () => 'deny',
    );
    assert.deepEqual(again.asked, ['read_resource@beta']);
  });
});

describe('grantKey', () => {
  test('an MCP tool by its identity and own name; a routed built-in by its target server; nothing without a server', () => {
    const ids = (s: string) => (s === 'beta' ? 'id-beta' : undefined);
    assert.deepEqual(grantKey({ name: 'x.echo', server: 'x', serverIdentity: 'id-x', remoteName: 'echo' }, ids), {
      identity: 'id-x',
      tool: 'echo',
      server: 'x',
    });
    assert.deepEqual(grantKey({ name: 'read_resource', server: 'beta' }, ids), {
      identity: 'id-beta',
      tool: 'read_resource',
      server: 'beta',
      builtin: true,
    });
    assert.equal(
      grantKey({ name: 'read_resource' }, ids),
      undefined,
      'no target server: nothing to keep (never "every server")',
    );
    assert.equal(grantKey({ name: 'read_resource', server: 'gone' }, ids), undefined);
  });
});
