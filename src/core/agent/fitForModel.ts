import type { ChatModel } from './model';
import type { ChatMessage } from '../agentTypes/messages';
import { errorMessage, type ToolSchema } from '../toolRegistry/toolRegistry';
import { BudgetError, describeTrim, fitRequest } from '../budget/fit';

/** A request as it goes to the model, and a note for the user when it was trimmed to fit. */
export interface FittedRequest {
  messages: ChatMessage[];
  notice?: string;
}

/**
 * Fits a request into the model's window before it is sent (a model that reports no limits gets it
 * as it is). Throws BudgetError when even the current turn alone does not fit. When the window or
 * the count cannot be had (a provider's token count failed), the request goes as it is, with a note.
 */
export async function fitForModel(
  model: ChatModel,
  messages: ChatMessage[],
  tools: readonly ToolSchema[],
  signal?: AbortSignal,
): Promise<FittedRequest> {
  if (!model.limits) return { messages };
  try {
    const { window, counter, imageTokens } = await model.limits(signal);
    const fitted = await fitRequest(messages, tools, window, counter, imageTokens);
    return { messages: fitted.messages, ...(fitted.trimmed ? { notice: describeTrim(fitted.trimmed, window) } : {}) };
  } catch (err) {
    if (err instanceof BudgetError || signal?.aborted) throw err;
    return {
      messages,
      notice: `The request could not be measured against the model's window (${errorMessage(err)}); it is sent untrimmed.`,
    };
  }
}
