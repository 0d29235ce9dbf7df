import type { PromptChoice } from '../shared/protocol';
import { el } from './dom';

/** Most rows the menu shows at once; typing narrows it. */
const MAX_ROWS = 50;

/** The prompts whose name (or title) holds the typed text, names that start with it first. */
export function filterPrompts(prompts: readonly PromptChoice[], typed: string): PromptChoice[] {
  const q = typed.toLowerCase();
  const starts: PromptChoice[] = [];
  const holds: PromptChoice[] = [];
  for (const p of prompts) {
    const name = p.name.toLowerCase();
    if (name.startsWith(q)) starts.push(p);
    else if (name.includes(q) || p.title?.toLowerCase().includes(q)) holds.push(p);
  }
  return [...starts, ...holds].slice(0, MAX_ROWS);
}

/**
 * The `/` menu: while the chat input holds only `/` and a word, it lists the servers' prompts that
 * match, with their descriptions and servers, like Copilot Chat's slash commands. Up and Down
 * move, Enter or Tab picks, Escape closes. Every name and description is set as text.
 */
export class SlashMenu {
  readonly el = el('div', 'slash-menu');
  private readonly list = el('ul', 'slash-list');
  private prompts: readonly PromptChoice[] = [];
  private shown: PromptChoice[] = [];
  private active = 0;
  private dismissedFor: string | undefined;

  constructor(
    private readonly input: HTMLTextAreaElement,
    private readonly pick: (prompt: PromptChoice) => void,
  ) {
    this.el.hidden = true;
    this.list.id = 'slash-list';
    this.list.setAttribute('role', 'listbox');
    this.list.setAttribute('aria-label', 'Server prompts');
    this.el.append(this.list);
    input.setAttribute('aria-controls', this.list.id);
    input.addEventListener('input', () => this.update());
    // Registered before the chat's own Enter handler, so a pick is not also sent as a message.
    input.addEventListener('keydown', (e) => this.onKey(e));
    input.addEventListener('blur', () => setTimeout(() => document.activeElement !== input && this.hide(), 150));
  }

  get isOpen(): boolean {
    return !this.el.hidden;
  }

  setPrompts(prompts: readonly PromptChoice[]): void {
    this.prompts = prompts;
    if (this.isOpen || this.input.value.startsWith('/')) this.update();
  }

  /** Shows the matches for what is typed (only `/word`, at the start), or hides. */
  update(): void {
    const m = /^\/(\S*)$/.exec(this.input.value);
    if (!m || this.dismissedFor === this.input.value) return this.hide();
    // No server offers a prompt: a bare `/` says so, instead of nothing.
    if (!this.prompts.length) return m[1] === '' ? this.showNone() : this.hide();
    this.dismissedFor = undefined;
    this.shown = filterPrompts(this.prompts, m[1]!);
    if (!this.shown.length) return this.hide();
    this.active = Math.min(this.active, this.shown.length - 1);
    this.render();
    this.el.hidden = false;
    this.input.setAttribute('aria-expanded', 'true');
  }

  /** The menu with one line that says there is nothing to pick (Enter still sends what is typed). */
  private showNone(): void {
    this.shown = [];
    const note = el(
      'li',
      'slash-empty',
      "No prompts: none of your running servers offers one. A server's prompts show here as /name.",
    );
    note.setAttribute('role', 'option');
    note.setAttribute('aria-disabled', 'true');
    this.list.replaceChildren(note);
    this.el.hidden = false;
    this.input.setAttribute('aria-expanded', 'true');
    this.input.removeAttribute('aria-activedescendant');
  }

  hide(): void {
    if (this.el.hidden) return;
    this.el.hidden = true;
    this.active = 0;
    this.input.setAttribute('aria-expanded', 'false');
    this.input.removeAttribute('aria-activedescendant');
  }

  private render(): void {
    this.list.replaceChildren(
      ...this.shown.map((p, i) => {
        const row = el('li', `slash-item${i === this.active ? ' active' : ''}`);
        row.id = `slash-item-${i}`;
        row.setAttribute('role', 'option');
        row.setAttribute('aria-selected', String(i === this.active));
        const head = el('div', 'slash-head');
        head.append(el('span', 'slash-name', `/${p.name}`), el('span', 'slash-server', p.server));
        row.append(head);
        const about = p.description ?? p.title;
        if (about) row.append(el('div', 'slash-description', about));
        // mousedown, not click: the input keeps its focus.
        row.addEventListener('mousedown', (e) => {
          e.preventDefault();
          this.choose(i);
        });
        return row;
      }),
    );
    this.input.setAttribute('aria-activedescendant', `slash-item-${this.active}`);
    this.list.children[this.active]?.scrollIntoView({ block: 'nearest' });
  }

  private onKey(e: KeyboardEvent): void {
    if (!this.isOpen || e.isComposing) return;
    const n = this.shown.length;
    if (!n) {
      // Only the "no prompts" line: Escape closes it, every other key does what it does in the input.
      if (e.key === 'Escape') {
        this.dismissedFor = this.input.value;
        this.hide();
        e.preventDefault();
        e.stopImmediatePropagation();
      }
      return;
    }
    let handled = true;
    if (e.key === 'ArrowDown') this.active = (this.active + 1) % n;
    else if (e.key === 'ArrowUp') this.active = (this.active - 1 + n) % n;
    else if ((e.key === 'Enter' && !e.shiftKey) || e.key === 'Tab') this.choose(this.active);
    else if (e.key === 'Escape') {
      // Closed for this text: typing more opens it again.
      this.dismissedFor = this.input.value;
      this.hide();
    } else handled = false;
    if (!handled) return;
    e.preventDefault();
    e.stopImmediatePropagation();
    if (this.isOpen) this.render();
  }

  private choose(i: number): void {
    const prompt = this.shown[i];
    if (!prompt) return;
    this.hide();
    this.pick(prompt);
  }
}
