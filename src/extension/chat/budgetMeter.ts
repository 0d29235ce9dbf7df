import type * as vscode from 'vscode';
import type { ChatModel } from '../../core/agent/model';
import type { ChatMessage } from '../../core/agentTypes/messages';
import { measureRequest, type BudgetBreakdown } from '../../core/budget/breakdown';
import { describeTrim } from '../../core/budget/fit';
import { Emitter } from '../../core/base/event';
import type { ToolSchema } from '../../core/toolRegistry/toolRegistry';
import type { BudgetView, HostMessage } from '../../shared/protocol';

/** What the meter measures: the conversation as the next turn would send it. */
export interface BudgetSource {
  model(): Promise<ChatModel>;
  system(): string;
  history(): readonly ChatMessage[];
  /**
   * Every tool the registry has, with its server, whether the next request carries it, whether the
   * tool itself is switched on, and whether it is on (server and tool): on but not carried is deferred.
   */
  tools(
    windowTokens: number,
    nativeSearch: boolean,
  ): Array<{ server: string; schema: ToolSchema; offered: boolean; toolOn?: boolean; on?: boolean }>;
}

/** Drafts are measured at most this often while the user types. */
const DRAFT_DEBOUNCE_MS = 250;
const MAX_DRAFT_CHARS = 1_000_000;

/**
 * The chat's budget meter: measures what sending the current draft would cost (system prompt, tool
 * schemas by server, history, the new message) against the selected model's window, posts it to the
 * chat views, and keeps each server's schema cost for the Tools tree. One measurement runs at a time;
 * a request made meanwhile runs once after it.
 */
export class BudgetMeter implements vscode.Disposable {
  private post: ((m: HostMessage) => void) | undefined;
  private source: BudgetSource | undefined;
  private draft = '';
  private timer: ReturnType<typeof setTimeout> | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private last: BudgetView | undefined;
  private costs = new Map<string, number>();
  private readonly emitter = new Emitter<void>();
  /** Fires when the per-server schema costs changed (for the Tools tree). */
  readonly onDidChangeCosts = this.emitter.event;

  constructor(private readonly log: { warn(message: string): void }) {}

  connect(post: (m: HostMessage) => void, source: BudgetSource): void {
    this.post = post;
    this.source = source;
  }

  /** The latest measurement, for a view that just said `ready`. */
  current(): BudgetView | undefined {
    return this.last;
  }

  /** Tokens of a server's tool schemas (all its tools, on or off), once measured. */
  serverCost(server: string): number | undefined {
    return this.costs.get(server);
  }

  setDraft(text: string): void {
    // The webview's word is not trusted: a draft past any sensible size is measured by its first part.
    this.draft = text.slice(0, MAX_DRAFT_CHARS);
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.update(), DRAFT_DEBOUNCE_MS);
  }

  update(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = this.measure()
      .catch((err: unknown) => this.log.warn(`budget: ${(err as Error).message}`))
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          void this.update();
        }
      });
    return this.running;
  }

  private async measure(): Promise<void> {
    const source = this.source;
    if (!source) return;
    let model: ChatModel;
    try {
      model = await source.model();
    } catch {
      this.publish(undefined); // no model: nothing to measure against
      return;
    }
    if (!model.limits) return this.publish(undefined);
    const limits = await model.limits();
    const tools = source.tools(limits.window.tokens, model.nativeToolSearch === true);
    const b = await measureRequest({
      limits,
      system: source.system(),
      history: source.history(),
      draft: this.draft,
      tools: tools.filter((t) => t.offered),
    });
    // Every server's cost, switched off or not (what switching it on or off changes), of the tools
    // switched on within it: the tree's row then says what the meter counts. Measured in two disjoint
    // parts, so each schema is counted once: the tools on but not in the request (deferred behind
    // search_tools: what they would cost), and the rest.
    const parts = (pick: (t: (typeof tools)[number]) => boolean) =>
      measureRequest({
        limits,
        system: '',
        history: [],
        draft: '',
        tools: tools.filter((t) => t.toolOn !== false && pick(t)),
      });
    const isWaiting = (t: (typeof tools)[number]) => !t.offered && t.on !== false;
    const waiting = await parts(isWaiting);
    const count = waiting.tools.reduce((a, t) => a + t.count, 0);
    this.publish(toView(b, count ? { count, tokens: waiting.tools.reduce((a, t) => a + t.tokens, 0) } : undefined));
    const costs = new Map<string, number>();
    for (const t of [...waiting.tools, ...(await parts((t) => !isWaiting(t))).tools])
      costs.set(t.server, (costs.get(t.server) ?? 0) + t.tokens);
    if (!sameMap(costs, this.costs)) {
      this.costs = costs;
      this.emitter.fire();
    }
  }

  private publish(view: BudgetView | undefined): void {
    this.last = view;
    this.post?.({ type: 'budget', budget: view });
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.emitter.dispose();
    this.post = undefined;
  }
}

function toView(b: BudgetBreakdown, deferred?: { count: number; tokens: number }): BudgetView {
  return {
    ...(deferred ? { deferred } : {}),
    window: b.window.tokens,
    windowSource: b.window.source,
    reserve: b.reserve,
    counter: b.counter.label,
    exact: b.counter.exact,
    system: b.system,
    tools: b.tools,
    history: b.history,
    historyFull: b.historyFull,
    message: b.message,
    total: b.total,
    ...(b.trimmed ? { trimmed: describeTrim(b.trimmed, b.window) } : {}),
    ...(b.over ? { over: b.over } : {}),
  };
}

function sameMap(a: Map<string, number>, b: Map<string, number>): boolean {
  return a.size === b.size && [...a].every(([k, v]) => b.get(k) === v);
}
