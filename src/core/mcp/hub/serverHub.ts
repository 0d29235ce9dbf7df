import { Emitter } from '../../base/event';
import { silentLogger, taggedLogger, type Logger } from '../../base/logger';
import { ToolRegistry, type ToolCallOptions } from '../../toolRegistry/toolRegistry';
import { failed, type ToolResult } from '../../toolRegistry/toolResult';
import { DEFAULT_HUB_SETTINGS, type HubSettings } from '../config/hubSettings';
import type { ConfigProblem, ServerConfig } from '../config/serverConfig';
import { OutputChecker } from '../tools/outputCheck';
import { McpToolSource } from '../connection/source';
import { AppToolShelf } from './appToolShelf';
import { HubCatalog } from './catalog';
import { CallRouter } from './callRouting';
import { keyOf, ServerEntry, type EntryHost } from './serverEntry';
import { sourceOptions, type HubOptions } from './hubOptions';
import { mergeTools, sameTools } from './mergedTools';
import { DEFAULT_RESTART_POLICY, isRestarting } from './restarts';
import { serverInfo, type ServerInfo } from './serverInfo';
import { TraceSet } from './traces';
import { sandboxFor } from '../sandbox/decision';
import { sandboxRuntime } from '../sandbox/runtime';
import type { McpTrace } from '../trace/trace';
import type { NamingProblem } from '../tools/naming';
import type { ToolProblem } from '../tools/toolList';

export type { HubOptions, ServerInfo };
export { failureText } from './serverInfo';

/**
 * Keeps one entry per configured server (hub/serverEntry.ts: each owns its source, start, restarts,
 * retirement and registered tools), starts them in parallel in the background and keeps one merged
 * registry whose names depend on settings order only, never on who answered first. Its other parts
 * are in hub/: call routing, the merged tool names, the infos the UI reads.
 */
/** How long a task to follow again waits for its server's entry to be read (a window reloading). */
const RESUME_WAIT_MS = 30_000;

export class ServerHub {
  readonly registry = new ToolRegistry();
  private readonly entries = new Map<string, ServerEntry>();
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
  /** The tools live app views offer (MCP Apps), in the registry while their view lives. */
  readonly appTools = new AppToolShelf(() => this.rebuild());
  private readonly traces = new TraceSet();
  /** Every server's results checked against their outputSchema, in one worker thread started on the first check. */
  private readonly outputs = new OutputChecker();
  /** What each entry needs of the hub. */
  private readonly entryHost: EntryHost = {
    newSource: (config) =>
      new McpToolSource(
        config,
        sourceOptions(
          config,
          () => this.settings,
          this.serverLog(config.name),
          this.trace(config.name),
          this.options,
          this.outputs,
        ),
      ),
    log: (server) => this.serverLog(server),
    route: (...call) => this.calls.call(...call),
    closed: () => this.closed,
    stateChanged: (catalog) => {
      if (catalog) this.catalog.changed();
      this.rebuild();
      this.onDidChangeServersEmitter.fire();
    },
    toolsChanged: () => this.rebuild(),
    featuresChanged: (kind) => {
      this.catalog.changed(kind);
      this.rebuild();
    },
    resourceUpdated: (server, uri) => this.catalog.updated(server, uri),
    closing: (done) => this.trackClose(done),
  };

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
        entry.drop(config ? 'restarted' : 'stopped');
        this.entries.delete(name);
      }
    }
    this.order = servers.map((s) => s.name);
    this.traces.keepOnly(new Set(next.keys()));
    for (const config of servers) {
      const known = this.entries.get(config.name);
      if (known) {
        known.configure(config);
        continue;
      }
      const entry = new ServerEntry(config, this.options.restart ?? DEFAULT_RESTART_POLICY, this.entryHost);
      this.entries.set(config.name, entry);
      entry.begin();
    }
    this.rebuild();
  }

  /** The settings the hub runs with now (limits, timeouts). */
  get currentSettings(): HubSettings {
    return this.settings;
  }

  /** Resolves once no server is starting or registering its tools. */
  async whenIdle(): Promise<void> {
    for (;;) {
      const pending = [...this.entries.values()]
        .flatMap((e) => [e.connecting, e.registering])
        .filter((p): p is Promise<void> => !!p);
      if (!pending.length) return;
      await Promise.allSettled(pending);
    }
  }

  /**
   * Follows again a task that ran in the background (see McpToolSource.resumeTask), once the server has started;
   * never rejects.
   */
  async resumeTask(
    server: string,
    remoteName: string,
    taskId: string,
    options: ToolCallOptions = {},
  ): Promise<ToolResult> {
    // Right after a reload the servers may not be read yet: the entry is waited for a while.
    if (!this.entries.has(server))
      await new Promise<void>((resolve) => {
        const listener = this.onDidChangeServers(() => {
          if (this.entries.has(server)) done();
        });
        const timer = setTimeout(() => done(), RESUME_WAIT_MS);
        const done = () => {
          clearTimeout(timer);
          listener.dispose();
          resolve();
        };
      });
    await this.whenIdle();
    const source = this.entries.get(server)?.source;
    if (!source)
      return failed(
        `server "${server}" is not configured any more; its task ${JSON.stringify(taskId)} is not followed`,
      );
    return source.resumeTask(remoteName, taskId, options);
  }

  /** Lists again, on every running server, each list whose TTL ran out; never rejects. */
  async refreshStale(): Promise<void> {
    await Promise.all([...this.entries.values()].map((e) => e.source?.refreshStale()));
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

  /**
   * A server's trace (created on first ask, on or off as setTracing says); one server's can be switched with
   * `trace(name).setEnabled`.
   */
  trace(name: string): McpTrace {
    return this.traces.get(name);
  }

  /** Turns every server's trace on or off, now and for servers added later (off by default). */
  setTracing(on: boolean): void {
    this.traces.setTracing(on);
  }

  start(name: string): void {
    this.entries.get(name)?.start();
  }

  stop(name: string): Promise<void> {
    const entry = this.entries.get(name);
    if (!entry) return Promise.resolve();
    const done = entry.stop();
    this.rebuild();
    this.onDidChangeServersEmitter.fire();
    return done;
  }

  restart(name: string): void {
    const entry = this.entries.get(name);
    if (!entry || this.closed) return;
    entry.restart();
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
    for (const entry of this.entries.values()) entry.drop('stopped');
    this.entries.clear();
    this.order = [];
    this.rebuild();
    await Promise.allSettled([...this.closingSources]);
    // The sandbox's proxies stop with the host's last sandboxed server (not on a timer).
    if (this.options.sandbox) await sandboxRuntime.reset();
    this.onDidChangeServersEmitter.dispose();
    this.registry.dispose();
    this.catalog.dispose();
    this.traces.dispose();
    this.outputs.dispose();
  }

  /** The log of one server (its output channel in the editor). */
  serverLog(name: string): Logger {
    return this.options.serverLogger?.(name) ?? taggedLogger(this.log, name);
  }

  private trackClose(closing: Promise<void>): void {
    const tracked = closing.finally(() => this.closingSources.delete(tracked));
    this.closingSources.add(tracked);
  }

  /** Recomputes the merged registry from the running servers, in settings order. */
  private rebuild(): void {
    // Running servers, and crashed ones that are coming back (their tools stay, so names do not
    // vanish mid-conversation; calls say the server is restarting).
    const listed = this.order.flatMap((name) => {
      const entry = this.entries.get(name)!;
      if (entry.source?.state.kind !== 'running' && !isRestarting(entry)) return [];
      const namespace = entry.config.namespace;
      return entry.lastTools
        ? [{ server: name, ...(namespace !== undefined ? { namespace } : {}), ...entry.lastTools }]
        : [];
    });
    const { tools, problems } = mergeTools(listed, this.settings.conflictPolicy);
    const changedProblems = JSON.stringify(problems) !== JSON.stringify(this.namingProblems);
    this.namingProblems = problems;
    for (const p of problems) if (changedProblems) this.serverLog(p.server).warn(p.message);
    tools.push(...this.catalog.builtinTools(new Set(tools.map((t) => t.name))));
    tools.push(...this.appTools.tools(new Set(tools.map((t) => t.name))));
    if (!sameTools(this.registry.list(), tools)) this.registry.replaceAll(tools);
    if (changedProblems) this.onDidChangeServersEmitter.fire();
  }
}
