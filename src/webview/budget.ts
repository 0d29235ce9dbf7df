import type { BudgetView } from '../shared/protocol';

/** Token counts as people read them: 950, 3.2k, 128k. */
export function formatTokens(n: number): string {
  if (n < 1000) return String(n);
  return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`;
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
    this.segments = Object.fromEntries(PARTS.map((p) => [p, bar.querySelector(`.seg-${p}`) as HTMLSpanElement])) as BudgetMeterView['segments'];
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
    this.label.textContent = `${about}${formatTokens(b.total)} / ${formatTokens(b.window)}${b.trimmed ? ' · trimmed' : ''}${over ? ' · too long' : ''}`;
    const lines = this.rows(b, tools).map(([k, v]) => `${k}: ${v}`);
    if (b.trimmed) lines.push('', b.trimmed);
    if (b.over) lines.push('', `Not sendable: ${b.over}`);
    this.button.title = lines.join('\n');
    this.button.setAttribute('aria-label', `Context budget: ${this.label.textContent} tokens. Show details`);
    this.renderDetails(b, tools);
  }

  private rows(b: BudgetView, tools: number): Array<[string, string]> {
    const pct = (n: number) => `${formatTokens(n)} (${Math.round((n / b.window) * 100)}%)`;
    return [
      ['System prompt', pct(b.system)],
      [`Tool schemas (${b.tools.reduce((a, t) => a + t.count, 0)} tools)`, pct(tools)],
      ['History', b.history < b.historyFull ? `${pct(b.history)} of ${formatTokens(b.historyFull)}, trimmed` : pct(b.history)],
      ['New message', pct(b.message)],
      ['Next request', `${b.exact ? '' : 'about '}${formatTokens(b.total)} of ${formatTokens(b.window - b.reserve)} usable`],
      ...(b.reserve ? ([['Kept for the answer', formatTokens(b.reserve)]] as Array<[string, string]>) : []),
      ['Window', `${formatTokens(b.window)} (${b.windowSource})`],
      ['Counted by', b.counter],
    ];
  }

  private renderDetails(b: BudgetView, tools: number): void {
    this.details.textContent = '';
    const table = document.createElement('table');
    const row = (k: string, v: string, cls?: string) => {
      const tr = document.createElement('tr');
      if (cls) tr.className = cls;
      const th = document.createElement('th');
      th.textContent = k;
      const td = document.createElement('td');
      td.textContent = v;
      tr.append(th, td);
      table.append(tr);
    };
    for (const [k, v] of this.rows(b, tools)) {
      row(k, v, k.startsWith('Tool schemas') ? 'part-tools' : k === 'System prompt' ? 'part-system' : k === 'History' ? 'part-history' : k === 'New message' ? 'part-message' : undefined);
      if (k.startsWith('Tool schemas')) for (const t of b.tools) row(`${t.server || '(no server)'} · ${t.count} tool${t.count === 1 ? '' : 's'}`, formatTokens(t.tokens), 'server');
    }
    this.details.append(table);
    for (const text of [b.trimmed, b.over && `Not sendable: ${b.over}`]) {
      if (!text) continue;
      const p = document.createElement('p');
      p.textContent = text;
      this.details.append(p);
    }
    const hint = document.createElement('p');
    hint.className = 'hint';
    hint.textContent = 'Switch servers or tools off in the Tools view to leave their schemas out.';
    this.details.append(hint);
  }
}
