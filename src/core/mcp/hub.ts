import { DisposableStore, Emitter } from '../event';
import { silentLogger, taggedLogger, type Logger } from '../logger';
import { errorMessage, ToolRegistry } from '../tools';
import { DEFAULT_HUB_SETTINGS, type HubSettings } from './config/hubSettings';
import type { ConfigProblem, ServerConfig } from './config/serverConfig';
import { serverIdentity } from './config/identity';
import { ClosedWhileStarting, McpToolSource, type CloseReason } from './connection/source';
import { HubCatalog } from './features/catalog';
import { CallRouter } from './hub/callRouting';
import { keyOf, newEntry, type Entry } from './hub/entry';
import { sourceOptions, type HubOptions } from './hub/hubOptions';
import { mergeTools, sameTools } from './hub/mergedTools';
import { cancelRestart, DEFAULT_RESTART_POLICY, isRestarting, scheduleRestart } from './hub/restarts';
import { serverInfo, type ServerInfo } from './hub/serverInfo';
import { registerEntryTools } from './hub/toolRegistration';
import { TraceSet } from './hub/traces';
import { sandboxFor } from './sandbox/decision';
import { sandboxRuntime } from './sandbox/runtime';
import type { McpTrace } from './trace/trace';
import type { NamingProblem } from './tools/naming';
import type { ToolProblem } from './tools/toolList';

export type { HubOptions, ServerInfo };
export { failureText } from './hub/serverInfo';

/**
 * Owns one source per configured server, connects them in parallel in the background and keeps
 * one merged registry whose names depend on settings order only, never on who answered first.
 * Its parts are in hub/: the entries it keeps, restarts after a crash, call routing, the merged
 * tool names, the infos the UI reads.
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
  private readonly calls = new CallRouter((server) => this.entries.get(server));
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
  private readonly traces = new TraceSet();

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
    this.traces.keepOnly(new Set(next.keys()));
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
      const entry = newEntry(config, this.options.restart ?? DEFAULT_RESTART_POLICY);
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
    return entry && serverInfo(name, entry, this.registry, sandboxFor(entry.config, this.options.sandbox));
  }

  /** Configuration problems and naming problems, for the UI. */
  problems(): { config: ConfigProblem[]; naming: NamingProblem[]; tools: ToolProblem[] } {
    const tools = this.order.flatMap((name) => this.entries.get(name)?.source?.problems ?? []);
    return { config: this.configProblems, naming: this.namingProblems, tools };
  }

  /** A server's trace (created on first ask, on or off as setTracing says); one server's can be switched with `trace(name).setEnabled`. */
  trace(name: string): McpTrace {
    return this.traces.get(name);
  }

  /** Turns every server's trace on or off, now and for servers added later (off by default). */
  setTracing(on: boolean): void {
    this.traces.setTracing(on);
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
    return this.calls.running;
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
    // The sandbox's proxies stop with the host's last sandboxed server (not on a timer).
    if (this.options.sandbox) await sandboxRuntime.reset();
    this.onDidChangeServersEmitter.dispose();
    this.registry.dispose();
    this.catalog.dispose();
    this.traces.dispose();
  }

  private startEntry(entry: Entry): void {
    const name = entry.config.name;
    const source = new McpToolSource(entry.config, sourceOptions(entry.config, () => this.settings, this.serverLog(name), this.trace(name), this.options));
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
        if (state.kind === 'error' && (runningSince !== undefined || entry.restarting)) this.scheduleRestart(entry, runningSince ? Date.now() - runningSince : 0, state.cannotStart);
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

  private serverLog(name: string): Logger {
    return this.options.serverLogger?.(name) ?? taggedLogger(this.log, name);
  }

  /** Has the source register its tools, routed through the hub (see toolRegistration); names are given in `rebuild`. */
  private registerTools(entry: Entry, source: McpToolSource): void {
    registerEntryTools(entry, source, (...call) => this.calls.call(...call), () => this.rebuild(), this.log);
  }

  /** After a crash: the source is started again after the policy's delay, or the server's tools go once it gives up. */
  private scheduleRestart(entry: Entry, ranForMs: number, cannotStart?: true): void {
    const name = entry.config.name;
    const restart = (): void => {
      if (this.closed || this.entries.get(name) !== entry) return;
      const dead = entry.source;
      entry.listeners.dispose();
      entry.source = undefined;
      if (dead) this.trackClose(dead.close('restarted'));
      entry.restarting = true;
      this.startEntry(entry);
      this.onDidChangeServersEmitter.fire();
    };
    if (!scheduleRestart(entry, ranForMs, this.serverLog(name), restart, cannotStart)) entry.lastTools = undefined;
  }

  private trackClose(closing: Promise<void>): void {
    const tracked = closing.finally(() => this.closingSources.delete(tracked));
    this.closingSources.add(tracked);
  }

  /** Stops an entry's current source, keeping the entry. */
  private retire(entry: Entry, reason: CloseReason): Promise<void> {
    cancelRestart(entry);
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
      if (entry.source?.state.kind !== 'running' && !isRestarting(entry)) return [];
      const namespace = entry.config.namespace;
      return entry.lastTools ? [{ server: name, ...(namespace !== undefined ? { namespace } : {}), ...entry.lastTools }] : [];
    });
    const { tools, problems } = mergeTools(listed, this.settings.conflictPolicy);
    const changedProblems = JSON.stringify(problems) !== JSON.stringify(this.namingProblems);
    this.namingProblems = problems;
    for (const p of problems) if (changedProblems) this.serverLog(p.server).warn(p.message);
    tools.push(...this.catalog.builtinTools(new Set(tools.map((t) => t.name))));
    if (!sameTools(this.registry.list(), tools)) this.registry.replaceAll(tools);
    if (changedProblems) this.onDidChangeServersEmitter.fire();
  }
}
