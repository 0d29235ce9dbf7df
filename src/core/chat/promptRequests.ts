// The `/` menu's two requests from a view: completing a prompt's argument, and running a prompt as
// the next turn's input. A chat without server prompts refuses both, saying so.
import type { HostMessage, WebviewMessage } from '../../shared/protocol';
import type { ChatPrompts, PromptInput } from './prompts';

/** The server's completions for one argument, as the answer to the view's `completePrompt`. */
export async function promptCompletions(
  prompts: ChatPrompts | undefined,
  message: Extract<WebviewMessage, { type: 'completePrompt' }>,
): Promise<HostMessage> {
  const result = await need(prompts).complete(message.prompt, message.argument, message.value, message.context);
  return { type: 'completions', requestId: message.requestId, ...result };
}

/** The prompt a view's `runPrompt` names, got from its server with the user's arguments. */
export function promptTurnInput(
  prompts: ChatPrompts | undefined,
  message: Extract<WebviewMessage, { type: 'runPrompt' }>,
): Promise<PromptInput> {
  return need(prompts).expand(message.prompt, message.arguments);
}

function need(prompts: ChatPrompts | undefined): ChatPrompts {
  if (!prompts) throw new Error('this chat has no server prompts');
  return prompts;
}
