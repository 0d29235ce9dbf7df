import type { EraMemory } from './connection/eraMemory';
import { DisposableStore, Emitter } from '../event';
import { silentLogger, taggedLogger, type Logger } from '../logger';
import { errorMessage, toolError, ToolRegistry, type Tool, type ToolCallOptions } from '../tools';
import { DEFAULT_HUB_SETTINGS, type HubSettings } from './config/hubSettings';
import type { ConfigProblem, ServerConfig } from './config/serverConfig';
import { HubCatalog } from './features/catalog';
import { assignNames, type NamingProblem } from './tools/naming';
import { ClosedWhileStarting, McpToolSource, type CloseReason, type SourceOptions } from './connection/source';
import { serverIdentity } from './config/identity';
import type { ServerState } from './connection/state';
import type { ToolProblem } from './tools/toolList';
import { CrashCounter, DEFAULT_RESTART_POLICY, type RestartPolicy } from './connection/restart';
import { McpTrace } from './trace/trace';
import { sendTurn } from './transport/inbox';
import type { ServerAuth } from '../auth/provider';
import type { ClientRequestsHost } from './clientRequests/clientRequests';

export interface HubOptions {
  logger?: Logger;
  settings?: HubSettings;
  /** Where one server's lines go (its own log view); defaults to `logger` with a `[name]` tag. */
  serverLogger?: (name: string) => Logger;
  /** How crashed servers come back; defaults to DEFAULT_RESTART_POLICY. */
  restart?: RestartPolicy;
  /** The OAuth client for an HTTP server (AuthManager.forServer); absent: no OAuth. */
  auth?: (config: ServerConfig, log: Logger) => ServerAuth | undefined;
  /** Answers servers' requests to the client (elicitation, sampling, roots); without it none are offered. */
  clientRequests?: ClientRequestsHost;
  /** The era each server spoke before, kept by the host (see EraMemory); default: this process's. */
  eras?: EraMemory;
}

/** A server as the UI shows it. */
export interface ServerInfo {
  name: string;
  config: ServerConfig;
  state: ServerState;
  /** This server's tools as registered (registry names). */
  readonly tools: Tool[];
  stderrTail: string;
  /** True while a crashed server waits for (or makes) an automatic restart: its error is not final yet. */
  willRestart: boolean;
  /** What became of a crashed server ("restarting in 1 s (attempt 1 of 5)", "gave up ..."); also in its error message. */
  restartNote?: string;
}

interface Entry {
  config: ServerConfig;
  /** Identity of the entry's settings: a change restarts the server. */
  key: string;
  source: McpToolSource | undefined;
  connecting: Promise<void> | undefined;
  listeners: DisposableStore;
  crashes: CrashCounter;
  /** Set while a crashed server waits to come back, or after giving up. */
  restartNote: string | undefined;
  restartTimer: NodeJS.Timeout | undefined;
  /** True while the current source is an automatic restart. */
  restarting: boolean;
  /**
   * The tools the last running source registered (under the server's own names, calls routed
   * through the hub), with the identity they were listed under: kept while a crashed server restarts.
   */
  lastTools: { tools: readonly Tool[]; identity: string } | undefined;
  /** Set while the current source registers its tools. */
  registering: Promise<void> | undefined;
}

/**
 * Owns one source per configured server, connects them in parallel in the background and keeps
 * one merged registry whose names depend on settings order only, never on who answered first.
 */
export class ServerHub {
  readonly registry = new ToolRegistry();
  private readonly entries = new Map<string, Entry>();
  private order: string[] = [];
  private settings: HubSettings;
  private configProblems: ConfigProblem[] = [];
  private namingProblems: NamingProblem[] = [];
  private readonly closingSources = new Set<Promise<void>>();
  private closed = false;
  /** Tool calls on their way to a server now. */
  private activeCalls = 0;
  private readonly log: Logger;
  private readonly onDidChangeServersEmitter = new Emitter<void>();
  /** Fires when any server's state, the server list or the problems change. */
  readonly onDidChangeServers = this.onDidChangeServersEmitter.event;
  /** Fires when the merged registry changes. */
  readonly onDidChangeTools = this.registry.onDidChange;
  /** Resources, templates and prompts of every server, merged; reads, gets, completions, instructions. */
  readonly catalog = new HubCatalog({
    servers: () => this.order.flatMap((name) => (this.entries.has(name) ? [this.entries.get(name)!] : [])),
    settings: () => this.settings,
  });
  /** Each server's JSON-RPC trace, kept across its restarts; off until enabled. */
  private readonly traces = new Map<string, McpTrace>();
  private tracing = false;

  constructor(private readonly options: HubOptions = {}) {
    this.log = options.logger ?? silentLogger;
    this.settings = options.settings ?? DEFAULT_HUB_SETTINGS;
  }

  /**
   * Applies a configuration: servers whose entry changed or went away are stopped, new or changed
   * ones are started in the background, unchanged ones keep running. Returns at once.
   */
  reconcile(servers: readonly ServerConfig[], problems: readonly ConfigProblem[] = [], settings?: HubSettings): void {
    if (this.closed) return;
    if (settings) this.settings = settings;
    this.configProblems = [...problems];
    const next = new Map(servers.map((s) => [s.name, s]));
    for (const [name, entry] of this.entries) {
      const config = next.get(name);
      if (!config || keyOf(config) !== entry.key) {
        this.serverLog(name).info(config ? 'settings changed: restarting' : 'removed from settings: stopping');
        this.dropEntry(name, entry, config ? 'restarted' : 'stopped');
      }
    }
    this.order = servers.map((s) => s.name);
    for (const [name, trace] of this.traces) if (!next.has(name)) (trace.dispose(), this.traces.delete(name));
    for (const config of servers) {
      const known = this.entries.get(config.name);
      if (known) {
        // Same key: only metadata such as origin may differ. Another origin is another identity: the
        // tools listed under the old one are refused until the source registers them again.
        const moved = serverIdentity(known.config) !== serverIdentity(config);
        known.config = config;
        if (moved && known.source?.state.kind === 'running') this.registerTools(known, known.source);
        continue;
      }
      const entry: Entry = {
        config,
        key: keyOf(config),
        source: undefined,
        connecting: undefined,
        listeners: new DisposableStore(),
        crashes: new CrashCounter(this.options.restart ?? DEFAULT_RESTART_POLICY),
        restartNote: undefined,
        restartTimer: undefined,
        restarting: false,
        lastTools: undefined,
        registering: undefined,
      };
      this.entries.set(config.name, entry);
      this.startEntry(entry);
    }
    this.rebuild();
  }

  /** Resolves once no server is starting or registering its tools. */
  async whenIdle(): Promise<void> {
    for (;;) {
      const pending = [...this.entries.values()].flatMap((e) => [e.connecting, e.registering]).filter((p): p is Promise<void> => !!p);
      if (!pending.length) return;
      await Promise.allSettled(pending);
    }
  }

  /** The configured servers' names in settings order, without building their infos. */
  serverNames(): string[] {
    return this.order.filter((name) => this.entries.has(name));
  }

  servers(): ServerInfo[] {
    return this.order.flatMap((name) => {
      const info = this.server(name);
      return info ? [info] : [];
    });
  }

  /** One server, without building the others (the tree asks for each of its nodes). */
  server(name: string): ServerInfo | undefined {
    const entry = this.entries.get(name);
    if (!entry) return undefined;
    const source = entry.source;
    // A source waits a tick before it connects; it is starting from the moment it exists.
    const own = source?.state ?? { kind: 'stopped' as const };
    const registry = this.registry;
    const state: ServerState = own.kind === 'stopped' && entry.connecting ? { kind: 'starting' } : own;
    return {
      name,
      config: entry.config,
      state: state.kind === 'error' && entry.restartNote ? { ...state, message: `${state.message}; ${entry.restartNote}` } : state,
      // Worked out when read: the tree and status bar ask for many infos and rarely for the tools.
      get tools() {
        return registry.list().filter((t) => t.server === name);
      },
      stderrTail: source?.stderrTail ?? '',
      willRestart: this.isRestarting(entry),
      ...(entry.restartNote ? { restartNote: entry.restartNote } : {}),
    };
  }

  /** Configuration problems and naming problems, for the UI. */
  problems(): { config: ConfigProblem[]; naming: NamingProblem[]; tools: ToolProblem[] } {
    const tools = this.order.flatMap((name) => this.entries.get(name)?.source?.problems ?? []);
    return { config: this.configProblems, naming: this.namingProblems, tools };
  }

  /** A server's trace (created on first ask, on or off as setTracing says); one server's can be switched with `trace(name).setEnabled`. */
  trace(name: string): McpTrace {
    let trace = this.traces.get(name);
    if (!trace) {
      this.traces.set(name, (trace = new McpTrace()));
      trace.setEnabled(this.tracing);
    }
    return trace;
  }

  /** Turns every server's trace on or off, now and for servers added later (off by default). */
  setTracing(on: boolean): void {
    this.tracing = on;
    for (const trace of this.traces.values()) trace.setEnabled(on);
  }

  /** The live source of a server, for callers that need the adapter itself. */
  source(name: string): McpToolSource | undefined {
    return this.entries.get(name)?.source;
  }

  start(name: string): void {
    const entry = this.entries.get(name);
    if (!entry || this.closed || (entry.source && entry.source.state.kind !== 'stopped' && entry.source.state.kind !== 'error' && entry.source.state.kind !== 'signIn')) return;
    this.serverLog(name).info('starting');
    this.retire(entry, 'restarted');
    entry.crashes.reset();
    this.startEntry(entry);
  }

  stop(name: string): Promise<void> {
    const entry = this.entries.get(name);
    if (!entry) return Promise.resolve();
    this.serverLog(name).info('stopping');
    const done = this.retire(entry, 'stopped');
    this.rebuild();
    this.onDidChangeServersEmitter.fire();
    return done;
  }

  restart(name: string): void {
    const entry = this.entries.get(name);
    if (!entry || this.closed) return;
    this.serverLog(name).info('restarting');
    this.retire(entry, 'restarted');
    entry.crashes.reset();
    this.startEntry(entry);
    this.rebuild();
  }

  /** How many tool calls are on their way to a server now (a restart would cancel them). */
  runningCalls(): number {
    return this.activeCalls;
  }

  restartAll(): void {
    for (const name of this.order) this.restart(name);
  }

  /** Closes every connection and every server process tree. */
  async closeAll(): Promise<void> {
    this.closed = true;
    for (const [name, entry] of this.entries) this.dropEntry(name, entry, 'stopped');
    this.order = [];
    this.rebuild();
    await Promise.allSettled([...this.closingSources]);
    this.onDidChangeServersEmitter.dispose();
    this.registry.dispose();
    this.catalog.dispose();
    for (const trace of this.traces.values()) trace.dispose();
  }

  private startEntry(entry: Entry): void {
    const name = entry.config.name;
    const hub = this;
    const options: SourceOptions = {
      logger: this.serverLog(name),
      get connectTimeoutMs() {
        return hub.settings.connectTimeoutMs;
      },
      get probeTimeoutMs() {
        return hub.settings.probeTimeoutMs;
      },
      get callTimeoutMs() {
        return hub.settings.callTimeoutMs;
      },
      get maxOutputChars() {
        return hub.settings.maxOutputChars;
      },
      get serverPriority() {
        return hub.settings.serverPriority;
      },
      trace: this.trace(name),
      ...(this.options.clientRequests ? { clientRequests: this.options.clientRequests } : {}),
      ...(this.options.eras ? { eras: this.options.eras } : {}),
    };
    const auth = this.options.auth?.(entry.config, options.logger!);
    if (auth) options.auth = auth;
    const source = new McpToolSource(entry.config, options);
    entry.source = source;
    entry.listeners = new DisposableStore();
    let runningSince: number | undefined;
    entry.listeners.add(
      source.onDidChangeState((state) => {
        if (entry.source !== source) return;
        if (state.kind === 'running' && runningSince !== state.startedAt) {
          runningSince = state.startedAt;
          entry.restarting = false;
          entry.restartNote = undefined;
          this.registerTools(entry, source);
        }
        // A crash while running, or a failed automatic restart, schedules the next attempt.
        if (state.kind === 'error' && (runningSince !== undefined || entry.restarting)) this.scheduleRestart(entry, runningSince ? Date.now() - runningSince : 0);
        if (state.kind !== 'starting') this.catalog.changed();
        this.rebuild();
        this.onDidChangeServersEmitter.fire();
      }),
    );
    entry.listeners.add(source.onDidChangeTools(() => entry.source === source && this.registerTools(entry, source)));
    entry.listeners.add(source.features.onDidChange((kind) => entry.source === source && (this.catalog.changed(kind), this.rebuild())));
    entry.listeners.add(source.features.onDidUpdateResource((uri) => entry.source === source && this.catalog.updated(name, uri)));
    // Connect on a later turn of the event loop: spawning is synchronous, and reconcile (so
    // activation) must return at once however many servers there are.
    const connecting: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => (entry.source === source ? source.connect() : undefined))
      .catch((err: unknown) => {
        if (err instanceof ClosedWhileStarting) return;
        // Waiting for the user to sign in is not a failure.
        if (source.state.kind === 'signIn') this.serverLog(name).info(errorMessage(err));
        else this.serverLog(name).error(errorMessage(err));
      })
      .finally(() => {
        if (entry.connecting === connecting) entry.connecting = undefined;
      });
    entry.connecting = connecting;
  }

  /**
   * Routes a registry tool to the server's current source, so a restart needs no re-registration;
   * never to a server whose entry changed since the tool was listed (another command, URL or origin).
   */
  private async callRemote(server: string, remoteName: string, identity: string, args: Record<string, unknown>, options?: ToolCallOptions): Promise<string> {
    // A burst of calls made in one tick is made a budgeted slice per event-loop iteration (see
    // inbox). The checks below run after the turn, on the server as it is then.
    await sendTurn();
    if (options?.signal?.aborted) return toolError('cancelled');
    const entry = this.entries.get(server);
    if (entry && serverIdentity(entry.config) !== identity) {
      return toolError(`server "${server}" changed (its origin, command, arguments or URL) since tool "${remoteName}" was listed; the call was not made`);
    }
    if (entry && entry.source?.state.kind !== 'running' && this.isRestarting(entry)) {
      return toolError(`mcp server not connected: "${server}" crashed and is restarting; try again shortly`);
    }
    const source = entry?.source;
    if (!source) return toolError('mcp server not connected');
    this.activeCalls++;
    try {
      return await source.call(remoteName, args, options);
    } finally {
      this.activeCalls--;
    }
  }

  private serverLog(name: string): Logger {
    return this.options.serverLogger?.(name) ?? taggedLogger(this.log, name);
  }

  /**
   * Has the source register its tools (the adapter's `register` contract), under the server's own
   * names and with calls routed through the hub; the naming policy renames them in `rebuild`.
   */
  private registerTools(entry: Entry, source: McpToolSource): void {
    const server = entry.config.name;
    const identity = serverIdentity(entry.config);
    const tools: Tool[] = [];
    const registering: Promise<void> = source
      .register({ add: (tool) => void tools.push(tool) }, { route: (remoteName, args, o) => this.callRemote(server, remoteName, identity, args, o) })
      .then(
        () => {
          if (entry.source !== source || source.state.kind !== 'running') return;
          entry.lastTools = { tools, identity };
          this.rebuild();
        },
        (err: unknown) => {
          if (!(err instanceof ClosedWhileStarting)) this.log.warn(`[${server}] registering its tools failed: ${errorMessage(err)}`);
        },
      )
      .finally(() => {
        if (entry.registering === registering) entry.registering = undefined;
      });
    entry.registering = registering;
  }

  private isRestarting(entry: Entry): boolean {
    return entry.restartTimer !== undefined || entry.restarting;
  }

  private scheduleRestart(entry: Entry, ranForMs: number): void {
    const name = entry.config.name;
    const next = entry.crashes.next(ranForMs);
    if (!next) {
      entry.restarting = false;
      entry.lastTools = undefined;
      entry.restartNote = `gave up after ${entry.crashes.limit} automatic restarts; restart it when it is fixed`;
      this.serverLog(name).error(entry.restartNote);
      return;
    }
    entry.restartNote = `restarting in ${formatDelay(next.delayMs)} (attempt ${next.attempt} of ${next.of})`;
    this.serverLog(name).warn(`crashed; ${entry.restartNote}`);
    entry.restartTimer = setTimeout(async () => {
      await this.options.restart?.beforeRestart?.();
      entry.restartTimer = undefined;
      if (this.closed || this.entries.get(name) !== entry) return;
      const dead = entry.source;
      entry.listeners.dispose();
      entry.source = undefined;
      if (dead) this.trackClose(dead.close('restarted'));
      entry.restarting = true;
      this.startEntry(entry);
      this.onDidChangeServersEmitter.fire();
    }, next.delayMs);
  }

  private trackClose(closing: Promise<void>): void {
    const tracked = closing.finally(() => this.closingSources.delete(tracked));
    this.closingSources.add(tracked);
  }

  /** Stops an entry's current source, keeping the entry. */
  private retire(entry: Entry, reason: CloseReason): Promise<void> {
    clearTimeout(entry.restartTimer);
    entry.restartTimer = undefined;
    entry.restartNote = undefined;
    entry.restarting = false;
    entry.lastTools = undefined;
    const source = entry.source;
    entry.listeners.dispose();
    entry.source = undefined;
    entry.connecting = undefined;
    if (!source) return Promise.resolve();
    const closing = source.close(reason);
    this.trackClose(closing);
    return closing;
  }

  private dropEntry(name: string, entry: Entry, reason: CloseReason): void {
    void this.retire(entry, reason);
    this.entries.delete(name);
  }

  /** Recomputes the merged registry from the running servers, in settings order. */
  private rebuild(): void {
    // Running servers, and crashed ones that are coming back (their tools stay, so names do not
    // vanish mid-conversation; calls say the server is restarting).
    const listed = this.order.flatMap((name) => {
      const entry = this.entries.get(name)!;
      if (entry.source?.state.kind !== 'running' && !this.isRestarting(entry)) return [];
      return entry.lastTools ? [{ entry, ...entry.lastTools }] : [];
    });
    const { assignments, problems } = assignNames(
      listed.map(({ entry, tools }) => ({
        server: entry.config.name,
        ...(entry.config.namespace !== undefined ? { namespace: entry.config.namespace } : {}),
        tools: tools.map((t) => t.remoteName!),
      })),
      this.settings.conflictPolicy,
    );
    const listedOf = new Map(listed.map(({ entry, tools, identity }) => [entry.config.name, { identity, byRemote: new Map(tools.map((t) => [t.remoteName!, t])) }]));
    const tools: Tool[] = [];
    for (const a of assignments) {
      const { byRemote, identity } = listedOf.get(a.server)!;
      tools.push({ ...byRemote.get(a.remoteName)!, name: a.name, serverIdentity: identity, ...(a.renamed ? { renamed: a.renamed } : {}) });
    }
    const changedProblems = JSON.stringify(problems) !== JSON.stringify(this.namingProblems);
    this.namingProblems = problems;
    for (const p of problems) if (changedProblems) this.serverLog(p.server).warn(p.message);
    tools.push(...this.catalog.builtinTools(new Set(tools.map((t) => t.name))));
    if (!sameTools(this.registry.list(), tools)) this.registry.replaceAll(tools);
    if (changedProblems) this.onDidChangeServersEmitter.fire();
  }
}

function formatDelay(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${ms / 1000} s`;
}

function keyOf(config: ServerConfig): string {
  const { origin: _origin, ...rest } = config;
  return JSON.stringify(rest);
}

/** Same names, routes and schemas; schemas compare by identity (a refreshed list brings new objects). */
function sameTools(a: readonly Tool[], b: readonly Tool[]): boolean {
  if (a.length !== b.length) return false;
  return a.every((t, i) => {
    const u = b[i]!;
    return t.name === u.name && t.server === u.server && t.remoteName === u.remoteName && t.serverIdentity === u.serverIdentity && t.description === u.description && t.parameters === u.parameters && t.renamed === u.renamed && t.annotations === u.annotations;
  });
}
