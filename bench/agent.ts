// 5. Agent overhead per step: a ScriptedModel and an in-process tool, against calling the tool directly.
import { Agent } from '../src/core/agent/agent';
import { ScriptedModel, type ChatModel, type ModelTurn } from '../src/core/agent/model';
import { ToolRegistry } from '../src/core/toolRegistry/toolRegistry';
import { median, record } from './results';

// ScriptedModel records a copy of the conversation at every step (so tests can inspect it): that cost grows with
// the conversation and is part of the figure, as it is for a real provider that is sent the whole history.
const STEPS = 200;

/** Replays the same scripted turns as ScriptedModel without recording what it was asked. */
class ReplayModel implements ChatModel {
  readonly id = 'replay';
  private i = 0;
  constructor(private readonly steps: number) {}
  async chat(): Promise<ModelTurn> {
    const n = this.i++;
    return n < this.steps
      ? { text: '', toolCalls: [{ id: `c${n}`, name: 'lookup', arguments: { q: `q${n}` } }] }
      : { text: 'done', toolCalls: [] };
  }
}

export async function benchAgent(): Promise<void> {
  const registry = new ToolRegistry();
  registry.add({
    name: 'lookup',
    description: 'in-process',
    parameters: { type: 'object', properties: { q: { type: 'string' } } },
    call: async (a) => `found ${String(a.q)}`,
  });
  const perStepAgent: number[] = [];
  const perStepLoop: number[] = [];
  const perStepDirect: number[] = [];
  for (let rep = 0; rep < 5; rep++) {
    const script = [
      ...Array.from({ length: STEPS }, (_, i) => ({ toolCalls: [{ name: 'lookup', arguments: { q: `q${i}` } }] })),
      { final: 'done' },
    ];
    const agent = new Agent(new ScriptedModel(script), registry, { maxSteps: STEPS + 1 });
    let t0 = performance.now();
    await agent.run('go');
    perStepAgent.push(((performance.now() - t0) / STEPS) * 1000);
    t0 = performance.now();
    await new Agent(new ReplayModel(STEPS), registry, { maxSteps: STEPS + 1 }).run('go');
    perStepLoop.push(((performance.now() - t0) / STEPS) * 1000);
    t0 = performance.now();
    for (let i = 0; i < STEPS; i++) await registry.call('lookup', { q: `q${i}` });
    perStepDirect.push(((performance.now() - t0) / STEPS) * 1000);
  }
  record(
    'agent',
    `per step over ${STEPS} steps with ScriptedModel, which copies the conversation at every step (median of 5)`,
    {
      agentUs: median(perStepAgent),
      directCallUs: median(perStepDirect),
      ratio: median(perStepAgent) / median(perStepDirect),
    },
  );
  record('agent', `per step over ${STEPS} steps, the loop alone (a model that does not record; median of 5)`, {
    agentUs: median(perStepLoop),
    directCallUs: median(perStepDirect),
    ratio: median(perStepLoop) / median(perStepDirect),
  });
}
