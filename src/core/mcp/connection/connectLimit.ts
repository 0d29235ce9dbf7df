// The connect limit of one try to start a server.

/** A server that did not finish its handshake within the connect limit (and the patience after it, if it got some). */
export class ConnectTimeout extends Error {
  constructor(
    readonly ms: number,
    readonly patientMs = 0,
  ) {
    super(
      `did not answer initialize within ${ms} ms${patientMs ? `, nor in a patient ${patientMs} ms more (its process was still running)` : ''}`,
    );
  }
}

export interface ConnectLimitOptions {
  limitMs: number;
  /**
   * Resolves when the server's process runs (at once for a remote server): the limit counts from then, not from a queue
   * or a slow fork.
   */
  running: Promise<void>;
  /**
   * At the limit: whether the server is still starting (its process runs), so it gets the limit once more before it is
   * called failed.
   */
  stillStarting?: () => boolean;
  /** Told when the patience begins, with its length. */
  onPatience?: (ms: number) => void;
}

/**
 * Rejects `expired` with ConnectTimeout when the limit passes, counted from the moment the process
 * runs. A server still starting then (on a busy machine a large server can take longer than the
 * limit) gets one patient extension of the same length on the same process, not a restart: a
 * second start would begin its work again, and a server that takes a port or a lock at start could
 * trip on its own first copy.
 */
export function connectLimit(options: ConnectLimitOptions): { expired: Promise<never>; dispose(): void } {
  let timer: NodeJS.Timeout | undefined;
  let disposed = false;
  const { limitMs } = options;
  const expired = new Promise<never>((_, reject) => {
    void options.running.then(
      () => {
        if (disposed) return;
        timer = setTimeout(() => {
          if (!options.stillStarting?.()) return reject(new ConnectTimeout(limitMs));
          options.onPatience?.(limitMs);
          timer = setTimeout(() => reject(new ConnectTimeout(limitMs, limitMs)), limitMs);
        }, limitMs);
      },
      () => undefined, // a process that never ran fails with its own error
    );
  });
  expired.catch(() => undefined);
  return {
    expired,
    dispose() {
      disposed = true;
      clearTimeout(timer);
    },
  };
}
