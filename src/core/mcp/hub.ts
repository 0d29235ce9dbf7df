import { DisposableStore, Emitter } from '../event';
import { silentLogger, taggedLogger, type Logger } from '../logger';
import { errorMessage, toolError, ToolRegistry, type Tool, type ToolCallOptions } from '../tools';
import { DEFAULT_HUB_SETTINGS, type ConfigProblem, type HubSettings, type ServerConfig } from './config';
import { HubCatalog } from './catalog';
import { assignNames, type NamingProblem } from './naming';
import { adaptTool, ClosedWhileStarting, McpToolSource, type RemoteTool, type SourceOptions } from './source';
import { serverIdentity } from './identity';
import type { ServerState } from './state';
import type { ToolProblem } from './toolList';
import { CrashCounter, DEFAULT_RESTART_POLICY, type RestartPolicy } from './restart';
import { McpTrace } from './trace';
import type { ClientRequestsHost } from './clientRequests/clientRequests';

export interface HubOptions {
  logger?: Logger;
  settings?: HubSettings;
  /** Lets tests substitute how sources are made; defaults to `new McpToolSource`. */
  createSource?: (config: ServerConfig, options: SourceOptions) => McpToolSource;
  /** How crashed servers come back; defaults to DEFAULT_RESTART_POLICY. */
  restart?: RestartPolicy;
  /** Answers servers' requests to the client (elicitation, sampling, roots); without it none are offered. */
  clientRequests?: ClientRequestsHost;
}

/** A server as the UI shows it. */
export interface ServerInfo {
  name: string;
  config: ServerConfig;
  state: ServerState;
  /** This server's tools as registered (registry names). */
  readonly tools: Tool[];
  stderrTail: string;
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
  /** The tools of the last running source: kept in the registry while a crashed server restarts. */
  lastTools: readonly RemoteTool[] | undefined;
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
        this.log.info(`[${name}] ${config ? 'settings changed: restarting' : 'removed from settings: stopping'}`);
        this.dropEntry(name, entry);
      }
    }
    this.order = servers.map((s) => s.name);
    for (const [name, trace] of this.traces) if (!next.has(name)) (trace.dispose(), this.traces.delete(name));
    for (const config of servers) {
      if (this.entries.has(config.name)) {
        this.entries.get(config.name)!.config = config; // same key: only metadata such as origin may differ
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
      };
      this.entries.set(config.name, entry);
      this.startEntry(entry);
    }
    this.rebuild();
  }

  /** Resolves once no server is starting. */
  async whenIdle(): Promise<void> {
    for (;;) {
      const pending = [...this.entries.values()].map((e) => e.connecting).filter((p): p is Promise<void> => !!p);
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
    };
  }

  /** Configuration problems and naming problems, for the UI. */
  problems(): { config: ConfigProblem[]; naming: NamingProblem[]; tools: ToolProblem[] } {
    const tools = this.order.flatMap((name) => this.entries.get(name)?.source?.problems ?? []);
    return { config: this.configProblems, naming: this.namingProblems, tools };
  }

  /** A server's trace (created off on first ask); turn it on with `trace(name).setEnabled(true)`. */
  trace(name: string): McpTrace {
    let trace = this.traces.get(name);
    if (!trace) this.traces.set(name, (trace = new McpTrace()));
    return trace;
  }

  /** The live source of a server, for callers that need the adapter itself. */
  source(name: string): McpToolSource | undefined {
    return this.entries.get(name)?.source;
  }

  start(name: string): void {
    const entry = this.entries.get(name);
    if (!entry || this.closed || (entry.source && entry.source.state.kind !== 'stopped' && entry.source.state.kind !== 'error')) return;
    this.retire(entry);
    entry.crashes.reset();
    this.startEntry(entry);
  }

  stop(name: string): Promise<void> {
    const entry = this.entries.get(name);
    if (!entry) return Promise.resolve();
    const done = this.retire(entry);
    this.rebuild();
    this.onDidChangeServersEmitter.fire();
    return done;
  }

  restart(name: string): void {
    const entry = this.entries.get(name);
    if (!entry || this.closed) return;
    this.log.info(`[${name}] restarting`);
    this.retire(entry);
    entry.crashes.reset();
    this.startEntry(entry);
    this.rebuild();
  }

  restartAll(): void {
    for (const name of this.order) this.restart(name);
  }

  /** Closes every connection and every server process tree. */
  async closeAll(): Promise<void> {
    this.closed = true;
    for (const [name, entry] of this.entries) this.dropEntry(name, entry);
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
      logger: taggedLogger(this.log, name),
      get connectTimeoutMs() {
        return hub.settings.connectTimeoutMs;
      },
      get callTimeoutMs() {
        return hub.settings.callTimeoutMs;
      },
      get maxOutputChars() {
        return hub.settings.maxOutputChars;
      },
      trace: this.trace(name),
      ...(this.options.clientRequests ? { clientRequests: this.options.clientRequests } : {}),
    };
    const source = this.options.createSource?.(entry.config, options) ?? new McpToolSource(entry.config, options);
    entry.source = source;
    entry.listeners = new DisposableStore();
    let runningSince: number | undefined;
    entry.listeners.add(
      source.onDidChangeState((state) => {
        if (entry.source !== source) return;
        if (state.kind === 'running') {
          runningSince = state.startedAt;
          entry.restarting = false;
          entry.restartNote = undefined;
        }
        // A crash while running, or a failed automatic restart, schedules the next attempt.
        if (state.kind === 'error' && (runningSince !== undefined || entry.restarting)) this.scheduleRestart(entry, runningSince ? Date.now() - runningSince : 0);
        if (state.kind !== 'starting') this.catalog.changed();
        this.rebuild();
        this.onDidChangeServersEmitter.fire();
      }),
    );
    entry.listeners.add(source.onDidChangeTools(() => entry.source === source && this.rebuild()));
    entry.listeners.add(source.features.onDidChange((kind) => entry.source === source && (this.catalog.changed(kind), this.rebuild())));
    entry.listeners.add(source.features.onDidUpdateResource((uri) => entry.source === source && this.catalog.updated(name, uri)));
    // Connect on a later turn of the event loop: spawning is synchronous, and reconcile (so
    // activation) must return at once however many servers there are.
    const connecting: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => (entry.source === source ? source.connect() : undefined))
      .catch((err: unknown) => {
        if (!(err instanceof ClosedWhileStarting)) this.log.error(errorMessage(err));
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
  private callRemote(server: string, remoteName: string, identity: string, args: Record<string, unknown>, options?: ToolCallOptions): Promise<string> {
    const entry = this.entries.get(server);
    if (entry && serverIdentity(entry.config) !== identity) {
      return Promise.resolve(toolError(`server "${server}" changed (its origin, command, arguments or URL) since tool "${remoteName}" was listed; the call was not made`));
    }
    if (entry && entry.source?.state.kind !== 'running' && this.isRestarting(entry)) {
      return Promise.resolve(toolError(`mcp server not connected: "${server}" crashed and is restarting; try again shortly`));
    }
    const source = entry?.source;
    return source ? source.call(remoteName, args, options) : Promise.resolve(toolError('mcp server not connected'));
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
      this.log.error(`[${name}] ${entry.restartNote}`);
      return;
    }
    entry.restartNote = `restarting in ${formatDelay(next.delayMs)} (attempt ${next.attempt} of ${next.of})`;
    this.log.warn(`[${name}] crashed; ${entry.restartNote}`);
    entry.restartTimer = setTimeout(async () => {
      await this.options.restart?.beforeRestart?.();
      entry.restartTimer = undefined;
      if (this.closed || this.entries.get(name) !== entry) return;
      const dead = entry.source;
      entry.listeners.dispose();
      entry.source = undefined;
      if (dead) this.trackClose(dead.close());
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
  private retire(entry: Entry): Promise<void> {
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
    const closing = source.close();
    this.trackClose(closing);
    return closing;
  }

  private dropEntry(name: string, entry: Entry): void {
    void this.retire(entry);
    this.entries.delete(name);
  }

  /** Recomputes the merged registry from the running servers, in settings order. */
  private rebuild(): void {
    // Running servers, and crashed ones that are coming back (their tools stay, so names do not
    // vanish mid-conversation; calls say the server is restarting).
    const listed = this.order.flatMap((name) => {
      const entry = this.entries.get(name)!;
      if (entry.source?.state.kind === 'running') entry.lastTools = entry.source.tools;
      else if (!this.isRestarting(entry)) return [];
      return entry.lastTools ? [{ entry, tools: entry.lastTools }] : [];
    });
    const { assignments, problems } = assignNames(
      listed.map(({ entry, tools }) => ({
        server: entry.config.name,
        ...(entry.config.namespace !== undefined ? { namespace: entry.config.namespace } : {}),
        tools: tools.map((t) => t.name),
      })),
      this.settings.conflictPolicy,
    );
    const toolsOf = new Map(listed.map(({ entry, tools }) => [entry.config.name, tools]));
    const identityOf = new Map(listed.map(({ entry }) => [entry.config.name, serverIdentity(entry.config)]));
    const tools: Tool[] = [];
    for (const a of assignments) {
      const remote = toolsOf.get(a.server)!.find((t) => t.name === a.remoteName)!;
      const identity = identityOf.get(a.server)!;
      const tool = { ...adaptTool(remote, a.name, a.server, (args, o) => this.callRemote(a.server, a.remoteName, identity, args, o)), serverIdentity: identity };
      tools.push(a.renamed ? { ...tool, renamed: a.renamed } : tool);
    }
    const changedProblems = JSON.stringify(problems) !== JSON.stringify(this.namingProblems);
    this.namingProblems = problems;
    for (const p of problems) if (changedProblems) this.log.warn(`[${p.server}] ${p.message}`);
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
