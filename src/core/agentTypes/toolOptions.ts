import type { ToolResult } from '../toolRegistry/toolResult';
import type { ToolSchema } from '../toolRegistry/toolRegistry';
import type { ChatMessage } from './messages';

/** What the agent offers the model, request by request, and what it runs itself (see core/toolSearch). */
export interface AgentToolOptions {
  /**
   * The tools the model is shown in the next request of a conversation with this history, against a
   * window of `windowTokens` (default: all of the registry's). A call to any other tool is refused,
   * unless `isCallable` says it may run (a deferred tool the model remembers).
   */
  tools?: (history: readonly ChatMessage[], windowTokens: number, nativeSearch: boolean) => ToolSchema[];
  /** Whether a tool the request did not carry may still be called (by wire name). */
  isCallable?: (wire: string) => boolean;
  /**
   * MinAgent's own tools that run without asking and without a server (search_tools): the runner
   * for a wire name, or undefined. It gets the conversation so far.
   */
  builtin?: (
    wire: string,
  ) =>
    | ((args: unknown, history: readonly ChatMessage[]) => string | ToolResult | Promise<string | ToolResult>)
    | undefined;
  /**
   * What the model is told when it calls a tool the registry does not have (e.g. one its server removed after it was
   * loaded).
   */
  unknownTool?: (wire: string, history: readonly ChatMessage[]) => string | undefined;
}
