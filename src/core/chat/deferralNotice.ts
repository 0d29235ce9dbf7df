import type { AgentToolOptions } from '../agentTypes/toolOptions';
import type { ToolPlan } from '../toolSearch/deferral';
import { offerOptions, type ToolOffer } from '../toolSearch/toolOffer';
import type { TranscriptItem } from '../../shared/protocol';

/**
 * The offer's agent options, telling `onFirst` what the turn's first request carries: every tool,
 * or the deferred set behind search_tools (what the turn's message is marked with).
 */
export function watchedOffer(offer: ToolOffer, onFirst: (plan: ToolPlan) => void): AgentToolOptions {
  const base = offerOptions(offer);
  let told = false;
  return {
    ...base,
    tools: (history, windowTokens, native) => {
      const plan = offer.plan(history, windowTokens, native);
      if (!told) {
        told = true;
        onFirst(plan);
      }
      return plan.tools;
    },
  };
}

/**
 * What marks a switch between sending every tool and deferring them, for a message (`id`) whose
 * first request carried `plan`: the last earlier message marked says how it was before. Nothing for
 * a chat's first message (the meter says it), or when nothing changed.
 */
export function deferralSwitch(
  items: readonly TranscriptItem[],
  id: string,
  plan: Pick<ToolPlan, 'deferred' | 'deferredCount' | 'tools'>,
): string | undefined {
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i]!;
    if ((item.kind !== 'user' && item.kind !== 'prompt') || item.id === id || item.deferred === undefined) continue;
    if (item.deferred === plan.deferred) return undefined;
    return plan.deferred
      ? `Tools are deferred from this message on: all of them would take too much of the model's window, so ${plan.deferredCount} are not sent and the model finds them with search_tools (pinned tools and those this chat used are still sent). Pin a tool in the Tools view to send it always.`
      : `Every tool is sent again from this message on (${plan.tools.length}): they fit the model's window.`;
  }
  return undefined;
}
