/**
 * A call's progress reports, at most one per `everyMs`: the first at once, then the latest of those
 * that came meanwhile. A server may report as often as it likes (a tool reporting each file it reads
 * sent thousands a second); each report redraws the chat's card or the notification, so the views
 * follow at a pace a person can read. `stop()` drops a report still held: the result has come, and a
 * late report would put a progress bar back on a finished card.
 */
export function progressPace<T>(report: (p: T) => void, everyMs: number): { report(p: T): void; stop(): void } {
  let last = -Infinity;
  let held: { p: T } | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  const send = (p: T) => {
    last = Date.now();
    report(p);
  };
  return {
    report(p: T) {
      if (stopped) return;
      const wait = last + everyMs - Date.now();
      if (wait <= 0 && !timer) return send(p);
      held = { p };
      timer ??= setTimeout(
        () => {
          timer = undefined;
          const next = held;
          held = undefined;
          if (next && !stopped) send(next.p);
        },
        Math.max(wait, 0),
      );
    },
    stop() {
      stopped = true;
      clearTimeout(timer);
      timer = undefined;
      held = undefined;
    },
  };
}
