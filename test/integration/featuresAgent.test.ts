// What the model sees of the servers' other features: their instructions in the system prompt,
// the built-in read_resource tool (approved per server), and resources in tool results.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { Agent } from '../../src/core/agent/agent';
import type { ApprovalRequest } from '../../src/core/agentTypes/events';
import { ScriptedModel } from '../scriptedModel';
import { ServerHub } from '../../src/core/mcp/hub/serverHub';
import { MAX_INSTRUCTIONS_CHARS } from '../../src/core/mcp/features/instructions';
import { fixture, parseError, reference } from '../helpers';

function systemPrompt(model: ScriptedModel): string {
  const first = model.calls[0]!.messages[0]!;
  assert.equal(first.role, 'system');
  return first.content;
}

describe('server instructions reach the model', { timeout: 60_000 }, () => {
  const hub = new ServerHub();
  after(() => hub.closeAll());

  test("each server's instructions, framed as the server's, after the agent's own system prompt; switchable per server", async () => {
    hub.reconcile([
      reference('everything', 'server-everything', ['stdio']),
      fixture('alpha', 'library.mjs', [], { env: { LIBRARY_LABEL: 'alpha' } }),
      fixture('quiet', 'library.mjs', [], { env: { LIBRARY_LABEL: 'quiet' }, instructions: false }),
    ]);
    await hub.whenIdle();
    const model = new ScriptedModel([{ final: 'ok' }]);
    await new Agent(model, hub.registry, {
      system: 'You are MinAgent.',
      instructions: () => hub.catalog.instructions(),
    }).run('hi');
    const system = systemPrompt(model);
    assert.ok(system.startsWith('You are MinAgent.\n\n'), system.slice(0, 100));
    assert.match(system, /<server-instructions server="everything">\n# Everything Server – Server Instructions/);
    assert.match(
      system,
      /<server-instructions server="alpha">\nCite alpha notes by their URI\.\n<\/server-instructions>/,
    );
    assert.doesNotMatch(system, /quiet/, 'a server whose entry says "instructions": false is left out');
  });

  test('attack: 1 MB of instructions is cut with a note, and other servers still get their say', async () => {
    hub.reconcile([
      fixture('flood', 'library.mjs', [], { env: { LIBRARY_INSTRUCTIONS: 'big' } }),
      fixture('alpha', 'library.mjs', [], { env: { LIBRARY_LABEL: 'alpha' } }),
    ]);
    await hub.whenIdle();
    const model = new ScriptedModel([{ final: 'ok' }]);
    await new Agent(model, hub.registry, { instructions: () => hub.catalog.instructions() }).run('hi');
    const system = systemPrompt(model);
    assert.ok(system.length < MAX_INSTRUCTIONS_CHARS + 2_000, `system prompt of ${system.length} characters`);
    assert.match(system, /\[instructions cut: \d+ of 1048\d{3} characters were left out\]/);
    assert.doesNotMatch(system, /END-OF-BIG-INSTRUCTIONS/);
    assert.match(system, /Cite alpha notes/);
  });
});

describe('read_resource: the model reads resources through the approval path', { timeout: 60_000 }, () => {
  const hub = new ServerHub();
  after(() => hub.closeAll());

  test('offered only while a server has resources', async () => {
    hub.reconcile([fixture('research', 'research.mjs')]);
    await hub.whenIdle();
    assert.ok(!hub.registry.names().includes('read_resource'));
    hub.reconcile([
      fixture('research', 'research.mjs'),
      fixture('alpha', 'library.mjs', [], { env: { LIBRARY_LABEL: 'alpha' } }),
    ]);
    await hub.whenIdle();
    const tool = hub.registry.get('read_resource')!;
    assert.deepEqual((tool.parameters as { properties: { server: { enum: string[] } } }).properties.server.enum, [
      'alpha',
    ]);
    assert.equal(tool.annotations?.readOnlyHint, undefined, 'not marked read-only: it asks like any other tool');
    await hub.stop('alpha');
    assert.ok(!hub.registry.names().includes('read_resource'), 'withdrawn when the last server with resources stops');
  });

  test('a call asks for approval naming the server it reads from; allowed, the model gets the text; denied, an error', async () => {
    hub.reconcile([
      fixture('alpha', 'library.mjs', [], { env: { LIBRARY_LABEL: 'alpha' } }),
      fixture('beta', 'library.mjs', [], { env: { LIBRARY_LABEL: 'beta' } }),
    ]);
    hub.start('alpha');
    await hub.whenIdle();
    const asked: ApprovalRequest[] = [];
    // "Always allow" as the extension keeps it: per (server, tool). Beta is always allowed; alpha is not.
    const always = new Set(['beta/read_resource']);
    const model = new ScriptedModel([
      {
        toolCalls: [
          { name: 'read_resource', arguments: { server: 'beta', uri: 'library://notes/readme' } },
          { name: 'read_resource', arguments: { server: 'alpha', uri: 'library://notes/readme' } },
        ],
      },
      { final: 'done' },
    ]);
    const agent = new Agent(model, hub.registry, {
      approve: async (req) => {
        asked.push(req);
        return always.has(`${req.server}/${req.name}`);
      },
    });
    const result = await agent.run('read the readmes');
    assert.deepEqual(
      asked.map((r) => [r.name, r.server]),
      [
        ['read_resource', 'beta'],
        ['read_resource', 'alpha'],
      ],
    );
    const [beta, alpha] = result.steps.filter((s) => s.kind === 'tool_call').map((s) => s.tool!);
    assert.equal(beta!.server, 'beta');
    assert.equal(
      beta!.result,
      '[resource <library://notes/readme> (text/plain) from server "beta"]\nWelcome to the beta.',
    );
    assert.equal(parseError(alpha!.result), 'the user denied the call to "read_resource"');
    const toolMessages = model.calls[1]!.messages.filter((m) => m.role === 'tool');
    assert.match(toolMessages[0]!.content, /Welcome to the beta\./);
  });

  test('bad arguments and unknown resources come back as errors the model can read', async () => {
    assert.match(
      parseError(await hub.registry.call('read_resource', { server: 'research', uri: 'x://y' })),
      /server "research" has no resources; servers with resources: alpha, beta/,
    );
    assert.match(parseError(await hub.registry.call('read_resource', { server: 'alpha' })), /needs "uri"/);
    assert.match(
      parseError(await hub.registry.call('read_resource', { server: 'alpha', uri: 'library://notes/missing' })),
      /missing|not found/i,
    );
  });

  test("a server's own tool named read_resource keeps its name; the built-in steps aside, nothing overwritten", async () => {
    hub.reconcile([
      fixture('owner', 'library.mjs', [], { env: { LIBRARY_LABEL: 'owner', LIBRARY_READ_RESOURCE_TOOL: '1' } }),
    ]);
    await hub.whenIdle();
    assert.equal(await hub.registry.call('read_resource', {}), "owner's own read_resource");
    assert.equal(hub.registry.get('read_resource')!.server, 'owner');
    assert.equal(hub.registry.wireName('minagent.read_resource'), 'minagent__read_resource');
    assert.match(
      await hub.registry.call('minagent__read_resource', { server: 'owner', uri: 'library://notes/guide' }),
      /How to use the owner/,
    );
  });
});

describe('resource links and embedded resources in tool results', { timeout: 60_000 }, () => {
  const hub = new ServerHub();
  after(() => hub.closeAll());

  test('the model gets a faithful text form; the step carries them as data for the UI', async () => {
    hub.reconcile([fixture('alpha', 'library.mjs', [], { env: { LIBRARY_LABEL: 'alpha' } })]);
    await hub.whenIdle();
    const model = new ScriptedModel([{ toolCalls: [{ name: 'cite', arguments: { id: 'guide' } }] }, { final: 'done' }]);
    const result = await new Agent(model, hub.registry).run('cite');
    const step = result.steps.find((s) => s.kind === 'tool_call')!.tool!;
    assert.equal(
      step.result,
      [
        'see these:',
        '[resource link from server "alpha": note guide <library://notes/guide> (text/plain) - note guide of alpha]',
        '[embedded resource <library://notes/guide> (text/plain) from server "alpha"]',
        'How to use the alpha: read the notes.',
        '[end of resource <library://notes/guide>]',
      ].join('\n'),
    );
    assert.deepEqual(step.resources, [
      {
        kind: 'link',
        server: 'alpha',
        uri: 'library://notes/guide',
        name: 'note guide',
        description: 'note guide of alpha',
        mimeType: 'text/plain',
      },
      {
        kind: 'embedded',
        server: 'alpha',
        uri: 'library://notes/guide',
        mimeType: 'text/plain',
        text: 'How to use the alpha: read the notes.',
        size: 37,
      },
    ]);
  });
});
