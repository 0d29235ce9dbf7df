import type { TaskControl, ToolAnnotations, ToolImage, ToolResource } from '../toolRegistry/toolRegistry';
import type { ToolResult, ToolStatus } from '../toolRegistry/toolResult';

/** What an agent turn tells its host: each step, the events as it runs, and what it asks the user to approve. */

export type StepKind = 'tool_call' | 'final' | 'error';

export interface Step {
  index: number;
  kind: StepKind;
  /** `name -> result` for a tool call, the answer for `final`, the reason for `error`. */
  detail: string;
  /** For tool calls: the registry name, the wire name the model used, its arguments and result. */
  tool?: {
    callId: string;
    images: ToolImage[];
    resources?: ToolResource[];
    name: string;
    wireName: string;
    server?: string;
    arguments: unknown;
    result: string;
    isError: boolean;
    status: ToolStatus;
    durationMs: number;
    appResult?: Record<string, unknown>;
  };
}

/** Events while a turn runs, for a UI that shows every call as it happens. */
export type AgentEvent =
  | { type: 'text'; delta: string }
  /**
   * A tool call's arguments as the model writes them, before the call: `call` names it within the run (the model's
   * answer and the provider's index), `text` is the JSON so far. Its `tool_start` comes when the answer is whole.
   */
  | { type: 'tool_input'; call: string; wireName: string; text: string }
  | { type: 'tool_start'; callId: string; name: string; wireName: string; server?: string; arguments: unknown }
  | { type: 'tool_progress'; callId: string; progress: number; total?: number; message?: string }
  /** The server made the call a task: what the caller may do with it while it runs. */
  | { type: 'tool_task'; callId: string; task: TaskControl }
  /** A call sent to the background as a task ended (the step for the call came when it went). */
  | { type: 'tool_task_end'; callId: string; result: ToolResult }
  | { type: 'notice'; message: string }
  /** The answer was cut at the model's output limit; the turn ends with what arrived. */
  | { type: 'cut' }
  | { type: 'step'; step: Step };

/** What the user is asked to approve: the exact tool (pinned by server identity and the server's own name). */
export interface ApprovalRequest {
  callId: string;
  name: string;
  wireName: string;
  server?: string;
  /** The server's own name for the tool. */
  remoteName?: string;
  /** The identity of the server's entry (see serverIdentity). */
  serverIdentity?: string;
  arguments: unknown;
  /** What the approval is bound to besides the tool and server (Tool.approvalScope), e.g. a skill and its digest. */
  scope?: string;
  annotations?: ToolAnnotations;
  /**
   * The servers whose results the model has read in this conversation before this call (see
   * resultSources): a read-only call runs unasked only when none of them is another server.
   */
  contextServers?: string[];
}
