import type { BudgetView } from '../shared/protocol';

/** Token counts as people read them: 950, 3.2k, 128k. */
export function formatTokens(n: number): string {
  if (n < 1000) return String(n);
  return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0).replace(/\.0$/, '')}k`;
}

const PARTS = ['system', 'tools', 'history', 'message'] as const;

/**
 * The budget meter under the transcript: a bar of what the next request costs (system, tool schemas,
 * history, the new message) against the model's window, the figure beside it, the breakdown on hover
 * and, on click, in a panel (per server).
 */
export class BudgetMeterView {
  private readonly button: HTMLButtonElement;
  private readonly label: HTMLSpanElement;
  private readonly details: HTMLDivElement;
  private readonly segments: Record<(typeof PARTS)[number], HTMLSpanElement>;
  private readonly reserve: HTMLSpanElement;

  constructor(private readonly root: HTMLElement) {
    this.button = root.querySelector('#budget-meter') as HTMLButtonElement;
    this.label = root.querySelector('#budget-label') as HTMLSpanElement;
    this.details = root.querySelector('#budget-details') as HTMLDivElement;
    const bar = root.querySelector('.budget-bar') as HTMLSpanElement;
    this.segments = Object.fromEntries(
      PARTS.map((p) => [p, bar.querySelector(`.seg-${p}`) as HTMLSpanElement]),
    ) as BudgetMeterView['segments'];
    this.reserve = bar.querySelector('.seg-reserve') as HTMLSpanElement;
    this.button.addEventListener('click', () => {
      const open = this.details.hidden;
      this.details.hidden = !open;
      this.button.setAttribute('aria-expanded', String(open));
    });
  }

  show(b: BudgetView | undefined): void {
    this.root.hidden = !b;
    if (!b) return;
    const about = b.exact ? '' : '~';
    const tools = b.tools.reduce((a, t) => a + t.tokens, 0);
    const parts = { system: b.system, tools, history: b.history, message: b.message };
    for (const p of PARTS) this.segments[p].style.width = `${Math.min(100, (parts[p] / b.window) * 100)}%`;
    this.reserve.style.width = `${Math.min(100, (b.reserve / b.window) * 100)}%`;
    const over = b.over !== undefined;
    this.root.classList.toggle('over', over);
    this.root.classList.toggle('trimmed', !!b.trimmed);
    const notes = [
      ...(b.deferred ? [`${b.deferred.count.toLocaleString('en-US')} deferred`] : []),
      ...(b.trimmed ? ['trimmed'] : []),
      ...(over ? ['too long'] : []),
    ];
    this.label.textContent = [`${about}${formatTokens(b.total)} / ${formatTokens(b.window)}`, ...notes].join(' · ');
    const lines = this.rows(b, tools).map(([k, v]) => `${k}: ${v}`);
    lines.push(this.summary(b));
    if (b.trimmed) lines.push('', b.trimmed);
    if (b.over) lines.push('', `Not sendable: ${b.over}`);
    this.button.title = lines.join('\n');
    this.button.setAttribute('aria-label', `Context budget: ${this.label.textContent} tokens. Show details`);
    this.renderDetails(b, tools);
  }

  /** The parts of the request: [label, tokens, css class]; servers under the tool schemas. */
  private parts(b: BudgetView, tools: number): Array<[string, string, string]> {
    const pct = (n: number) => `${formatTokens(n)} · ${Math.round((n / b.window) * 100)}%`;
    const count = b.tools.reduce((a, t) => a + t.count, 0);
    return [
      ['System prompt', pct(b.system), 'part-system'],
      [`Tool schemas (${count} tool${count === 1 ? '' : 's'}${b.deferred ? ' loaded' : ''})`, pct(tools), 'part-tools'],
      ...b.tools.map((t): [string, string, string] => [
        `${t.server || "MinAgent's own"} · ${t.count} tool${t.count === 1 ? '' : 's'}`,
        formatTokens(t.tokens),
        'server',
      ]),
      // Deferred tools are not sent: the model finds them with search_tools; what they would cost.
      ...(b.deferred
        ? [
            [
              `Deferred (${b.deferred.count.toLocaleString('en-US')} tool${b.deferred.count === 1 ? '' : 's'})`,
              `not sent (${formatTokens(b.deferred.tokens)})`,
              'part-deferred',
            ] as [string, string, string],
          ]
        : []),
      [
        'History',
        b.history < b.historyFull ? `${pct(b.history)} (of ${formatTokens(b.historyFull)})` : pct(b.history),
        'part-history',
      ],
      ['New message', pct(b.message), 'part-message'],
    ];
  }

  /** The sentence under the parts: the total against the window, and how it was counted. */
  private summary(b: BudgetView): string {
    const reserve = b.reserve ? `, ${formatTokens(b.reserve)} kept for the answer` : '';
    const usable = `${formatTokens(b.window - b.reserve)} usable tokens (window ${formatTokens(b.window)}: ${b.windowSource}${reserve})`;
    return `Next request: ${b.exact ? '' : 'about '}${formatTokens(b.total)} of ${usable}. Counted by ${b.counter}.`;
  }

  private rows(b: BudgetView, tools: number): Array<[string, string]> {
    return this.parts(b, tools).map(([k, v, cls]) => [cls === 'server' ? `  ${k}` : k, v]);
  }

  private renderDetails(b: BudgetView, tools: number): void {
    this.details.textContent = '';
    const list = document.createElement('dl');
    for (const [k, v, cls] of this.parts(b, tools)) {
      const row = document.createElement('div');
      row.className = cls;
      const dt = document.createElement('dt');
      dt.textContent = k;
      dt.title = k;
      const dd = document.createElement('dd');
      dd.textContent = v;
      row.append(dt, dd);
      list.append(row);
    }
    this.details.append(list);
    for (const text of [this.summary(b), b.trimmed, b.over && `Not sendable: ${b.over}`]) {
      if (!text) continue;
      const p = document.createElement('p');
      p.textContent = text;
      this.details.append(p);
    }
    const hint = document.createElement('p');
    hint.className = 'hint';
    hint.textContent = b.deferred
      ? 'Tools are deferred: each request carries the pinned tools, those this chat loaded by search or used, and search_tools. Pin a tool in the Tools view to send it always.'
      : 'Switch servers or tools off in the Tools view to leave their schemas out.';
    this.details.append(hint);
  }
}
