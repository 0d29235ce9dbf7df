import type { AgentEvent, ApprovalRequest, Step } from '../agentTypes/events';
import { resultSources } from '../approvals/contextSources';
import {
  errorMessage,
  pinOf,
  type TaskControl,
  type Tool,
  type ToolImage,
  type ToolRegistry,
  type ToolResource,
} from '../toolRegistry/toolRegistry';
import { BudgetError } from '../budget/fit';
import { fitForModel } from './fitForModel';
import { DEFAULT_WINDOW } from '../budget/window';
import type { ChatMessage, ToolCall } from '../agentTypes/messages';
import { asResult, failed, type ToolResult, type ToolStatus } from '../toolRegistry/toolResult';
import { searchStep } from './providerSearch';
import type { AgentToolOptions } from '../agentTypes/toolOptions';
import type { ChatModel } from './model';

/** One tool call as it ran: what the model asked, what came back, and what came with it. */
interface ToolRun {
  call: ToolCall;
  callId: string;
  name: string;
  server: string | undefined;
  args: unknown;
  result: string;
  isError: boolean;
  status: ToolStatus;
  durationMs: number;
  images: ToolImage[];
  resources?: ToolResource[];
  /** The result as the server sent it, for a tool with an app. */
  appResult?: Record<string, unknown>;
}

export interface AgentOptions extends AgentToolOptions {
  system?: string;
  /**
   * The servers' instructions, asked for at each run and added to the system prompt (e.g.
   * `hub.catalog.instructions()`).
   */
  instructions?: () => string;
  /** Most model turns in one run. */
  maxSteps?: number;
  /**
   * Asked before each tool call; a denial goes back to the model as a tool error. The signal aborts
   * when the run stops or when the tool's server changes its tool list while the user decides; the
   * call then does not run. An approved call goes to the tool that was shown, or fails.
   */
  approve?: (request: ApprovalRequest, signal?: AbortSignal) => Promise<boolean>;
  /** Ends a model request that sends nothing for this long. */
  idleTimeoutMs?: number;
  /** Why a tool the model was not shown is unavailable (e.g. "switched off in this workspace"), for its refusal. */
  whyUnavailable?: (name: string) => string | undefined;
  /** The time a server has kept the user answering its requests so far (left out of a call's duration). */
  userWaitMs?: (server: string) => number;
}

export interface RunOptions {
  signal?: AbortSignal;
  onEvent?: (event: AgentEvent) => void;
  /** Earlier messages of the conversation (without the system prompt). */
  history?: readonly ChatMessage[];
}

export interface RunResult {
  steps: Step[];
  final: string;
  /** The conversation after this run, for the next one. */
  messages: ChatMessage[];
  stopped?: 'cancelled' | 'maxSteps' | 'error';
  /** The final answer was cut at the model's output limit. */
  cut?: boolean;
  /**
   * Why nothing of this run reached the model: its input alone does not fit the window. `messages`
   * is then the history as it was, without the input (a refused message must not crowd out the
   * history of the next one).
   */
  notSent?: string;
}

/** The loop: ask the model, run the tool calls it asks for (concurrently), repeat until it answers. */
export class Agent {
  constructor(
    private readonly model: ChatModel,
    private readonly registry: ToolRegistry,
    private readonly options: AgentOptions = {},
  ) {}

  /** `input`: the user's message, or messages that stand for it (a server's prompt, expanded). */
  async run(input: string | readonly ChatMessage[], options: RunOptions = {}): Promise<RunResult> {
    const { signal, onEvent } = options;
    const maxSteps = this.options.maxSteps ?? 10;
    const systemText = [this.options.system, this.options.instructions?.()].filter((t) => !!t).join('\n\n');
    const system: ChatMessage[] = systemText ? [{ role: 'system', content: systemText }] : [];
    const conversation: ChatMessage[] = [
      ...(options.history ?? []),
      ...(typeof input === 'string' ? [{ role: 'user' as const, content: input }] : input),
    ];
    const steps: Step[] = [];
    const emit = (step: Step) => {
      steps.push(step);
      onEvent?.({ type: 'step', step });
    };
    const end = (stopped: RunResult['stopped'], reason: string): RunResult => {
      emit({ index: steps.length, kind: 'error', detail: reason });
      return { steps, final: '', messages: conversation, stopped };
    };

    let lastNotice: string | undefined;
    for (let turn = 0; turn < maxSteps; turn++) {
      if (signal?.aborted) return end('cancelled', 'cancelled');
      const windowTokens = (await this.model.limits?.(signal).catch(() => undefined))?.window.tokens ?? DEFAULT_WINDOW;
      const tools =
        this.options.tools?.(conversation, windowTokens, this.model.nativeToolSearch === true) ??
        this.registry.schemas();
      let reply: Awaited<ReturnType<ChatModel['chat']>>;
      try {
        // Before every request, so a long multi-step turn stays within the model's window too.
        // Deferred tools the provider searches are not in the model's context: they do not count.
        const request = await fitForModel(
          this.model,
          [...system, ...conversation],
          tools.filter((t) => !t.deferLoading),
          signal,
        );
        if (request.notice && request.notice !== lastNotice)
          onEvent?.({ type: 'notice', message: (lastNotice = request.notice) });
        reply = await this.model.chat(request.messages, tools, {
          ...(signal ? { signal } : {}),
          onText: (delta) => onEvent?.({ type: 'text', delta }),
          onToolInput: (index, wireName, text) =>
            onEvent?.({ type: 'tool_input', call: `${turn}.${index}`, wireName, text }),
          onNotice: (message) => onEvent?.({ type: 'notice', message }),
          ...(this.options.idleTimeoutMs ? { idleTimeoutMs: this.options.idleTimeoutMs } : {}),
        });
      } catch (err) {
        if (signal?.aborted) return end('cancelled', 'cancelled');
        if (err instanceof BudgetError && turn === 0)
          return { steps, final: '', messages: [...(options.history ?? [])], stopped: 'error', notSent: err.message };
        if (err instanceof BudgetError) return end('error', `not sent: ${err.message}`);
        return end('error', `model error: ${errorMessage(err)}`);
      }
      if (reply.cut) {
        // Tool calls in a cut answer are cut too: none of them runs; the user can ask to continue.
        conversation.push({ role: 'assistant', content: reply.text });
        onEvent?.({ type: 'cut' });
        emit({ index: steps.length, kind: 'final', detail: reply.text });
        return { steps, final: reply.text, messages: conversation, cut: true };
      }
      conversation.push({
        role: 'assistant',
        content: reply.text,
        ...(reply.toolCalls.length ? { toolCalls: reply.toolCalls } : {}),
        ...(reply.searches?.length ? { searches: reply.searches } : {}),
      });
      // The provider's own searches show as search_tools cards, as ours do.
      for (const [i, s] of (reply.searches ?? []).entries()) {
        const tool = searchStep(this.registry, s, `${turn}.s${i}`);
        onEvent?.({
          type: 'tool_start',
          callId: tool.callId,
          name: tool.name,
          wireName: tool.wireName,
          arguments: tool.arguments,
        });
        emit({ index: steps.length, kind: 'tool_call', detail: `${tool.name} -> ${tool.result}`, tool });
      }
      if (!reply.toolCalls.length) {
        emit({ index: steps.length, kind: 'final', detail: reply.text });
        return { steps, final: reply.text, messages: conversation };
      }
      // The agent's own call ids ("turn.index") are unique within a run, whatever the provider sent.
      const offered = new Set(tools.map((t) => t.name));
      const sources = resultSources(conversation, this.registry);
      const before = [...conversation];
      const results = await Promise.all(
        reply.toolCalls.map((call, i) => this.runTool(call, `${turn}.${i}`, offered, sources, before, signal, onEvent)),
      );
      for (const r of results) {
        conversation.push({
          role: 'tool',
          toolCallId: r.call.id,
          name: r.call.name,
          content: r.result,
          ...(r.isError ? { isError: true } : {}),
          ...(r.images.length ? { images: r.images } : {}),
        });
        emit({
          index: steps.length,
          kind: 'tool_call',
          detail: `${r.name} -> ${r.result}`,
          tool: {
            callId: r.callId,
            images: r.images,
            ...(r.resources?.length ? { resources: r.resources } : {}),
            name: r.name,
            wireName: r.call.name,
            ...(r.server ? { server: r.server } : {}),
            arguments: r.args,
            result: r.result,
            isError: r.isError,
            status: r.status,
            durationMs: r.durationMs,
            ...(r.appResult ? { appResult: r.appResult } : {}),
          },
        });
      }
      if (signal?.aborted) return end('cancelled', 'cancelled');
    }
    return end('maxSteps', `stopped after ${maxSteps} model turns without a final answer (maxSteps)`);
  }

  /** Asks for approval; undefined when allowed, else the error result for the model. */
  private async askApproval(
    request: ApprovalRequest,
    signal: AbortSignal | undefined,
  ): Promise<ToolResult | undefined> {
    const waiting = new AbortController();
    let listChanged = false;
    const onAbort = () => waiting.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    const watch = this.registry.onDidChangeServerTools((servers) => {
      if (request.server === undefined || !servers.has(request.server)) return;
      listChanged = true;
      waiting.abort();
    });
    try {
      if (signal?.aborted) return failed('cancelled', 'cancelled');
      const allowed = await this.options.approve!(request, waiting.signal).catch(() => false);
      if (listChanged) {
        return failed(
          `server "${request.server}" changed its tool list while the call to "${request.name}" waited for approval; the approval was cancelled and nothing was run`,
        );
      }
      if (signal?.aborted) return failed('cancelled', 'cancelled');
      return allowed === true ? undefined : failed(`the user denied the call to "${request.name}"`, 'denied');
    } finally {
      watch.dispose();
      signal?.removeEventListener('abort', onAbort);
    }
  }

  private async runTool(
    call: ToolCall,
    callId: string,
    offered: ReadonlySet<string>,
    contextServers: string[],
    history: readonly ChatMessage[],
    signal: AbortSignal | undefined,
    onEvent: RunOptions['onEvent'],
  ): Promise<ToolRun> {
    const name = this.registry.resolve(call.name) ?? call.name;
    const tool = this.registry.get(name);
    let server = tool?.server;
    const started = Date.now();
    let args: unknown = call.arguments;
    /** The run of this call, from how it ended. */
    const ran = (outcome: ToolResult, extra: Partial<ToolRun> & Pick<ToolRun, 'durationMs' | 'images'>): ToolRun => ({
      call,
      callId,
      name,
      server,
      args,
      result: outcome.text,
      isError: outcome.status !== 'ok',
      status: outcome.status,
      ...extra,
    });
    /** The card's start: this tool, on its server as known so far, with the arguments as shown. */
    const announce = (shown: unknown) =>
      onEvent?.({
        type: 'tool_start',
        callId,
        name,
        wireName: call.name,
        ...(server ? { server } : {}),
        arguments: shown,
      });
    if (typeof args === 'string') {
      try {
        args = args.trim() === '' ? {} : JSON.parse(args);
      } catch (err) {
        announce(call.arguments);
        return ran(
          failed(`the arguments for tool "${call.name}" are not valid JSON (${errorMessage(err)}); send a JSON object`),
          { durationMs: 0, images: [] },
        );
      }
    }
    const builtin = offered.has(call.name) ? this.options.builtin?.(call.name) : undefined;
    if (builtin) {
      // MinAgent's own (search_tools): no server, no approval; the user still sees its card.
      onEvent?.({ type: 'tool_start', callId, name: call.name, wireName: call.name, arguments: args });
      const outcome = await Promise.resolve()
        .then(() => builtin(args, history))
        .then(asResult, (err: unknown) => failed(`${call.name} failed: ${errorMessage(err)}`));
      return ran(outcome, { name: call.name, server: undefined, durationMs: Date.now() - started, images: [] });
    }
    // A tool that routes by its arguments (read_resource) is shown, approved and remembered per target server.
    if (!server && tool?.targetServer && args && typeof args === 'object' && !Array.isArray(args))
      server = tool.targetServer(args as Record<string, unknown>);
    announce(args);
    const wire = this.registry.wireName(name);
    if (tool && wire !== undefined && !offered.has(wire) && !this.options.isCallable?.(wire)) {
      // The model may call only what it was shown: a tool switched off (or left out) is refused here.
      return ran(
        failed(
          `tool "${name}" is not available: ${this.options.whyUnavailable?.(name) ?? 'it was not among the tools offered to the model'}`,
        ),
        { server, durationMs: 0, images: [] },
      );
    }
    const images: ToolImage[] = [];
    const resources: ToolResource[] = [];
    let appResult: Record<string, unknown> | undefined;
    const callOptions = {
      ...(signal ? { signal } : {}),
      onImage: (image: ToolImage) => images.push(image),
      onResource: (resource: ToolResource) => resources.push(resource),
      onProgress: (p: { progress: number; total?: number; message?: string }) =>
        onEvent?.({ type: 'tool_progress', callId, ...p }),
      onTask: (task: TaskControl) => onEvent?.({ type: 'tool_task', callId, task }),
      onTaskEnd: (result: ToolResult) => onEvent?.({ type: 'tool_task_end', callId, result }),
      // A tool with an app: its app gets the result as the server sent it.
      ...(tool?.app ? { onResult: (r: Record<string, unknown>) => void (appResult = r) } : {}),
    };
    if (!tool) {
      const why = this.options.unknownTool?.(call.name, history);
      const outcome = why !== undefined ? failed(why) : await this.registry.result(call.name, args, callOptions);
      return ran(outcome, { server, durationMs: Date.now() - started, images, resources });
    }
    const pin = pinOf(tool);
    if (this.options.approve) {
      const request = {
        ...pin,
        ...(server !== undefined && pin.server === undefined ? { server } : {}),
        callId,
        wireName: call.name,
        arguments: args,
        ...(tool.annotations ? { annotations: tool.annotations } : {}),
        ...scopeOf(tool, args),
        contextServers,
      };
      const denied = await this.askApproval(request, signal);
      if (denied !== undefined) return ran(denied, { server, durationMs: 0, images: [], resources: [] });
    }
    // The call's own time: what the user spent deciding (the approval, a form the server asked for meanwhile) is not
    // the tool's.
    const userWait = () => (server !== undefined ? (this.options.userWaitMs?.(server) ?? 0) : 0);
    const calling = Date.now();
    const waitedBefore = userWait();
    const outcome = await this.registry.resultPinned(pin, args, callOptions);
    const durationMs = Math.max(0, Date.now() - calling - (userWait() - waitedBefore));
    return ran(outcome, { server, durationMs, images, resources, ...(appResult ? { appResult } : {}) });
  }
}

/** What the call's approval is bound to besides its tool and server (Tool.approvalScope), when the tool says. */
function scopeOf(tool: Tool, args: unknown): { scope?: string } {
  if (!tool.approvalScope || !args || typeof args !== 'object' || Array.isArray(args)) return {};
  const scope = tool.approvalScope(args as Record<string, unknown>);
  return scope !== undefined ? { scope } : {};
}
