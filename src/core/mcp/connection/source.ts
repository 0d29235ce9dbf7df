import {
  ProtocolError,
  SdkError,
  SdkErrorCode,
  type CallToolResult,
  type Client,
  type Tool as RemoteTool,
} from '@modelcontextprotocol/client';
import { SandboxUnavailable } from '../sandbox/spawn';
import { isSignInNeeded } from '../../auth/signInErrors';
import { Emitter } from '../../base/event';
import { silentLogger, type Logger } from '../../base/logger';
import { redactingLogger, type Redactor } from '../../base/redact';
import { errorMessage, type Tool, type ToolCallOptions } from '../../toolRegistry/toolRegistry';
import { failed, type ToolResult } from '../../toolRegistry/toolResult';
import { DEFAULT_HUB_SETTINGS } from '../config/hubSettings';
import { serverRedactor } from '../config/serverRedactor';
import type { ServerConfig } from '../config/serverConfig';
import { ServerFeatures } from '../features/features';
import { ListFreshness } from '../features/freshness';
import { iconContext } from '../features/icons';
import { loggedCall } from '../tools/callLog';
import {
  registerTools,
  toRegistryTool,
  type RegisterOptions,
  type ToolRoute,
  type ToolSink,
} from '../tools/toolAdapter';
import { presentResult, sendToolCall } from '../tools/toolCall';
import { listCheckedTools, type ToolProblem } from '../tools/toolList';
import { withValidParamHeaders } from '../tools/paramHeaders';
import { mismatchNote } from '../tools/outputCheck';
import { resumeTask, runTask, type TaskSession } from '../tasks/taskCall';
import { taskHandleOf } from '../tasks/taskHandle';
import { ProcessTransport } from '../transport/processTransport';
import { SpawnError } from '../transport/spawnError';
import { ConnectTimeout } from './connectLimit';
import { Connector } from './connector';
import { describeFailure, NOT_CONNECTED, type FailurePhase } from './crashDiagnosis';
import type { CloseReason, SourceOptions } from './sourceOptions';
import type { ServerState } from './state';
import { StderrTail } from './stderrTail';

export type { RemoteTool };
export type { CloseReason, RegisterOptions, SourceOptions, ToolRoute, ToolSink };

/**
 * One MCP server's whole session: connected once per lifetime, its state, its tools and features,
 * its calls, its close. `McpToolSource` is the seed's name for it (the adapter whose tools become
 * registry tools), kept as the public face. Calls always resolve to a string; every failure becomes
 * `{"error": ...}`. Opening the connection is the connector's job (transports, SSE fallback, era
 * handshake, sign-in retries), saying why it failed crashDiagnosis', the tools' lists, adapters and
 * calls are in tools/.
 */
export class McpToolSource {
  private readonly connector: Connector;
  private connecting: Promise<void> | undefined;
  private closing: Promise<void> | undefined;
  /** Why its owner closed it: what a call that was running then says. */
  private closedAs: CloseReason = 'stopped';
  /** Why the running session ended, while that is being worked out (exit status, stderr). */
  private ending: Promise<string> | undefined;
  private remoteTools: RemoteTool[] = [];
  /** When the tool list goes stale, if the server gave it a TTL. */
  private readonly freshness = new ListFreshness<'tools'>();
  private refreshingStale: Promise<void> | undefined;
  /** Malformed tools the server listed (skipped or given an empty schema). */
  problems: ToolProblem[] = [];
  private currentState: ServerState = { kind: 'stopped' };
  private readonly stderr = new StderrTail();
  private readonly log: Logger;
  /**
   * This server's secrets; applied to every message it sends (see redactedTransport), and to its failures, logs, state
   * and stderr.
   */
  readonly redactor: Redactor;
  private readonly onDidChangeStateEmitter = new Emitter<ServerState>();
  private readonly onDidChangeToolsEmitter = new Emitter<readonly RemoteTool[]>();
  /** Fires on every state change. */
  readonly onDidChangeState = this.onDidChangeStateEmitter.event;
  /** Fires when the server's tool list changed (`notifications/tools/list_changed`). */
  readonly onDidChangeTools = this.onDidChangeToolsEmitter.event;
  /** Resources, templates, prompts, completions, subscriptions, instructions and icons. */
  readonly features: ServerFeatures;

  constructor(
    readonly config: ServerConfig,
    private readonly options: SourceOptions = {},
  ) {
    this.redactor = serverRedactor(config);
    this.log = redactingLogger(options.logger ?? silentLogger, this.redactor);
    // The trace keeps message text: the same secrets are redacted in it as everywhere else.
    options.trace?.setRedactor((text) => this.redactor.redact(text));
    options.auth?.onSecret((value) => this.redactor.addSecret(value));
    this.features = new ServerFeatures(config.name, iconContext(config.name, config), {
      client: () => this.connector.client,
      timeoutMs: () => this.callTimeoutMs,
      describe: (err) => (err === undefined ? Promise.resolve(this.ending ?? NOT_CONNECTED) : this.requestFailure(err)),
      log: this.log,
      redact: (text) => this.redactor.redact(text),
    });
    const { log, stderr, redactor, features } = this;
    this.connector = new Connector({
      config,
      options,
      log,
      redactor,
      stderr,
      features,
      closing: () => !!this.closing,
      toolsChanged: () => void this.refreshTools(),
      closed: () => this.handleClosed(),
      slowStart: (slow) => {
        if (this.currentState.kind === 'starting' && !this.closing) this.setState({ kind: 'starting', slow });
      },
    });
  }

  get name(): string {
    return this.config.name;
  }

  get state(): ServerState {
    return this.currentState;
  }

  get stderrTail(): string {
    return this.redactor.redact(this.stderr.text());
  }

  get pid(): number | undefined {
    return this.connector.pid;
  }

  /** A request's bound: the entry's own `timeout`, else the hub setting, else its default. */
  private get callTimeoutMs(): number {
    return this.config.timeoutMs ?? this.options.callTimeoutMs ?? DEFAULT_HUB_SETTINGS.callTimeoutMs;
  }

  private get connectTimeoutMs(): number {
    return this.options.connectTimeoutMs ?? DEFAULT_HUB_SETTINGS.connectTimeoutMs;
  }

  /** Starts the server and initializes the session, once; rejects with a message that says why it failed. */
  connect(): Promise<void> {
    if (this.closing) return Promise.reject(new ClosedWhileStarting(this.name));
    this.connecting ??= this.doConnect();
    return this.connecting;
  }

  private async doConnect(): Promise<void> {
    this.setState({ kind: 'starting' });
    const timeoutMs = this.connectTimeoutMs;
    try {
      await this.connector.open(timeoutMs);
      // A server may let the handshake through and ask for a sign-in at its first request.
      const [tools] = await this.connector.afterSignIn(() =>
        Promise.all([this.fetchTools(), this.connector.client && this.features.load(this.connector.client, timeoutMs)]),
      );
      this.remoteTools = tools;
      if (this.closing) throw new ClosedWhileStarting(this.name);
      const protocolVersion = this.connector.client?.getNegotiatedProtocolVersion();
      this.setState({
        kind: 'running',
        startedAt: Date.now(),
        toolCount: this.remoteTools.length,
        ...(this.pid ? { pid: this.pid } : {}),
        ...(protocolVersion ? { protocolVersion } : {}),
      });
      const transport = this.connector.transport;
      const since = transport instanceof ProcessTransport ? transport.runningSince : undefined;
      const took =
        since === undefined ? '' : ` ${((Date.now() - since) / 1000).toFixed(1)} s after its process started`;
      this.log.info(`connected${took} (protocol ${protocolVersion ?? 'unknown'}): ${this.remoteTools.length} tools`);
    } catch (err) {
      // Closed by its owner while starting: not a failure of the server, whatever the process said.
      if (this.closing) {
        await this.connector.dispose();
        throw new ClosedWhileStarting(this.name);
      }
      const fallback = this.connector.probeFallback;
      const failed = await this.failureMessage(err, 'start');
      // The probe got a bad answer and the 2025 handshake failed too: both are the story (a server silent to both:
      // one).
      const both =
        fallback && !fallback.ordinary && !isSignInNeeded(err) && !(fallback.silence && err instanceof ConnectTimeout);
      const message = both ? `server/discover ${fallback.got}; initialize: ${failed}` : failed;
      await this.connector.dispose();
      if (!this.closing)
        this.setState(
          isSignInNeeded(err) && message.startsWith('sign in needed')
            ? { kind: 'signIn', message }
            : {
                kind: 'error',
                message,
                stderrTail: this.stderr.text(),
                ...(err instanceof SpawnError ? { cannotStart: true as const } : {}),
                ...(err instanceof SandboxUnavailable ? { noSandbox: err.why } : {}),
              },
        );
      throw new Error(this.redactor.redact(`server "${this.name}": ${message}`));
    }
  }

  private async fetchTools(): Promise<RemoteTool[]> {
    const client = this.connector.client;
    if (!client?.getServerCapabilities()?.tools) return [];
    const { tools, problems, ttlMs } = await listCheckedTools(
      client,
      this.name,
      iconContext(this.name, this.config),
      this.connectTimeoutMs,
    );
    this.freshness.fetched('tools', ttlMs);
    // A 2026-07-28 connection over HTTP mirrors declared parameters into headers: a tool whose declarations are
    // invalid cannot be called rightly there and MUST be left out (said, never silent).
    const modernHttp = this.config.type === 'http' && client.getProtocolEra() === 'modern';
    const { kept, left } = modernHttp ? withValidParamHeaders(tools) : { kept: tools, left: [] };
    for (const { tool, why } of left)
      problems.push({
        server: this.name,
        tool,
        message: `server "${this.name}": tool "${tool}" left out: its x-mcp-header declarations are invalid (${why})`,
      });
    this.problems = problems;
    for (const p of problems) this.log.warn(p.message);
    return kept;
  }

  private async refreshTools(): Promise<void> {
    if (this.currentState.kind !== 'running') return;
    try {
      const tools = await this.fetchTools();
      if (this.currentState.kind !== 'running') return;
      // Listed again because the list went stale, and the same: nothing changed.
      if (JSON.stringify(tools) === JSON.stringify(this.remoteTools)) {
        this.log.trace(`tool list listed again: unchanged, ${tools.length} tools`);
        return;
      }
      this.remoteTools = tools;
      this.setState({ ...this.currentState, toolCount: tools.length });
      this.log.info(`tool list changed: ${tools.length} tools`);
      this.onDidChangeToolsEmitter.fire(tools);
    } catch (err) {
      this.log.warn(`refreshing tools failed: ${errorMessage(err)}`);
    }
  }

  /**
   * Lists again what went stale (a list's `ttlMs` ran out) while the server runs: its tools, resources and prompts. A
   * list the server says it tells changes of (`listChanged`) is left to its word. Never rejects; a failure keeps the
   * list held and is logged. Several callers at once share one round.
   */
  refreshStale(): Promise<void> {
    if (this.currentState.kind !== 'running') return Promise.resolve();
    const tellsChanges = !!this.connector.client?.getServerCapabilities()?.tools?.listChanged;
    this.refreshingStale ??= Promise.all([
      !tellsChanges && this.freshness.stale('tools') ? this.refreshTools() : undefined,
      this.features.refreshStale(),
    ])
      .then(
        () => undefined,
        (err: unknown) => this.log.warn(`listing again failed: ${errorMessage(err)}`),
      )
      .finally(() => (this.refreshingStale = undefined));
    return this.refreshingStale;
  }

  /** The seed's `list_tools()`: the tools after connecting. */
  async listTools(): Promise<readonly RemoteTool[]> {
    await this.connect();
    return this.remoteTools;
  }

  /** Adapts one remote tool to a registry tool named `name` whose calls go to `route` (default: this source). */
  toTool(
    remote: RemoteTool,
    name = remote.name,
    route: ToolRoute = (remoteName, args, options) => this.result(remoteName, args, options),
  ): Tool {
    return toRegistryTool(remote, this.name, name, route, this.config.tools);
  }

  /**
   * The seed's `register(registry, { namespace })`: lists the tools (connecting first), adds each one,
   * prefixed when a namespace is given, and returns the names it added. An owner that outlives this
   * source (the hub, across restarts) passes a `route` for the calls.
   */
  async register(registry: ToolSink, options?: RegisterOptions): Promise<string[]> {
    const tools = await this.listTools();
    return registerTools(registry, tools, options, (remote, name, route) => this.toTool(remote, name, route));
  }

  /**
   * Calls a tool by the server's own name: the text (see `result`). With this server's secrets
   * redacted (the result arrived redacted, failures are described redacted); never rejects.
   */
  async call(remoteName: string, args: Record<string, unknown>, options: ToolCallOptions = {}): Promise<string> {
    return (await this.result(remoteName, args, options)).text;
  }

  /** A call's text and how it ended; never rejects. */
  async result(remoteName: string, args: Record<string, unknown>, options: ToolCallOptions = {}): Promise<ToolResult> {
    // Logged through this server's redacting logger, like every other line.
    return loggedCall(this.log, remoteName, args, () => this.callRaw(remoteName, args, options));
  }

  /**
   * What the SDK mirrors a call's `Mcp-Param-*` headers from (SEP-2243): the tool's input schema as listed, so the
   * headers go with the first call (the SDK's own list cache is not filled: tools are listed tolerantly here). Its
   * output schema stays out: a result is checked against it where it is presented.
   */
  private headerDefinition(remoteName: string): RemoteTool | undefined {
    const tool = this.remoteTools.find((t) => t.name === remoteName);
    return tool ? { name: tool.name, inputSchema: tool.inputSchema } : undefined;
  }

  private async callRaw(
    remoteName: string,
    args: Record<string, unknown>,
    options: ToolCallOptions,
  ): Promise<ToolResult> {
    const client = this.connector.client;
    if (!client && this.ending) return failed(`${NOT_CONNECTED}: ${await this.ending}`);
    if (!client || this.currentState.kind !== 'running') return failed(this.notRunning());
    if (options.signal?.aborted) return failed('cancelled', 'cancelled');
    try {
      const result = await this.connector.afterSignIn(() =>
        sendToolCall(client, remoteName, args, options, this.callTimeoutMs, this.headerDefinition(remoteName)),
      );
      // The server made the call a task (the Tasks extension): followed to its end, its outcome is the call's.
      const handle = taskHandleOf(result);
      if (handle) return await runTask(this.taskSession(client), remoteName, handle, options);
      return await this.present(remoteName, result, options);
    } catch (err) {
      if (options.signal?.aborted) return failed('cancelled', 'cancelled');
      // Its owner ended the session (a restart, a stop): the call was cancelled, the server did not fail.
      if (this.closing) return failed(`cancelled: the server was ${this.closedAs}`, 'cancelled');
      return failed(await this.requestFailure(err), isTimeout(err) ? 'timeout' : 'error');
    }
  }

  /** A result as the registry returns it: presented, and checked against the tool's outputSchema. */
  private async present(remoteName: string, result: CallToolResult, options: ToolCallOptions): Promise<ToolResult> {
    const presented = presentResult(
      result,
      options,
      this.options.maxOutputChars ?? DEFAULT_HUB_SETTINGS.maxOutputChars,
      this.name,
    );
    const mismatch = result.isError ? undefined : await this.outputMismatch(remoteName, result.structuredContent);
    return mismatch ? { ...presented, text: `${presented.text}\n${mismatch}` } : presented;
  }

  /** What a call that became a task needs of this session (taskCall.ts). */
  private taskSession(client: Client): TaskSession {
    const host = this.options.clientRequests;
    return {
      server: this.name,
      client,
      timeoutMs: this.callTimeoutMs,
      ...(host?.answerInput ? { answerInput: host.answerInput.bind(host) } : {}),
      log: this.log,
      present: (remoteName, result, options) => this.present(remoteName, result, options),
    };
  }

  /**
   * Follows again, by its id, a task that ran in the background (the window reloaded meanwhile): to its end, as any
   * task; never rejects.
   */
  async resumeTask(remoteName: string, taskId: string, options: ToolCallOptions = {}): Promise<ToolResult> {
    const client = this.connector.client;
    if (!client || this.currentState.kind !== 'running') return failed(this.notRunning());
    return resumeTask(this.taskSession(client), remoteName, taskId, options);
  }

  /**
   * A result that does not match its tool's `outputSchema` is reported: the server's log says so, and the model (and
   * the card, which shows what the model read) reads it after the result, which it still gets whole.
   */
  private async outputMismatch(remoteName: string, structured: unknown): Promise<string | undefined> {
    const schema = this.remoteTools.find((t) => t.name === remoteName)?.outputSchema;
    if (!schema || !this.options.outputs) return undefined;
    const verdict = await this.options.outputs.check(schema, structured);
    if ('unchecked' in verdict) {
      this.log.warn(`tool "${remoteName}": its result was not checked against its outputSchema: ${verdict.unchecked}`);
      return undefined;
    }
    if (verdict.matches) return undefined;
    this.log.warn(`tool "${remoteName}": its result does not match its outputSchema: ${verdict.why}`);
    return mismatchNote(verdict.why);
  }

  /**
   * Why a call found no session: the model reads what became of the server (its crash, or that it
   * is still starting); after close() it is the seed's "mcp server not connected".
   */
  private notRunning(): string {
    const state = this.currentState;
    if (state.kind === 'error' || state.kind === 'signIn') return `${NOT_CONNECTED}: ${state.message}`;
    // Closed by its owner: the seed's own words for a call after close().
    if (this.closing) return NOT_CONNECTED;
    if (state.kind === 'starting') return `${NOT_CONNECTED}: "${this.name}" is still starting; try again shortly`;
    return NOT_CONNECTED;
  }

  /**
   * Why a request to the server failed: a timeout, the server's own message, or what became of the server; redacted.
   */
  private async requestFailure(err: unknown): Promise<string> {
    if (isTimeout(err))
      return `timeout after ${(err.data as { timeout?: number } | undefined)?.timeout ?? this.callTimeoutMs} ms`;
    // The server's own message arrived redacted (redactedTransport).
    if (err instanceof ProtocolError) return err.message.replace(/^MCP error -?\d+: /, '');
    return this.failureMessage(err, 'call');
  }

  /**
   * Ends the session and the server's whole process tree. Safe to call more than once. `reason` is
   * what calls still running then resolve to: "cancelled: the server was restarted" (or stopped).
   */
  close(reason: CloseReason = 'stopped'): Promise<void> {
    if (!this.closing) this.closedAs = reason;
    this.closing ??= (async () => {
      await this.connector.dispose();
      this.setState({ kind: 'stopped' });
      this.onDidChangeStateEmitter.dispose();
      this.onDidChangeToolsEmitter.dispose();
      this.features.dispose();
    })();
    return this.closing;
  }

  /** The connection ended without us closing it: the server crashed or the network dropped. */
  private handleClosed(): void {
    if (this.closing || this.currentState.kind !== 'running') return;
    this.connector.client = undefined;
    this.ending = this.failureMessage(new Error('connection closed'), 'run');
    void this.ending.then((message) => {
      this.ending = undefined;
      if (this.closing) return;
      this.log.error(message);
      this.setState({ kind: 'error', message, stderrTail: this.stderr.text() });
    });
  }

  /**
   * Says why a start, call or session failed (see crashDiagnosis); redacted, since it may quote the
   * server (its stderr, an HTTP error body) where no message of its passed redactedTransport.
   */
  private async failureMessage(err: unknown, phase: FailurePhase): Promise<string> {
    const text = await describeFailure(err, phase, {
      config: this.config,
      transport: this.connector.transport,
      stderr: () => this.stderr.text(),
      hasAuth: !!this.options.auth,
      sandboxed: !!this.options.sandbox,
    });
    return this.redactor.redact(text);
  }

  private setState(state: ServerState): void {
    if (state.kind === 'error')
      state = {
        ...state,
        message: this.redactor.redact(state.message),
        stderrTail: this.redactor.redact(state.stderrTail),
      };
    else if (state.kind === 'signIn') state = { ...state, message: this.redactor.redact(state.message) };
    this.currentState = state;
    this.onDidChangeStateEmitter.fire(state);
  }
}

/** connect() of a source that was closed before or while it started; its owner asked for that. */
export class ClosedWhileStarting extends Error {
  constructor(server: string) {
    super(`server "${server}" was closed while starting`);
  }
}

/** The SDK's timeout for a request (the call's own time ran out). */
function isTimeout(err: unknown): err is SdkError {
  return err instanceof SdkError && err.code === SdkErrorCode.RequestTimeout;
}
