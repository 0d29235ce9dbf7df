import type { Client } from '@modelcontextprotocol/client';

/** How often the timers of a client's open requests are pushed back while the user is answering. */
const NUDGE_MS = 1000;

interface TimerHost {
  _timeoutInfo?: Map<number, unknown>;
  _resetTimeout?(id: number): boolean;
}

const holds = new WeakMap<Client, { count: number; timer: NodeJS.Timeout }>();

/**
 * On a 2025-era connection a server's request to the user arrives while the tool call that caused
 * it is still open, and that call's timeout keeps running while the user reads and fills in a
 * form. Holding the client pushes back the timers of its open requests until the user has
 * answered, so a call times out on the server's silence, never on the user's. (In the 2026-07-28
 * era no request is open while the user answers: the call is retried afterwards.) Relies on the
 * SDK 2.4.0 Protocol's timers; without them (a future SDK) it does nothing. Returns the release.
 */
export function holdTimeouts(client: Client): () => void {
  const host = client as unknown as TimerHost;
  if (!host._timeoutInfo || typeof host._resetTimeout !== 'function') return () => undefined;
  let hold = holds.get(client);
  if (!hold) {
    const nudge = () => {
      for (const id of [...(host._timeoutInfo?.keys() ?? [])]) {
        try {
          host._resetTimeout!.call(client, id);
        } catch {
          // A request past its maxTotalTimeout ends as the SDK decides.
        }
      }
    };
    hold = { count: 0, timer: setInterval(nudge, NUDGE_MS) };
    hold.timer.unref();
    holds.set(client, hold);
    nudge();
  }
  hold.count += 1;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const h = holds.get(client);
    if (!h || --h.count > 0) return;
    clearInterval(h.timer);
    holds.delete(client);
  };
}
