import type { BudgetParts } from '../../shared/protocol';
import type { ChatMessage } from '../agentTypes/messages';
import type { ToolSchema } from '../toolRegistry/toolRegistry';
import { BudgetError, fitRequest, type TrimReport } from './fit';
import type { ModelLimits } from './limits';
import { messageTokens, toolTokens } from './tokens';
import { answerReserve, type ContextWindow } from './window';

/** What the next request will cost, part by part, against the model's window. */
export interface BudgetBreakdown extends BudgetParts {
  window: ContextWindow;
  counter: { label: string; exact: boolean };
  trimmed?: TrimReport;
}

export interface BudgetInput {
  limits: ModelLimits;
  system: string;
  history: readonly ChatMessage[];
  draft: string;
  tools: ReadonlyArray<{ server: string; schema: ToolSchema }>;
}

/** Measures the request that sending `draft` now would make, trimmed as the agent would trim it. */
export async function measureRequest(input: BudgetInput): Promise<BudgetBreakdown> {
  const { window, counter, imageTokens } = input.limits;
  const cost = (m: ChatMessage) => messageTokens(m, counter, imageTokens);
  const byServer = new Map<string, { server: string; tokens: number; count: number }>();
  for (const { server, schema } of input.tools) {
    const entry = byServer.get(server) ?? { server, tokens: 0, count: 0 };
    entry.tokens += await toolTokens(schema, counter);
    entry.count++;
    byServer.set(server, entry);
  }
  const tools = [...byServer.values()];
  const toolTotal = tools.reduce((a, t) => a + t.tokens, 0);
  const systemMsg: ChatMessage[] = input.system ? [{ role: 'system', content: input.system }] : [];
  const system = input.system ? await cost(systemMsg[0]!) : 0;
  const draftCost = await cost({ role: 'user', content: input.draft });
  const message = input.draft ? draftCost : 0;
  let historyFull = 0;
  for (const m of input.history) historyFull += await cost(m);
  const base = {
    window,
    reserve: answerReserve(window),
    counter: { label: counter.label, exact: counter.exact },
    system,
    tools,
    message,
    historyFull,
  };
  try {
    const fitted = await fitRequest(
      [...systemMsg, ...input.history, { role: 'user', content: input.draft }],
      input.tools.map((t) => t.schema),
      window,
      counter,
      imageTokens,
    );
    // The system prompt may carry the note about left-out turns: that counts as history.
    const history = Math.max(0, fitted.tokens - toolTotal - system - draftCost);
    return {
      ...base,
      history,
      total: system + toolTotal + history + message,
      ...(fitted.trimmed ? { trimmed: fitted.trimmed } : {}),
    };
  } catch (err) {
    if (!(err instanceof BudgetError)) throw err;
    return { ...base, history: historyFull, total: system + toolTotal + historyFull + message, over: err.message };
  }
}
