import { DisposableStore } from '../../base/event';
import type { Logger } from '../../base/logger';
import { errorMessage, type Tool, type ToolCallOptions } from '../../toolRegistry/toolRegistry';
import type { ToolResult } from '../../toolRegistry/toolResult';
import { serverIdentity } from '../config/identity';
import type { ServerConfig } from '../config/serverConfig';
import { ClosedWhileStarting, type CloseReason, type McpToolSource } from '../connection/source';
import type { FeatureKind } from '../features/features';
import { cancelRestart, CrashCounter, scheduleRestart, type RestartPolicy, type RestartState } from './restarts';

/**
 * Where the hub routes a call of a registered tool: by server, the server's own tool name and the entry identity it was
 * listed under.
 */
export type HubRoute = (
  server: string,
  remoteName: string,
  identity: string,
  args: Record<string, unknown>,
  options?: ToolCallOptions,
) => Promise<ToolResult>;

/** What an entry needs of the hub that keeps it. */
export interface EntryHost {
  /** A source for the entry's current settings (the hub's options, logger and trace). */
  newSource(config: ServerConfig): McpToolSource;
  log(server: string): Logger;
  /** Where the calls of its registered tools go. */
  route: HubRoute;
  /** The hub is closing: nothing starts again. */
  closed(): boolean;
  /** Its state changed (and with it, maybe, its tools and features): the hub merges and tells its views. */
  stateChanged(catalog: boolean): void;
  /** Its registered tools changed: the hub merges them again. */
  toolsChanged(): void;
  featuresChanged(kind: FeatureKind): void;
  resourceUpdated(server: string, uri: string): void;
  /** A source it stopped, still closing: the hub waits for it on close. */
  closing(done: Promise<void>): void;
}

/**
 * One configured server, owning what becomes of it: its settings, its current source and that
 * source's listeners, its start, its restarts after a crash (restarts.ts), its retirement, and the
 * tools its source registered (kept while a crashed server comes back, so names do not vanish
 * mid-conversation). The hub keeps one per entry in settings and merges their tools.
 */
export class ServerEntry implements RestartState {
  /** Identity of the entry's settings: a change restarts the server. */
  readonly key: string;
  source: McpToolSource | undefined;
  connecting: Promise<void> | undefined;
  /** Set while the current source registers its tools. */
  registering: Promise<void> | undefined;
  /**
   * The tools the last running source registered (under the server's own names), with the identity they were listed
   * under.
   */
  lastTools: { tools: readonly Tool[]; identity: string } | undefined;
  readonly crashes: CrashCounter;
  restartNote: string | undefined;
  restartTimer: NodeJS.Timeout | undefined;
  restarting = false;
  /** The current source's listeners. */
  private sourceListeners = new DisposableStore();
  private dropped = false;

  constructor(
    public config: ServerConfig,
    policy: RestartPolicy,
    private readonly host: EntryHost,
  ) {
    this.key = keyOf(config);
    this.crashes = new CrashCounter(policy);
  }

  get name(): string {
    return this.config.name;
  }

  /**
   * Settings with the same key (where they were written may differ): another origin is another identity, whose tools
   * are listed again.
   */
  configure(config: ServerConfig): void {
    const moved = serverIdentity(this.config) !== serverIdentity(config);
    this.config = config;
    if (moved && this.source?.state.kind === 'running') this.registerTools(this.source);
  }

  /** Starts a source, unless one is starting or running; by hand, so the crash count starts over. */
  start(): void {
    if (this.host.closed() || (this.source && !['stopped', 'error', 'signIn'].includes(this.source.state.kind))) return;
    this.host.log(this.name).info('starting');
    this.fresh();
  }

  /** Stops the current source and starts another; by hand, so the crash count starts over. */
  restart(): void {
    if (this.host.closed()) return;
    this.host.log(this.name).info('restarting');
    this.fresh();
  }

  /** Stops the current source, keeping the entry (Start brings it back). */
  stop(): Promise<void> {
    this.host.log(this.name).info('stopping');
    return this.retire('stopped');
  }

  /** The entry is gone from settings (or the hub closes): its source stops, and nothing of it starts again. */
  drop(reason: CloseReason): void {
    this.dropped = true;
    void this.retire(reason);
  }

  private fresh(): void {
    void this.retire('restarted');
    this.crashes.reset();
    this.connect();
  }

  /** A new entry's first start (in settings now: nothing to stop, no crash to forget). */
  begin(): void {
    this.connect();
  }

  private connect(): void {
    const source = this.host.newSource(this.config);
    this.source = source;
    this.sourceListeners = new DisposableStore();
    let runningSince: number | undefined;
    const mine = () => this.source === source;
    this.sourceListeners.add(
      source.onDidChangeState((state) => {
        if (!mine()) return;
        if (state.kind === 'running' && runningSince !== state.startedAt) {
          runningSince = state.startedAt;
          this.restarting = false;
          this.restartNote = undefined;
          this.registerTools(source);
        }
        // A crash while running, or a failed automatic restart, schedules the next attempt.
        if (state.kind === 'error' && (runningSince !== undefined || this.restarting))
          this.crashed(runningSince ? Date.now() - runningSince : 0, state.cannotStart);
        this.host.stateChanged(state.kind !== 'starting');
      }),
    );
    this.sourceListeners.add(source.onDidChangeTools(() => mine() && this.registerTools(source)));
    this.sourceListeners.add(source.features.onDidChange((kind) => mine() && this.host.featuresChanged(kind)));
    this.sourceListeners.add(
      source.features.onDidUpdateResource((uri) => mine() && this.host.resourceUpdated(this.name, uri)),
    );
    const log = this.host.log(this.name);
    // Connect on a later turn of the event loop: spawning is synchronous, and the hub's reconcile
    // (so activation) must return at once however many servers there are.
    const connecting: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => (mine() ? source.connect() : undefined))
      .catch((err: unknown) => {
        if (err instanceof ClosedWhileStarting) return;
        // Waiting for the user to sign in is not a failure.
        if (source.state.kind === 'signIn') log.info(errorMessage(err));
        else log.error(errorMessage(err));
      })
      .finally(() => {
        if (this.connecting === connecting) this.connecting = undefined;
      });
    this.connecting = connecting;
  }

  /**
   * Has the source register its tools (the adapter's `register` contract), under the server's own
   * names and with calls routed through the hub; kept as `lastTools` while that source is this
   * entry's and running, then the hub is told (its naming policy renames them there).
   */
  private registerTools(source: McpToolSource): void {
    const server = this.name;
    const identity = serverIdentity(this.config);
    const tools: Tool[] = [];
    const registering: Promise<void> = source
      .register(
        { add: (tool) => void tools.push(tool) },
        { route: (remoteName, args, o) => this.host.route(server, remoteName, identity, args, o) },
      )
      .then(
        () => {
          if (this.source !== source || source.state.kind !== 'running') return;
          this.lastTools = { tools, identity };
          this.host.toolsChanged();
        },
        (err: unknown) => {
          if (!(err instanceof ClosedWhileStarting))
            this.host.log(server).warn(`registering its tools failed: ${errorMessage(err)}`);
        },
      )
      .finally(() => {
        if (this.registering === registering) this.registering = undefined;
      });
    this.registering = registering;
  }

  /** After a crash: a new source after the policy's delay, or the server's tools go once it gives up. */
  private crashed(ranForMs: number, cannotStart?: true): void {
    const again = (): void => {
      if (this.host.closed() || this.dropped) return;
      const dead = this.source;
      this.sourceListeners.dispose();
      this.source = undefined;
      if (dead) this.host.closing(dead.close('restarted'));
      this.restarting = true;
      this.connect();
      this.host.stateChanged(false);
    };
    if (!scheduleRestart(this, ranForMs, this.host.log(this.name), again, cannotStart)) this.lastTools = undefined;
  }

  /** Stops the current source, keeping the entry. */
  private retire(reason: CloseReason): Promise<void> {
    cancelRestart(this);
    this.lastTools = undefined;
    const source = this.source;
    this.sourceListeners.dispose();
    this.source = undefined;
    this.connecting = undefined;
    if (!source) return Promise.resolve();
    const closing = source.close(reason);
    this.host.closing(closing);
    return closing;
  }
}

/** The settings that make a server what it is: all of its entry but where it was written. */
export function keyOf(config: ServerConfig): string {
  const { origin: _origin, ...rest } = config;
  return JSON.stringify(rest);
}
