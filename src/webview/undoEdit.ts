import { el } from './dom';

/**
 * Edit's way back: after Edit took the last message (and its answer) into the input, a line above
 * the input says so and offers Undo, until the next message is sent or the chat changes. Undo puts
 * the turn back, and takes its text out of the input if the user has not changed it.
 */
export class UndoEdit {
  private readonly strip = el('div', 'undo-edit');
  private taken: string | undefined;

  constructor(
    before: HTMLElement,
    private readonly input: HTMLTextAreaElement,
    private readonly undo: () => void,
    private readonly cleared: () => void,
  ) {
    this.strip.setAttribute('role', 'status');
    this.strip.append(el('span', '', 'Your last message and its answer were taken back to edit. '));
    const button = el('button', 'link', 'Undo');
    button.title = 'Put the message and its answer back in the chat';
    button.addEventListener('click', () => this.apply());
    this.strip.append(button);
    this.strip.hidden = true;
    before.before(this.strip);
  }

  /** Edit took a turn back, with this text. */
  offer(text: string): void {
    this.taken = text;
    this.strip.hidden = false;
  }

  /** A message was sent, or the chat was replaced: the turn cannot come back. */
  dismiss(): void {
    this.taken = undefined;
    this.strip.hidden = true;
  }

  private apply(): void {
    const text = this.taken;
    this.dismiss();
    if (text === undefined) return;
    this.undo();
    if (this.input.value.trim() === text.trim()) {
      this.input.value = '';
      this.cleared();
    }
    this.input.focus();
  }
}
