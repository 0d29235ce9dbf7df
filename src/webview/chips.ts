import type { AttachmentChip } from '../shared/protocol';
import { formatTokens } from './budget';

/**
 * The resources attached to the next message, as chips above the input: label, size in tokens and
 * a remove (x). Every value is set as text; the host owns the list and sends it with the meta.
 */
export class AttachmentChips {
  constructor(
    private readonly root: HTMLElement,
    private readonly detach: (id: string) => void,
  ) {}

  show(chips: readonly AttachmentChip[] | undefined): void {
    this.root.replaceChildren(...(chips ?? []).map((c) => this.chip(c)));
    this.root.hidden = !chips?.length;
  }

  private chip(c: AttachmentChip): HTMLElement {
    const chip = document.createElement('span');
    chip.className = 'chip';
    chip.dataset.id = c.id;
    chip.title = `${c.uri}\nfrom server "${c.server}"\n${c.exact ? '' : 'about '}${c.tokens.toLocaleString('en')} tokens, sent with your next message`;
    const label = document.createElement('span');
    label.className = 'chip-label';
    label.textContent = c.label;
    const size = document.createElement('span');
    size.className = 'chip-tokens';
    size.textContent = `${c.exact ? '' : '~'}${formatTokens(c.tokens)} tokens`;
    const remove = document.createElement('button');
    remove.className = 'chip-remove link';
    remove.textContent = '×';
    remove.title = `Remove ${c.label}`;
    remove.setAttribute('aria-label', `Remove ${c.label}`);
    remove.addEventListener('click', () => this.detach(c.id));
    chip.append(label, size, remove);
    return chip;
  }
}
