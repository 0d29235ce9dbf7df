/**
 * Per server, the time during which at least one of its requests to the user (a form, a sampling
 * approval) was open: a tool call's card counts its own time, not the time the user spent answering
 * the server in the middle of it.
 */
export class UserWaitClock {
  private readonly servers = new Map<string, { open: number; since: number; total: number }>();

  constructor(private readonly now: () => number = () => Date.now()) {}

  /** A request to the user opened; the returned function closes it (once). */
  begin(server: string): () => void {
    let s = this.servers.get(server);
    if (!s) this.servers.set(server, (s = { open: 0, since: 0, total: 0 }));
    if (s.open++ === 0) s.since = this.now();
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      if (--s.open === 0) s.total += this.now() - s.since;
    };
  }

  /** The milliseconds the server has kept the user answering so far (an open request counts up to now). */
  waitedMs(server: string): number {
    const s = this.servers.get(server);
    if (!s) return 0;
    return s.total + (s.open > 0 ? this.now() - s.since : 0);
  }
}
