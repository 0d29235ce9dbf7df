import { el } from './dom';

/**
 * Retry and Edit under the user's last message, while the chat is not answering: Retry sends it
 * again in place of its answer, Edit takes it (and its answer) back into the input. One bar, moved
 * to sit after the last message the user typed whenever the transcript changes.
 */
export class LastMessageActions {
  private readonly bar = el('div', 'last-actions');

  constructor(
    private readonly transcript: HTMLElement,
    actions: { retry(): void; edit(): void },
  ) {
    const retry = el('button', 'link', 'Retry');
    retry.title = 'Send this message again, in place of its answer';
    retry.addEventListener('click', () => actions.retry());
    const edit = el('button', 'link', 'Edit');
    edit.title = 'Take this message and its answer back into the input';
    edit.addEventListener('click', () => actions.edit());
    this.bar.append(retry, edit);
    this.bar.hidden = true;
  }

  /** Puts the bar after the last message the user typed, shown only while nothing runs. */
  place(busy: boolean): void {
    const users = this.transcript.querySelectorAll('.msg.user');
    const last = users[users.length - 1];
    if (!last || busy) {
      this.bar.hidden = true;
      return;
    }
    if (last.nextElementSibling !== this.bar) last.after(this.bar);
    this.bar.hidden = false;
  }
}
