import type { ToolImage } from '../toolRegistry/toolRegistry';

/** The conversation as a model is sent it: the agent keeps it, the budget measures it, providers translate it. */

export interface ToolCall {
  /** The provider's id for the call, echoed back with the result. */
  id: string;
  /** The name the model used (a wire name). */
  name: string;
  /** Arguments as the model sent them: an object, or JSON text (possibly invalid). */
  arguments: Record<string, unknown> | string;
}

/**
 * A tool search the provider ran within its answer (Anthropic's tool search): what it searched for,
 * the tools it loaded (wire names, best first), and its blocks, sent back in the history as they came.
 */
export interface ProviderSearch {
  query: string;
  found: string[];
  blocks: Array<Record<string, unknown>>;
}

export type ChatMessage =
  | { role: 'system'; content: string }
  /** `images`: from a prompt a server gave (raster images only, checked where they were taken in). */
  | { role: 'user'; content: string; images?: ToolImage[] }
  | { role: 'assistant'; content: string; toolCalls?: ToolCall[]; searches?: ProviderSearch[] }
  | { role: 'tool'; toolCallId: string; name: string; content: string; isError?: boolean; images?: ToolImage[] };
