import {
  Client,
  ProtocolError,
  SdkError,
  SdkErrorCode,
  SSEClientTransport,
  StreamableHTTPClientTransport,
  type Tool as RemoteTool,
  type Transport,
} from '@modelcontextprotocol/client';
import { isSignInNeeded, SignInNeeded } from '../../auth/signInErrors';
import type { ServerAuth } from '../../auth/provider';
import { Emitter } from '../../event';
import { silentLogger, type Logger } from '../../logger';
import { errorMessage, toolError, type JsonSchema, type Tool, type ToolCallOptions, type ToolRegistry } from '../../tools';
import { redactingLogger, type Redactor } from '../../redact';
import { DEFAULT_HUB_SETTINGS, type ServerPriority } from '../config/hubSettings';
import { describeEndpoint } from '../config/describe';
import { serverRedactor } from '../config/serverRedactor';
import type { ServerConfig } from '../config/serverConfig';
import { ConnectTimeout, connectLimit } from './connectLimit';
import { serverEnvironment } from '../config/env';
import { EraMemory, processEraMemory } from './eraMemory';
import { serverIdentity } from '../config/identity';
import { BadProbeAnswer, connectInEra, eraNegotiation, eraRefusal, probeBound, type ProbeFallback } from './era';
import { ServerFeatures } from '../features/features';
import { checkIcons, iconContext, type SafeIcon } from '../features/icons';
import type { ListProblem } from '../features/paging';
import { formatCallResult, reportResource } from '../tools/result';
import { tracedTransport, type McpTrace } from '../trace/trace';
import { redactedTransport } from './redactedTransport';
import type { ServerState } from './state';
import { StderrTail } from './stderrTail';
import { isErrorLine, stderrGist } from './errorLine';
import { progressText } from '../tools/progressText';
import { loggedCall } from '../tools/callLog';
import { listAllTools, type ToolProblem } from '../tools/toolList';
import { cappedFetch } from '../../net/limits';
import type { Disposable } from '../../event';
import type { ClientRequestsHost } from '../clientRequests/clientRequests';
import { DEFAULT_CLOSE_TIMINGS, PROCESS_NOT_RUNNING, ProcessTransport, SpawnError, type CloseTimings } from '../transport/processTransport';

export type { RemoteTool };

/** Why a source's owner closed it. */
export type CloseReason = 'restarted' | 'stopped';

export interface SourceOptions {
  logger?: Logger;
  connectTimeoutMs?: number;
  /** How long the era probe waits before the 2025 handshake is tried (default: the hub setting's default; at most half the connect limit). */
  probeTimeoutMs?: number;
  callTimeoutMs?: number;
  maxOutputChars?: number;
  closeTimings?: CloseTimings;
  /** Largest single stdio message kept (default 64 MB); larger ones are dropped and their call fails. */
  maxMessageBytes?: number;
  /** Caps on HTTP replies: a whole JSON reply, one SSE event (defaults in DEFAULT_LIMITS). */
  httpLimits?: { bodyBytes?: number; eventBytes?: number };
  /** Records this server's JSON-RPC traffic while enabled; kept across restarts by the owner. */
  trace?: McpTrace;
  /** OAuth for an HTTP server (see src/core/auth); absent: only the entry's static headers. */
  auth?: ServerAuth;
  /** Answers the server's requests to the client (elicitation, sampling, roots). */
  clientRequests?: ClientRequestsHost;
  /** The era each server spoke before (default: this process's memory). */
  eras?: EraMemory;
  /** `low`: a stdio server runs below the editor (see transport/priority.ts); default `normal`. */
  serverPriority?: ServerPriority;
}

const NOT_CONNECTED = 'mcp server not connected';
const CLIENT_INFO = { name: 'minagent', version: '0.1.0' };

/** Where a registered tool's calls go, by the server's own tool name. */
export type ToolRoute = (remoteName: string, args: Record<string, unknown>, options?: ToolCallOptions) => Promise<string>;

/** What `register` adds tools to: a registry, or an owner that collects them. */
export type ToolSink = Pick<ToolRegistry, 'add'>;

export interface RegisterOptions {
  /** Registered as `namespace.name`. */
  namespace?: string;
  /** Where calls go; default: this source. */
  route?: ToolRoute;
}

/**
 * The adapter: one MCP server, connected once per lifetime. Its tools become registry tools whose
 * calls always resolve to a string; every failure becomes `{"error": ...}`.
 */
export class McpToolSource {
  private client: Client | undefined;
  private transport: Transport | undefined;
  private clientHandlers: Disposable | undefined;
  private connecting: Promise<void> | undefined;
  private closing: Promise<void> | undefined;
  /** Why its owner closed it: what a call that was running then says. */
  private closedAs: CloseReason = 'stopped';
  /** Why the running session ended, while that is being worked out (exit status, stderr). */
  private ending: Promise<string> | undefined;
  private remoteTools: RemoteTool[] = [];
  /** What the era probe got when it led to the 2025 handshake: a failed handshake names both. */
  private probeFallback: ProbeFallback | undefined;
  /** Malformed tools the server listed (skipped or given an empty schema). */
  problems: ToolProblem[] = [];
  private currentState: ServerState = { kind: 'stopped' };
  private readonly stderr = new StderrTail();
  private readonly log: Logger;
  /** This server's secrets; applied to every message it sends (see redactedTransport), and to its failures, logs, state and stderr. */
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
      client: () => this.client,
      timeoutMs: () => this.config.timeoutMs ?? this.options.callTimeoutMs ?? 60_000,
      describe: (err) => (err === undefined ? Promise.resolve(this.ending ?? NOT_CONNECTED) : this.requestFailure(err)),
      log: this.log,
      redact: (text) => this.redactor.redact(text),
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
    return this.transport instanceof ProcessTransport ? this.transport.pid : undefined;
  }

  /** Starts the server and initializes the session, once; rejects with a message that says why it failed. */
  connect(): Promise<void> {
    if (this.closing) return Promise.reject(new ClosedWhileStarting(this.name));
    this.connecting ??= this.doConnect();
    return this.connecting;
  }

  private async doConnect(): Promise<void> {
    this.setState({ kind: 'starting' });
    const timeoutMs = this.options.connectTimeoutMs ?? 30_000;
    try {
      try {
        await this.afterSignIn(() => this.connectNegotiated(this.config.type === 'sse' ? 'sse' : 'primary', timeoutMs));
      } catch (err) {
        // The spec's backwards compatibility: an old server answers the POST with 400, 404 or 405.
        if (this.config.type !== 'http' || this.closing || ![400, 404, 405].includes(httpStatus(err) ?? 0)) throw err;
        // A server that refuses only the era we offered speaks Streamable HTTP: no SSE for it.
        const refusal = eraRefusal(err);
        if (refusal) throw new Error(refusal);
        this.log.info(`Streamable HTTP failed (${errorMessage(err)}); trying the older SSE transport`);
        try {
          await this.connectWith(this.createTransport('sse'), timeoutMs);
        } catch {
          throw err;
        }
      }
      // A server may let the handshake through and ask for a sign-in at its first request.
      const [tools] = await this.afterSignIn(() => Promise.all([this.fetchTools(), this.client && this.features.load(this.client, timeoutMs)]));
      this.remoteTools = tools;
      if (this.closing) throw new ClosedWhileStarting(this.name);
      const protocolVersion = this.client?.getNegotiatedProtocolVersion();
      this.setState({ kind: 'running', startedAt: Date.now(), toolCount: this.remoteTools.length, ...(this.pid ? { pid: this.pid } : {}), ...(protocolVersion ? { protocolVersion } : {}) });
      const since = this.transport instanceof ProcessTransport ? this.transport.runningSince : undefined;
      const took = since === undefined ? '' : ` ${((Date.now() - since) / 1000).toFixed(1)} s after its process started`;
      this.log.info(`connected${took} (protocol ${protocolVersion ?? 'unknown'}): ${this.remoteTools.length} tools`);
    } catch (err) {
      // Closed by its owner while starting: not a failure of the server, whatever the process said.
      if (this.closing) {
        await this.disposeConnection();
        throw new ClosedWhileStarting(this.name);
      }
      const fallback = this.probeFallback;
      const failed = await this.failureMessage(err, 'start');
      // The probe got a bad answer and the 2025 handshake failed too: both are the story.
      const message = fallback && !fallback.ordinary && !isSignInNeeded(err) ? `server/discover ${fallback.got}; initialize: ${failed}` : failed;
      await this.disposeConnection();
      if (!this.closing) this.setState(isSignInNeeded(err) && message.startsWith('sign in needed') ? { kind: 'signIn', message } : { kind: 'error', message, stderrTail: this.stderr.text() });
      throw new Error(this.redactor.redact(`server "${this.name}": ${message}`));
    }
  }

  /**
   * Connects in the era the server speaks. A probe answered badly where the SDK gives up (HTTP 5xx,
   * an HTML page, a dropped connection, no answer in time) gets the 2025 handshake once, on a new
   * transport, within what is left of the connect limit; a server never reached is not tried again.
   */
  private async connectNegotiated(kind: 'primary' | 'sse', timeoutMs: number): Promise<void> {
    const started = Date.now();
    try {
      await this.connectWith(this.createTransport(kind), timeoutMs);
    } catch (err) {
      if (!(err instanceof BadProbeAnswer) || this.closing) throw err;
      this.noteFallback(err.fallback);
      // A stdio server that ended on the probe starts again: the new process's stderr is what explains it (the log keeps both).
      this.stderr.clear();
      await this.connectWith(this.createTransport(kind), Math.max(1, timeoutMs - (Date.now() - started)), true);
    }
  }

  /** The one log line of a probe that led to the 2025 handshake. */
  private noteFallback(fallback: ProbeFallback): void {
    this.probeFallback = fallback;
    this.log.info(`server/discover ${fallback.got}; trying the 2025 handshake (initialize)`);
  }

  private async connectWith(transport: Transport, timeoutMs: number, legacy = false): Promise<void> {
    const probeTimeoutMs = probeBound(this.options.probeTimeoutMs ?? DEFAULT_HUB_SETTINGS.probeTimeoutMs, timeoutMs);
    const client = new Client(
      CLIENT_INFO,
      {
        versionNegotiation: eraNegotiation(probeTimeoutMs),
        listChanged: {
          tools: {
            // Debounced, so a storm of notifications becomes one refresh; we list tolerantly ourselves.
            debounceMs: 300,
            autoRefresh: false,
            onChanged: () => void this.refreshTools(),
          },
          ...this.features.listChangedOptions(),
        },
      },
    );
    this.client = client;
    this.transport = transport;
    this.clientHandlers = this.options.clientRequests?.install(client, this.config, this.log);
    client.onclose = () => this.handleClosed();
    client.onerror = (err) => {
      // A server may still report progress on a call that was just cancelled (Stop): expected, not a warning.
      if (/^Received a progress notification for an unknown token/.test(errorMessage(err))) this.log.trace(`protocol: ${errorMessage(err)}`);
      else this.log.warn(`protocol: ${errorMessage(err)}`);
    };
    const spawned = transport instanceof ProcessTransport ? transport : undefined;
    // Counted from the moment the process runs; a stdio server still starting at the limit gets it once more.
    const limit = connectLimit({
      limitMs: timeoutMs,
      running: spawned ? spawned.running : Promise.resolve(),
      stillStarting: () => !!spawned && !spawned.exit && !this.closing,
      onPatience: (ms) => this.log.warn(`still starting after ${ms} ms (its process runs); waiting ${ms} ms more before calling it failed`),
    });
    try {
      // Whatever the server sends is redacted before anything reads it (the trace keeps its own redacted copy).
      const wire = redactedTransport(this.options.trace ? tracedTransport(transport, this.options.trace) : transport, this.redactor);
      const memory = (this.options.eras ?? processEraMemory).slot(this.eraKey(transport));
      // The SDK's own bound leaves room for the patience; the limit above decides.
      const sdkTimeoutMs = spawned ? 2 * timeoutMs + 1_000 : timeoutMs;
      await Promise.race([connectInEra(client, wire, { timeoutMs: sdkTimeoutMs, probeTimeoutMs, legacy, memory, onFallback: (f) => this.noteFallback(f) }), limit.expired]);
    } catch (err) {
      await this.disposeConnection();
      throw err;
    } finally {
      limit.dispose();
    }
  }

  /** Who the server is for the era memory: a stdio program with its folder and environment, or an HTTP server's entry. */
  private eraKey(transport: Transport): string {
    return transport instanceof ProcessTransport ? `stdio:${transport.identity}` : `${this.config.type}:${serverIdentity(this.config)}`;
  }

  private createTransport(kind: 'primary' | 'sse'): Transport {
    const c = this.config;
    if (c.type === 'stdio') {
      this.log.info(`starting: ${describeEndpoint(c)} (cwd ${c.cwd})`);
      return new ProcessTransport(
        {
          command: c.command,
          args: c.args,
          env: serverEnvironment(c.env),
          cwd: c.cwd,
          onStderr: (text) => this.stderr.write(text, (line) => line && this.logStderr(line)),
          ...(this.options.maxMessageBytes ? { maxMessageBytes: this.options.maxMessageBytes } : {}),
          ...(this.options.serverPriority === 'low' ? { lowPriority: true } : {}),
          onGarbage: (line) => {
            const shown = line.length > 200 ? `${line.slice(0, 200)}…` : line;
            this.stderr.add(`[stdout, not JSON-RPC] ${shown}`);
            this.log.warn(`ignored a stdout line that is not JSON-RPC: ${shown}`);
          },
        },
        this.options.closeTimings ?? DEFAULT_CLOSE_TIMINGS,
      );
    }
    const url = new URL(c.url);
    const requestInit = { headers: c.headers };
    // Whatever the server sends is read through size caps, so one huge reply cannot fill memory.
    const fetch = this.httpFetch();
    const auth = this.options.auth ? { authProvider: this.options.auth } : {};
    this.log.info(`connecting to ${url.origin}${url.pathname} (${kind === 'sse' ? 'SSE' : 'Streamable HTTP'})`);
    return kind === 'sse' ? new SSEClientTransport(url, { requestInit, fetch, ...auth }) : new StreamableHTTPClientTransport(url, { requestInit, fetch, ...auth });
  }

  private httpFetch() {
    const capped = cappedFetch(`the reply of server "${this.name}"`, this.options.httpLimits);
    return this.options.auth ? this.options.auth.guard(capped) : capped;
  }

  /** Runs `step`; when it stopped on an authorization problem that the server's OAuth client puts right (a sign-in the user completes), runs it again. */
  private async afterSignIn<T>(step: () => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await step();
      } catch (err) {
        const auth = this.options.auth;
        if (!auth || this.closing || attempt >= 2 || !(await auth.recover(err, this.httpFetch()))) throw err;
      }
    }
  }

  private async fetchTools(): Promise<RemoteTool[]> {
    const client = this.client;
    if (!client?.getServerCapabilities()?.tools) return [];
    const { tools, problems } = await listAllTools(client, this.name, this.options.connectTimeoutMs ?? 30_000);
    const icons = iconContext(this.name, this.config);
    const iconProblems: ListProblem[] = [];
    for (const t of tools) if ('icons' in t) t.icons = checkIcons(t.icons, icons, `tool "${t.name}"`, iconProblems);
    problems.push(...iconProblems.map((p) => ({ server: p.server, tool: p.item, message: p.message })));
    this.problems = problems;
    for (const p of problems) this.log.warn(p.message);
    return tools;
  }

  private async refreshTools(): Promise<void> {
    if (this.currentState.kind !== 'running') return;
    try {
      const tools = await this.fetchTools();
      if (this.currentState.kind !== 'running') return;
      this.remoteTools = tools;
      this.setState({ ...this.currentState, toolCount: tools.length });
      this.log.info(`tool list changed: ${tools.length} tools`);
      this.onDidChangeToolsEmitter.fire(tools);
    } catch (err) {
      this.log.warn(`refreshing tools failed: ${errorMessage(err)}`);
    }
  }

  /** The seed's `list_tools()`: the tools after connecting. */
  async listTools(): Promise<readonly RemoteTool[]> {
    await this.connect();
    return this.remoteTools;
  }

  /** Adapts one remote tool to a registry tool named `name` whose calls go to `route` (default: this source). */
  toTool(remote: RemoteTool, name = remote.name, route: ToolRoute = (remoteName, args, options) => this.call(remoteName, args, options)): Tool {
    return {
      name,
      description: remote.description ?? remote.title ?? '',
      parameters: remote.inputSchema as JsonSchema,
      server: this.name,
      remoteName: remote.name,
      ...(remote.title !== undefined ? { title: remote.title } : {}),
      ...(remote.icons?.length ? { icons: remote.icons as SafeIcon[] } : {}),
      ...(remote.annotations ? { annotations: remote.annotations } : {}),
      call: (args, options) => route(remote.name, args, options),
    };
  }

  /**
   * The seed's `register(registry, namespace)`: lists the tools (connecting first), adds each one,
   * prefixed when a namespace is given, and returns the names it added. An owner that outlives this
   * source (the hub, across restarts) passes a `route` for the calls.
   */
  async register(registry: ToolSink, options?: string | RegisterOptions): Promise<string[]> {
    const { namespace, route } = typeof options === 'string' ? { namespace: options, route: undefined } : (options ?? {});
    const tools = await this.listTools();
    const names: string[] = [];
    for (const remote of tools) {
      const name = namespace ? `${namespace}.${remote.name}` : remote.name;
      registry.add(this.toTool(remote, name, route));
      names.push(name);
    }
    return names;
  }

  /**
   * Calls a tool by the server's own name. Resolves to a string, with this server's secrets redacted
   * (the result arrived redacted, failures are described redacted); never rejects.
   */
  async call(remoteName: string, args: Record<string, unknown>, options: ToolCallOptions = {}): Promise<string> {
    // Logged through this server's redacting logger, like every other line.
    return loggedCall(this.log, remoteName, args, () => this.callRaw(remoteName, args, options));
  }

  private async callRaw(remoteName: string, args: Record<string, unknown>, options: ToolCallOptions): Promise<string> {
    const client = this.client;
    if (!client && this.ending) return toolError(`${NOT_CONNECTED}: ${await this.ending}`);
    if (!client || this.currentState.kind !== 'running') return toolError(this.notRunning());
    if (options.signal?.aborted) return toolError('cancelled');
    const timeout = this.config.timeoutMs ?? this.options.callTimeoutMs ?? 60_000;
    try {
      const result = await this.afterSignIn(() =>
        client.callTool(
          { name: remoteName, arguments: args },
          {
            timeout,
            resetTimeoutOnProgress: true,
            onprogress: (p) => options.onProgress?.({ progress: p.progress, ...(p.total !== undefined ? { total: p.total } : {}), ...(p.message !== undefined ? { message: progressText(p.message) } : {}) }),
            ...(options.signal ? { signal: options.signal } : {}),
          },
        ),
      );
      const typed = result as Parameters<typeof formatCallResult>[0];
      if (options.onImage && !typed.isError) {
        for (const block of typed.content ?? []) if (block.type === 'image') options.onImage({ mimeType: block.mimeType, data: block.data });
      }
      if (options.onResource && !typed.isError) for (const block of typed.content ?? []) reportResource(block, this.name, options.onResource);
      return formatCallResult(typed, this.options.maxOutputChars ?? 50_000, this.name);
    } catch (err) {
      if (options.signal?.aborted) return toolError('cancelled');
      // Its owner ended the session (a restart, a stop): the call was cancelled, the server did not fail.
      if (this.closing) return toolError(`cancelled: the server was ${this.closedAs}`);
      return toolError(await this.requestFailure(err));
    }
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

  /** Why a request to the server failed: a timeout, the server's own message, or what became of the server; redacted. */
  private async requestFailure(err: unknown): Promise<string> {
    if (err instanceof SdkError && err.code === SdkErrorCode.RequestTimeout) return `timeout after ${(err.data as { timeout?: number } | undefined)?.timeout ?? this.config.timeoutMs ?? this.options.callTimeoutMs ?? 60_000} ms`;
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
      await this.disposeConnection();
      this.setState({ kind: 'stopped' });
      this.onDidChangeStateEmitter.dispose();
      this.onDidChangeToolsEmitter.dispose();
      this.features.dispose();
    })();
    return this.closing;
  }

  private async disposeConnection(): Promise<void> {
    const client = this.client;
    const transport = this.transport;
    this.client = undefined;
    this.clientHandlers?.dispose();
    this.clientHandlers = undefined;
    if (client) client.onclose = undefined;
    try {
      await client?.close();
    } catch {
      // closing a broken connection may fail; the transport close below still runs
    }
    try {
      await transport?.close();
    } catch (err) {
      this.log.warn(`closing the transport failed: ${errorMessage(err)}`);
    }
  }

  /** The connection ended without us closing it: the server crashed or the network dropped. */
  private handleClosed(): void {
    if (this.closing || this.currentState.kind !== 'running') return;
    this.client = undefined;
    this.ending = this.failureMessage(new Error('connection closed'), 'run');
    void this.ending.then((message) => {
      this.ending = undefined;
      if (this.closing) return;
      this.log.error(message);
      this.setState({ kind: 'error', message, stderrTail: this.stderr.text() });
    });
  }

  /**
   * Says why a start, call or session failed, with exit status for processes; redacted, since it may
   * quote the server (its stderr, an HTTP error body) where no message of its passed redactedTransport.
   */
  private async failureMessage(err: unknown, phase: 'start' | 'call' | 'run'): Promise<string> {
    return this.redactor.redact(await this.describeFailure(err, phase));
  }

  private async describeFailure(err: unknown, phase: 'start' | 'call' | 'run'): Promise<string> {
    if (err instanceof ConnectTimeout || err instanceof SpawnError) return err.message;
    // Without an OAuth client (stdio, or an entry with its own Authorization header) a 401 is about the headers.
    if (isSignInNeeded(err) && (this.options.auth || err instanceof SignInNeeded)) return signInMessage(err);
    const transport = this.transport;
    const closed = err instanceof SdkError && err.code === SdkErrorCode.ConnectionClosed;
    // A write that failed on a dead pipe (EPIPE) comes before the exit event; wait for the status.
    const pipe = !closed && phase === 'call' && isPipeFailure(err);
    if (transport instanceof ProcessTransport && (closed || pipe || transport.exit || phase === 'run')) {
      if (pipe) await transport.exitWithin(500);
      await new Promise((r) => setTimeout(r, 20)); // let the exit status arrive
      // Exited: wait until its pipes are drained, since the last stderr lines say why it died.
      if (transport.exit) await transport.exitWithin(1_000);
      const exit = transport.exit;
      if (exit) {
        const how = exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;
        const when = phase === 'start' ? 'during startup' : phase === 'call' ? 'during the call' : '';
        const tail = stderrGist(this.stderr.text());
        return `server process ${how}${when ? ` ${when}` : ''}${tail ? `; stderr: ${tail}` : ''}`;
      }
    }
    if (closed) return phase === 'call' ? NOT_CONNECTED : 'connection closed';
    return describeNetworkError(err, this.config.type === 'stdio' ? undefined : this.config.url, phase) ?? errorMessage(err);
  }

  /** A stderr line in the log: one that reports an error (`Error: ...`, `fatal: ...`) as a warning. */
  private logStderr(line: string): void {
    if (isErrorLine(line)) this.log.warn(`stderr: ${line}`);
    else this.log.info(`stderr: ${line}`);
  }

  private setState(state: ServerState): void {
    if (state.kind === 'error') state = { ...state, message: this.redactor.redact(state.message), stderrTail: this.redactor.redact(state.stderrTail) };
    else if (state.kind === 'signIn') state = { ...state, message: this.redactor.redact(state.message) };
    this.currentState = state;
    this.onDidChangeStateEmitter.fire(state);
  }
}

function signInMessage(err: unknown): string {
  const text = errorMessage(err);
  return text.startsWith('sign in needed') ? text : `sign in needed: ${/insufficient_scope|InsufficientScope/i.test(`${(err as Error).name} ${text}`) ? 'the server asks for more permissions than this session has' : 'the server requires you to sign in'}`;
}

function isPipeFailure(err: unknown): boolean {
  return (err as NodeJS.ErrnoException | undefined)?.code === 'EPIPE' || errorMessage(err) === PROCESS_NOT_RUNNING;
}

/** connect() of a source that was closed before or while it started; its owner asked for that. */
export class ClosedWhileStarting extends Error {
  constructor(server: string) {
    super(`server "${server}" was closed while starting`);
  }
}

function httpStatus(err: unknown): number | undefined {
  const data = (err as { data?: { status?: unknown } } | undefined)?.data;
  return typeof data?.status === 'number' ? data.status : undefined;
}

/** HTTP failures in words a user can act on: the status, or why the host could not be reached. */
function describeNetworkError(err: unknown, url: string | undefined, phase: 'start' | 'call' | 'run'): string | undefined {
  if (url === undefined) return undefined;
  const status = httpStatus(err);
  if (status !== undefined) {
    const data = (err as { data: { statusText?: string; text?: string } }).data;
    const body = (data.text ?? '').slice(0, 200);
    const hint = status === 401 || status === 403 ? ' (check the credentials in the entry\'s "headers")' : '';
    return `HTTP ${status}${data.statusText ? ` ${data.statusText}` : ''} from ${url}${hint}${body ? `: ${body}` : ''}`;
  }
  const cause = (err as { cause?: { code?: string; message?: string } } | undefined)?.cause;
  if (err instanceof TypeError && cause) {
    const why = cause.code ?? cause.message;
    return phase === 'call' && cause.code !== 'ECONNREFUSED' ? `the connection to ${url} dropped during the call (${why})` : `cannot reach ${url}: ${why}`;
  }
  return undefined;
}
