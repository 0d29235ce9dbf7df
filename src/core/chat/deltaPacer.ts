import type { HostMessage } from '../../shared/protocol';

/** How long a view's streamed text is gathered before it is sent: about a frame. */
export const DELTA_WINDOW_MS = 16;

/**
 * What is posted to one chat view, with a streaming answer's text sent at most once a frame: a model
 * streams a delta per token (hundreds a second from a fast local model), and each post crosses from the
 * extension host to the page. The first delta goes at once; those that follow within the window are
 * joined and sent when it ends. Any other message sends what was gathered first, so the view sees
 * everything in the order it happened (a `state` built after a delta never arrives before it).
 */
export class DeltaPacer {
  private pending: { id: string; delta: string } | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly post: (m: HostMessage) => void,
    private readonly windowMs = DELTA_WINDOW_MS,
  ) {}

  send(m: HostMessage): void {
    if (m.type !== 'textDelta') {
      this.flush();
      this.post(m);
      return;
    }
    if (this.pending && this.pending.id !== m.id) this.flush();
    if (this.pending) {
      this.pending.delta += m.delta;
      return;
    }
    if (this.timer) {
      this.pending = { id: m.id, delta: m.delta };
      return;
    }
    this.post(m);
    this.startWindow();
  }

  /** Sends what was gathered now (another message follows). */
  flush(): void {
    const pending = this.pending;
    if (!pending) return;
    this.pending = undefined;
    this.post({ type: 'textDelta', id: pending.id, delta: pending.delta });
  }

  /** The view is gone: what was gathered goes nowhere. */
  dispose(): void {
    this.pending = undefined;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private startWindow(): void {
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (!this.pending) return;
      this.flush();
      this.startWindow();
    }, this.windowMs);
  }
}
