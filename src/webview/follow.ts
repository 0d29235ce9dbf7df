/** How close to the end still counts as "at the end" (px): a rounding or a last line half shown. */
const NEAR_END = 40;

/**
 * Keeps the transcript pinned to its end while content arrives, as Copilot Chat does: sending a
 * message pins it again; scrolling away unpins it and shows a "jump to latest" control below the
 * transcript. While unpinned, an approval card that arrives off-screen turns the control into
 * "Approval needed", which scrolls that card into view.
 */
export class ScrollFollow {
  private pinned = true;
  private readonly jump: HTMLButtonElement;
  /** Cards waiting for approval, by item id, in arrival order. */
  private readonly waiting = new Map<string, HTMLElement>();
  private lastTop = 0;
  /**
   * A chunk's size settles after it was first laid out (content-visibility gives it a stand-in
   * height until then): while pinned, the end is followed when any chunk grows.
   */
  private readonly sizes = new ResizeObserver(() => this.pinned && this.toEnd());
  private observed = new WeakSet<Element>();

  constructor(private readonly root: HTMLElement) {
    const row = document.createElement('div');
    row.className = 'jump-row';
    this.jump = document.createElement('button');
    this.jump.id = 'jump-latest';
    this.jump.hidden = true;
    this.jump.addEventListener('click', () => this.jumpTo());
    row.append(this.jump);
    root.after(row);
    // Kept from scroll events, so a change never has to measure the list first.
    root.addEventListener('scroll', () => this.onScroll(), { passive: true });
  }

  /**
   * Only the user scrolls up: content that grows or settles never lowers scrollTop, and following
   * the end raises it. So scrolling up unpins, and reaching the end pins again.
   */
  private onScroll(): void {
    const top = this.root.scrollTop;
    const atEnd = this.root.scrollHeight - top - this.root.clientHeight < NEAR_END;
    if (atEnd) this.pinned = true;
    else if (top < this.lastTop - 1) this.pinned = false;
    this.lastTop = top;
    this.updateJump();
  }

  private toEnd(): void {
    this.root.scrollTop = this.root.scrollHeight;
    this.lastTop = this.root.scrollTop;
  }

  /** The user sent a message (or a whole conversation arrived): follow the end again. */
  follow(): void {
    this.pinned = true;
  }

  /** Marks a card as waiting for approval (its element), or as no longer waiting (undefined). */
  setWaiting(id: string, el: HTMLElement | undefined): void {
    if (el) this.waiting.set(id, el);
    else this.waiting.delete(id);
  }

  /** The whole transcript was replaced: nothing of the old one is kept or observed. */
  forgetAll(): void {
    this.waiting.clear();
    this.sizes.disconnect();
    this.observed = new WeakSet();
  }

  /** After a frame's changes: to the end when pinned, else the control says what is below. */
  settle(): void {
    for (const chunk of Array.from(this.root.children)) {
      if (this.observed.has(chunk)) continue;
      this.observed.add(chunk);
      this.sizes.observe(chunk);
    }
    if (this.pinned) this.toEnd();
    this.updateJump();
  }

  private firstWaitingBelow(): HTMLElement | undefined {
    const bottom = this.root.getBoundingClientRect().bottom;
    for (const el of this.waiting.values())
      if (el.isConnected && el.getBoundingClientRect().top > bottom - 8) return el;
    return undefined;
  }

  private updateJump(): void {
    // Nothing below any more (the turn was taken back, the chat emptied): there is nothing to jump to.
    if (this.root.scrollHeight - this.root.scrollTop - this.root.clientHeight < NEAR_END) this.pinned = true;
    if (this.pinned) {
      this.jump.hidden = true;
      return;
    }
    const approval = this.firstWaitingBelow();
    this.jump.hidden = false;
    this.jump.classList.toggle('approval', !!approval);
    this.jump.textContent = approval ? '⚠ Approval needed ↓' : 'Jump to latest ↓';
    this.jump.title = approval ? 'A tool call below waits for your approval' : 'Scroll to the latest message';
  }

  private jumpTo(): void {
    const approval = this.firstWaitingBelow();
    if (approval) {
      approval.scrollIntoView({ block: 'center' });
      approval.querySelector<HTMLButtonElement>('.card-approval button')?.focus({ preventScroll: true });
      // Scrolling fires onScroll, which decides whether the end is in view again.
      return;
    }
    this.pinned = true;
    this.settle();
  }
}
