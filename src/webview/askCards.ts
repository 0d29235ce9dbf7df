import { initialValues, validateAnswers, type FieldValue, type FormField } from '../shared/form';
import type { AskAnswer, AskView } from '../shared/asks';
import { el } from './dom';

/**
 * A server's ask as a card in the chat: an elicitation form (its fields with the defaults filled
 * in, a message under each field that fails, Accept / Decline / Cancel), or a sampling request to
 * approve (what would be sent, to which model, for how many tokens). Every text the server sent is
 * set as text: nothing is parsed as HTML.
 */
export class AskCards {
  private readonly cards = new Map<string, HTMLElement>();

  constructor(
    private readonly place: (el: HTMLElement) => void,
    private readonly answer: (id: string, answer: AskAnswer) => void,
  ) {}

  show(ask: AskView): void {
    if (this.cards.has(ask.id)) return;
    const card = ask.kind === 'form' ? this.form(ask) : this.sampling(ask);
    card.dataset.askId = ask.id;
    this.cards.set(ask.id, card);
    this.place(card);
  }

  /** The transcript was replaced (a state arrived): the cards still waiting go back below it. */
  reattach(): void {
    for (const card of this.cards.values()) this.place(card);
  }

  /** The ask ended (answered here or elsewhere, or cancelled by the server): the card says how. */
  done(id: string, outcome: string): void {
    const card = this.cards.get(id);
    if (!card) return;
    this.cards.delete(id);
    card.classList.add('ask-done');
    for (const b of card.querySelectorAll('button, input, select')) (b as HTMLInputElement).disabled = true;
    card.querySelector('.ask-actions')?.replaceWith(el('div', 'ask-outcome', outcome));
  }

  private form(ask: Extract<AskView, { kind: 'form' }>): HTMLElement {
    const card = head('ask-card ask-form', `Server "${ask.server}" asks`, ask.message);
    const values: Record<string, FieldValue> = initialValues(ask.fields);
    const messages = new Map<string, HTMLElement>();
    /** Each field's control, told when it is wrong (aria-invalid) as its message shows. */
    const controls = new Map<string, HTMLElement>();
    const accept = el('button', 'primary', 'Accept');
    // Why Accept does nothing yet, beside it once the user tried (a dimmed button alone says nothing).
    const why = el('span', 'ask-why');
    // A field's message shows once the user has been in it (not in red before anything was typed).
    const touched = new Set<string>();
    let invalid = false;
    const check = () => {
      const errors = validateAnswers(ask.fields, values);
      for (const [name, m] of messages) {
        m.textContent = touched.has(name) ? (errors[name] ?? '') : '';
        controls.get(name)?.setAttribute('aria-invalid', String(m.textContent !== ''));
      }
      const wrong = ask.fields.filter((f) => errors[f.name] !== undefined);
      invalid = wrong.length > 0;
      // Still clickable (a disabled button cannot say why); it looks and reads as not ready.
      accept.setAttribute('aria-disabled', String(invalid));
      accept.title = invalid ? `Fill in ${wrong.map((f) => f.label).join(', ')} first` : '';
      if (!invalid) why.textContent = '';
      else if (why.textContent) why.textContent = `To accept, fill in: ${wrong.map((f) => f.label).join(', ')}`;
      return wrong;
    };
    /** Accept pressed on a form not ready: every field's message shows, and the line beside Accept names them. */
    const explain = () => {
      for (const f of ask.fields) touched.add(f.name);
      const wrong = check();
      why.textContent = `To accept, fill in: ${wrong.map((f) => f.label).join(', ')}`;
      body.querySelector<HTMLElement>('.ask-field input, .ask-field select, .ask-field textarea')?.focus();
    };
    const body = el('div', 'ask-fields');
    for (const [index, field] of ask.fields.entries()) {
      // A list of checkboxes is a group named by the field (each box has its own label; labels do not nest).
      const row = el(field.kind === 'multi' ? 'div' : 'label', 'ask-field');
      if (field.kind === 'multi') {
        row.setAttribute('role', 'group');
        row.setAttribute('aria-label', field.label);
      }
      row.append(el('span', 'ask-label', `${field.label}${field.required ? ' *' : ''}`));
      if (field.description) row.append(el('span', 'ask-description', field.description));
      const control = input(field, values, () => {
        touched.add(field.name);
        check();
      });
      control.addEventListener('focusout', () => {
        touched.add(field.name);
        check();
      });
      row.append(control);
      const m = el('span', 'ask-error');
      // Its message is read with the field, and a required field says so (the star is only seen).
      m.id = `ask-${ask.id}-${index}-error`;
      control.setAttribute('aria-describedby', m.id);
      if (field.required && field.kind !== 'multi') control.setAttribute('aria-required', 'true');
      controls.set(field.name, control);
      messages.set(field.name, m);
      row.append(m);
      body.append(row);
    }
    card.append(body);
    const actions = el('div', 'ask-actions');
    accept.addEventListener('click', () =>
      invalid ? explain() : this.answer(ask.id, { action: 'accept', content: { ...values } }),
    );
    actions.append(
      accept,
      button('Decline', () => this.answer(ask.id, { action: 'decline' })),
      button('Cancel', () => this.answer(ask.id, { action: 'cancel' })),
      why,
    );
    card.append(actions);
    // Enter in a field accepts a valid form, as in VS Code's own input boxes.
    body.addEventListener('keydown', (e) => {
      if (e.key !== 'Enter' || e.shiftKey || e.isComposing || (e.target as HTMLElement).tagName === 'TEXTAREA') return;
      e.preventDefault();
      accept.click();
    });
    check();
    return card;
  }

  private sampling(ask: Extract<AskView, { kind: 'sampling' }>): HTMLElement {
    const card = head(
      'ask-card ask-sampling',
      ask.app !== undefined
        ? `The app of tool "${ask.app}" (server "${ask.server}") asks to send this to your model`
        : `Server "${ask.server}" asks to send this to your model`,
      `${ask.model}, up to ${ask.maxTokens} tokens (this server's limit: ${ask.limit})`,
    );
    if (ask.systemPrompt)
      card.append(el('div', 'card-label', 'System prompt'), el('pre', 'ask-text', ask.systemPrompt));
    for (const m of ask.messages)
      card.append(el('div', 'card-label', m.role === 'user' ? 'User' : 'Assistant'), el('pre', 'ask-text', m.text));
    const actions = el('div', 'ask-actions');
    const allow = button('Allow once', () => this.answer(ask.id, { action: 'allow', remember: false }));
    allow.className = 'primary';
    actions.append(
      allow,
      button(ask.app !== undefined ? 'Always allow this app' : 'Always allow this server', () =>
        this.answer(ask.id, { action: 'allow', remember: true }),
      ),
      button('Deny', () => this.answer(ask.id, { action: 'deny' })),
    );
    card.append(actions);
    return card;
  }
}

function input(field: FormField, values: Record<string, FieldValue>, changed: () => void): HTMLElement {
  const set = (v: FieldValue | undefined) => {
    if (v === undefined) delete values[field.name];
    else values[field.name] = v;
    changed();
  };
  switch (field.kind) {
    case 'boolean': {
      const box = el('input');
      box.type = 'checkbox';
      box.checked = values[field.name] === true;
      if (values[field.name] === undefined) values[field.name] = false;
      box.addEventListener('change', () => set(box.checked));
      return box;
    }
    case 'enum': {
      const select = el('select');
      if (!field.required || field.default === undefined) select.append(option('', '(none)'));
      for (const o of field.options) select.append(option(o.value, o.label));
      select.value = typeof values[field.name] === 'string' ? (values[field.name] as string) : '';
      select.addEventListener('change', () => set(select.value || undefined));
      return select;
    }
    case 'multi': {
      const box = el('div', 'ask-multi');
      const chosen = new Set(Array.isArray(values[field.name]) ? (values[field.name] as string[]) : []);
      for (const o of field.options) {
        const label = el('label');
        const check = el('input');
        check.type = 'checkbox';
        check.checked = chosen.has(o.value);
        check.addEventListener('change', () => {
          if (check.checked) chosen.add(o.value);
          else chosen.delete(o.value);
          set(field.options.map((x) => x.value).filter((v) => chosen.has(v)));
        });
        label.append(check, ` ${o.label}`);
        box.append(label);
      }
      return box;
    }
    case 'number': {
      const box = el('input');
      box.type = 'number';
      if (field.minimum !== undefined) box.min = String(field.minimum);
      if (field.maximum !== undefined) box.max = String(field.maximum);
      box.step = field.integer ? '1' : 'any';
      box.value = values[field.name] === undefined ? '' : String(values[field.name]);
      box.addEventListener('input', () => set(box.value === '' ? undefined : Number(box.value)));
      return box;
    }
    case 'string': {
      const box = el('input');
      box.type = 'text';
      box.name = field.name;
      if (field.format) box.placeholder = field.format === 'date' ? 'YYYY-MM-DD' : field.format;
      box.value = typeof values[field.name] === 'string' ? (values[field.name] as string) : '';
      box.addEventListener('input', () => set(box.value === '' ? undefined : box.value));
      return box;
    }
  }
}

function head(className: string, title: string, message: string): HTMLElement {
  const card = el('div', `card ${className}`);
  const top = el('div', 'card-head');
  top.append(el('span', 'card-name', title));
  card.append(top);
  if (message) card.append(el('div', 'ask-message', message));
  return card;
}

function button(label: string, onClick: () => void): HTMLButtonElement {
  const b = el('button', 'secondary', label);
  b.addEventListener('click', onClick);
  return b;
}

function option(value: string, label: string): HTMLOptionElement {
  const o = el('option', '', label);
  o.value = value;
  return o;
}
