import type { PromptChoice } from '../shared/protocol';
import { el } from './dom';

/** Waits this long after the last keystroke before asking the server for completions. */
export const COMPLETE_DEBOUNCE_MS = 200;

export interface PromptFormActions {
  /** The server's completions for one argument, given the values of the others. */
  complete(
    prompt: string,
    argument: string,
    value: string,
    context: Record<string, string>,
  ): Promise<{ values: string[]; error?: string }>;
  /** Runs the prompt; resolves with the host's error, if any (the form stays open to fix it). */
  run(prompt: string, args: Record<string, string>): Promise<string | undefined>;
  /** The form closed (sent or cancelled): the chat input takes the focus back. */
  closed(): void;
}

interface Field {
  wrap: HTMLElement;
  name: string;
  required: boolean;
  input: HTMLInputElement;
  list: HTMLUListElement;
  values: string[];
  active: number;
  /** Only the answer to the latest request is shown. */
  asked: number;
  timer: ReturnType<typeof setTimeout> | undefined;
}

/**
 * The small form a prompt's arguments are asked in: one text field per argument (required ones
 * marked), each with the server's completions in a list under it as the user types (debounced).
 * Up and Down move in the list, Enter picks from it (or sends the form), Escape closes the list,
 * then the form. Everything the server wrote is set as text.
 */
export class PromptForm {
  readonly el = el('form', 'prompt-form');
  private prompt: PromptChoice | undefined;
  private fields: Field[] = [];
  private readonly error = el('div', 'prompt-form-error');
  private sending = false;

  constructor(private readonly actions: PromptFormActions) {
    this.el.hidden = true;
    this.el.setAttribute('aria-label', 'Prompt arguments');
    this.el.addEventListener('submit', (e) => {
      e.preventDefault();
      void this.submit();
    });
  }

  get isOpen(): boolean {
    return !this.el.hidden;
  }

  open(prompt: PromptChoice): void {
    this.prompt = prompt;
    this.sending = false;
    const head = el('div', 'prompt-form-head');
    head.append(el('span', 'prompt-name', `/${prompt.name}`), el('span', 'prompt-server', prompt.server));
    const children: HTMLElement[] = [head];
    const about = prompt.description ?? prompt.title;
    if (about) children.push(el('div', 'prompt-form-description', about));
    this.fields = prompt.arguments.map((a, i) => this.field(a, i));
    children.push(...this.fields.map((f) => f.wrap));
    this.error.textContent = '';
    const buttons = el('div', 'prompt-form-buttons');
    const send = el('button', 'primary prompt-send', 'Send');
    send.type = 'submit';
    const cancel = el('button', 'prompt-cancel', 'Cancel');
    cancel.type = 'button';
    cancel.addEventListener('click', () => this.close());
    buttons.append(send, cancel);
    children.push(this.error, buttons);
    this.el.replaceChildren(...children);
    this.el.hidden = false;
    this.fields[0]?.input.focus();
  }

  close(): void {
    if (this.el.hidden) return;
    for (const f of this.fields) clearTimeout(f.timer);
    this.el.hidden = true;
    this.el.replaceChildren();
    this.fields = [];
    this.prompt = undefined;
    this.actions.closed();
  }

  private field(arg: PromptChoice['arguments'][number], index: number): Field {
    const wrap = el('div', 'prompt-field');
    const id = `prompt-arg-${index}`;
    const label = el('label', 'prompt-label');
    label.htmlFor = id;
    label.append(el('span', 'prompt-arg-name', arg.name));
    if (arg.required) label.append(el('span', 'prompt-required', ' *'));
    const input = el('input', 'prompt-input');
    input.id = id;
    input.type = 'text';
    input.autocomplete = 'off';
    input.spellcheck = false;
    input.required = arg.required;
    input.setAttribute('role', 'combobox');
    input.setAttribute('aria-autocomplete', 'list');
    input.setAttribute('aria-expanded', 'false');
    const list = el('ul', 'prompt-completions');
    list.id = `${id}-completions`;
    list.setAttribute('role', 'listbox');
    list.hidden = true;
    input.setAttribute('aria-controls', list.id);
    wrap.append(label);
    if (arg.description) wrap.append(el('div', 'prompt-arg-description', arg.description));
    wrap.append(input, list);
    const field: Field = {
      wrap,
      name: arg.name,
      required: arg.required,
      input,
      list,
      values: [],
      active: -1,
      asked: 0,
      timer: undefined,
    };
    input.addEventListener('input', () => this.schedule(field));
    input.addEventListener('focus', () => this.schedule(field));
    input.addEventListener('blur', () =>
      setTimeout(() => document.activeElement !== input && this.showValues(field, []), 150),
    );
    input.addEventListener('keydown', (e) => this.onKey(e, field));
    return field;
  }

  private schedule(field: Field): void {
    clearTimeout(field.timer);
    field.timer = setTimeout(() => void this.ask(field), COMPLETE_DEBOUNCE_MS);
  }

  private async ask(field: Field): Promise<void> {
    const prompt = this.prompt;
    if (!prompt) return;
    const asked = ++field.asked;
    const context = Object.fromEntries(
      this.fields.filter((f) => f !== field && f.input.value !== '').map((f) => [f.name, f.input.value]),
    );
    const { values } = await this.actions.complete(prompt.name, field.name, field.input.value, context);
    // A later keystroke asked again, or the form closed: this answer is stale.
    if (asked !== field.asked || this.prompt !== prompt || document.activeElement !== field.input) return;
    this.showValues(
      field,
      values.filter((v) => v !== field.input.value),
    );
  }

  private showValues(field: Field, values: string[]): void {
    field.values = values;
    field.active = -1;
    field.list.hidden = values.length === 0;
    field.input.setAttribute('aria-expanded', String(values.length > 0));
    this.renderValues(field);
  }

  private renderValues(field: Field): void {
    field.list.replaceChildren(
      ...field.values.map((v, i) => {
        const row = el('li', `prompt-completion${i === field.active ? ' active' : ''}`, v);
        row.id = `${field.list.id}-${i}`;
        row.setAttribute('role', 'option');
        row.setAttribute('aria-selected', String(i === field.active));
        row.addEventListener('mousedown', (e) => {
          e.preventDefault();
          this.accept(field, v);
        });
        return row;
      }),
    );
    if (field.active >= 0) {
      field.input.setAttribute('aria-activedescendant', `${field.list.id}-${field.active}`);
      field.list.children[field.active]?.scrollIntoView({ block: 'nearest' });
    } else field.input.removeAttribute('aria-activedescendant');
  }

  private accept(field: Field, value: string): void {
    field.input.value = value;
    clearTimeout(field.timer);
    field.asked++;
    this.showValues(field, []);
  }

  private onKey(e: KeyboardEvent, field: Field): void {
    if (e.isComposing) return;
    const n = field.values.length;
    if (n && e.key === 'ArrowDown') field.active = (field.active + 1) % n;
    else if (n && e.key === 'ArrowUp') field.active = field.active <= 0 ? n - 1 : field.active - 1;
    else if (n && field.active >= 0 && (e.key === 'Enter' || e.key === 'Tab'))
      this.accept(field, field.values[field.active]!);
    else if (e.key === 'Escape') {
      if (n) this.showValues(field, []);
      else this.close();
    } else return;
    e.preventDefault();
    e.stopPropagation();
    if (field.values.length) this.renderValues(field);
  }

  private async submit(): Promise<void> {
    const prompt = this.prompt;
    if (!prompt || this.sending) return;
    const missing = this.fields.filter((f) => f.required && f.input.value.trim() === '');
    if (missing.length) {
      this.error.textContent = `Required: ${missing.map((f) => f.name).join(', ')}`;
      missing[0]!.input.focus();
      return;
    }
    const args = Object.fromEntries(
      this.fields.filter((f) => f.input.value !== '').map((f) => [f.name, f.input.value]),
    );
    this.sending = true;
    this.error.textContent = '';
    const error = await this.actions.run(prompt.name, args);
    this.sending = false;
    if (this.prompt !== prompt) return;
    if (error) this.error.textContent = error;
    else this.close();
  }
}
