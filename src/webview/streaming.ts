import { addCopyButtons, renderInline, renderMarkdown } from './markdown';

/** A paragraph still streaming is frozen in pieces of about this many characters. */
const CHUNK = 1_500;
/** Lines that start something other than a plain paragraph. */
const BLOCK_START = /^ {0,3}(?:[-*+]\s|\d{1,9}[.)]\s|#{1,6}(?:\s|$)|>|\||`{3}|~{3}|<|[-*_](?:\s*[-*_]){2,}\s*$)/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * Renders an answer while it streams, doing work in proportion to what arrived: blocks that ended
 * (a blank line outside a code fence) are rendered once and kept; only the last block is rendered
 * again each frame, and a long last paragraph is itself frozen in inline pieces. When the answer
 * ends, the transcript renders the whole text once as one document, so what stays on screen is
 * exactly the Markdown of the whole answer.
 */
export class StreamingMarkdown {
  private text = '';
  /** Characters rendered into frozen blocks. */
  private frozenTo = 0;
  /** Where the line scan goes on, and the fence it is in. */
  private scanFrom = 0;
  private fence: string | undefined;
  private boundary = 0;
  private readonly live: HTMLElement;
  /** A long last paragraph: its frozen inline pieces and the live rest. */
  private para: { el: HTMLElement; liveEl: HTMLElement; frozenTo: number } | undefined;

  constructor(root: HTMLElement) {
    this.live = document.createElement('div');
    this.live.className = 'md-live';
    root.append(this.live);
  }

  append(delta: string): void {
    this.text += delta;
  }

  get value(): string {
    return this.text;
  }

  /** Brings the element up to the text received so far. */
  render(): void {
    this.scan();
    if (this.boundary > this.frozenTo) {
      const block = document.createElement('div');
      block.className = 'md-block';
      block.innerHTML = renderMarkdown(this.text.slice(this.frozenTo, this.boundary));
      addCopyButtons(block);
      this.live.before(block);
      this.frozenTo = this.boundary;
      this.para = undefined;
      this.live.textContent = '';
    }
    const rest = this.text.slice(this.frozenTo);
    if (!this.para && rest.length > CHUNK && !this.fence && !BLOCK_START.test(rest)) {
      const el = document.createElement('div');
      el.className = 'md-para';
      const liveEl = document.createElement('p');
      el.append(liveEl);
      this.live.replaceChildren(el);
      this.para = { el, liveEl, frozenTo: this.frozenTo };
    }
    if (this.para) {
      const p = this.para;
      const open = this.text.length - p.frozenTo;
      if (open > CHUNK) {
        const cut = this.text.lastIndexOf(' ', this.text.length - 100);
        if (cut > p.frozenTo) {
          // A block of its own: a change to the live rest never lays out the frozen text again.
          const piece = document.createElement('p');
          piece.innerHTML = renderInline(this.text.slice(p.frozenTo, cut));
          p.liveEl.before(piece);
          p.frozenTo = cut;
        }
      }
      p.liveEl.innerHTML = renderInline(this.text.slice(p.frozenTo));
      return;
    }
    this.live.innerHTML = renderMarkdown(rest);
    addCopyButtons(this.live);
  }

  /** Scans the complete lines that arrived for fences and blank lines (block boundaries). */
  private scan(): void {
    for (;;) {
      const nl = this.text.indexOf('\n', this.scanFrom);
      if (nl < 0) return;
      const line = this.text.slice(this.scanFrom, nl);
      this.scanFrom = nl + 1;
      const fence = FENCE.exec(line)?.[1];
      if (this.fence) {
        if (fence && fence[0] === this.fence[0] && fence.length >= this.fence.length && line.trim() === fence)
          this.fence = undefined;
      } else if (fence) this.fence = fence;
      else if (line.trim() === '') this.boundary = this.scanFrom;
    }
  }
}
