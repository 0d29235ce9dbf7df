import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Agent } from '../../src/core/agent/agent';
import { parseScript } from '../../src/core/agent/model';
import { ScriptedModel } from '../scriptedModel';
import { ToolRegistry, type Tool } from '../../src/core/toolRegistry/toolRegistry';

function registry(...tools: Array<Partial<Tool> & Pick<Tool, 'name' | 'call'>>): ToolRegistry {
  const r = new ToolRegistry();
  for (const t of tools)
    r.add({ description: t.name, parameters: { type: 'object', properties: { q: { type: 'string' } } }, ...t });
  return r;
}

test('steps carry index, kind and detail; the seed prints name -> result', async () => {
  const r = registry({ name: 'lookup', call: async (a) => `found ${String(a.q)}` });
  const model = new ScriptedModel([{ toolCalls: [{ name: 'lookup', arguments: { q: 'mcp' } }] }, { final: 'done' }]);
  const res = await new Agent(model, r).run('q');
  assert.deepEqual(
    res.steps.map(({ index, kind, detail }) => ({ index, kind, detail })),
    [
      { index: 0, kind: 'tool_call', detail: 'lookup -> found mcp' },
      { index: 1, kind: 'final', detail: 'done' },
    ],
  );
  assert.equal(res.final, 'done');
  assert.deepEqual(
    res.messages.map((m) => m.role),
    ['user', 'assistant', 'tool', 'assistant'],
  );
});

test('tool calls of one model turn run concurrently', { timeout: 10_000 }, async () => {
  // Each call returns only once all three have started: run one after another, they never would.
  let running = 0;
  let peak = 0;
  let allStarted!: () => void;
  const barrier = new Promise<void>((r) => (allStarted = r));
  const slow: Tool['call'] = async () => {
    running++;
    peak = Math.max(peak, running);
    if (running === 3) allStarted();
    await barrier;
    running--;
    return 'ok';
  };
  const r = registry({ name: 'a', call: slow }, { name: 'b', call: slow }, { name: 'c', call: slow });
  const model = new ScriptedModel([{ toolCalls: [{ name: 'a' }, { name: 'b' }, { name: 'c' }] }, { final: 'x' }]);
  await new Agent(model, r).run('go');
  assert.equal(peak, 3);
});

test('wire names map back; invalid argument JSON and unknown tools reach the model as tool errors', async () => {
  const seen: unknown[] = [];
  const r = registry({ name: 'analytics.echo', call: async (a) => (seen.push(a), 'echoed') });
  const model = new ScriptedModel([
    {
      toolCalls: [
        { name: 'analytics__echo', arguments: '{"q": "hi"}' },
        { name: 'analytics__echo', arguments: '{bad json' },
        { name: 'ghost' },
      ],
    },
    { final: 'ok' },
  ]);
  const res = await new Agent(model, r).run('go');
  assert.deepEqual(seen, [{ q: 'hi' }]);
  const [good, bad, ghost] = res.steps;
  assert.equal(good!.tool?.name, 'analytics.echo');
  assert.equal(good!.tool?.wireName, 'analytics__echo');
  assert.match(bad!.tool!.result, /are not valid JSON/);
  assert.equal(bad!.tool!.isError, true);
  assert.match(JSON.parse(ghost!.tool!.result).error, /unknown tool "ghost"; available tools: analytics\.echo/);
  const toolMsgs = model.calls[1]!.messages.filter((m) => m.role === 'tool');
  assert.equal(toolMsgs.length, 3, 'the model sees every result, errors included');
});

test('maxSteps ends a turn that never ends; a model error is a step, not a throw', async () => {
  const r = registry({ name: 't', call: async () => 'again' });
  const loop = new ScriptedModel(Array.from({ length: 10 }, () => ({ toolCalls: [{ name: 't' }] })));
  const res = await new Agent(loop, r, { maxSteps: 3 }).run('go');
  assert.equal(res.stopped, 'maxSteps');
  assert.equal(loop.calls.length, 3);
  assert.match(res.steps.at(-1)!.detail, /stopped after 3 model turns/);

  const empty = await new Agent(new ScriptedModel([]), r).run('go');
  assert.equal(empty.stopped, 'error');
  assert.match(empty.steps[0]!.detail, /^model error: the script has no turn 1/);
});

test('the model is shown the system prompt, history and schemas; scripts are checked', async () => {
  const r = registry({ name: 'x', call: async () => '' });
  const model = new ScriptedModel([{ final: 'hi' }]);
  await new Agent(model, r, { system: 'be brief' }).run('now', {
    history: [
      { role: 'user', content: 'before' },
      { role: 'assistant', content: 'ok' },
    ],
  });
  assert.deepEqual(
    model.calls[0]!.messages.map((m) => m.content),
    ['be brief', 'before', 'ok', 'now'],
  );
  assert.deepEqual(model.calls[0]!.tools[0]!.parameters, { type: 'object', properties: { q: { type: 'string' } } });
  assert.throws(() => parseScript([{ nope: 1 }], 'f.json'), /f\.json: turn 0 must be/);
});

test("approvals: a denied call never runs and the model reads why; read-only decisions are the caller's", async () => {
  let ran = 0;
  const r = registry(
    { name: 'rm', call: async () => (ran++, 'removed'), annotations: { destructiveHint: true } },
    { name: 'ls', call: async () => 'listing', annotations: { readOnlyHint: true } },
  );
  const asked: string[] = [];
  const model = new ScriptedModel([{ toolCalls: [{ name: 'rm' }, { name: 'ls' }] }, { final: 'ok' }]);
  const res = await new Agent(model, r, {
    approve: async (req) => {
      asked.push(req.name);
      return req.annotations?.readOnlyHint === true;
    },
  }).run('go');
  assert.deepEqual(asked.sort(), ['ls', 'rm']);
  assert.equal(ran, 0);
  assert.equal(res.steps[0]!.tool!.result, '{"error":"the user denied the call to \\"rm\\""}');
  assert.equal(res.steps[1]!.tool!.result, 'listing');
});

test("a call's duration is the tool's own time: the time the user spent deciding is not counted", async () => {
  const r = registry({ name: 'quick', call: async () => 'done' });
  const model = new ScriptedModel([{ toolCalls: [{ name: 'quick' }] }, { final: 'ok' }]);
  const res = await new Agent(model, r, {
    approve: () => new Promise((resolve) => setTimeout(() => resolve(true), 400)),
  }).run('go');
  const step = res.steps.find((s) => s.kind === 'tool_call')!;
  assert.ok(
    step.tool!.durationMs < 200,
    `the call took ${step.tool!.durationMs} ms, with 400 ms of deciding before it`,
  );
});
