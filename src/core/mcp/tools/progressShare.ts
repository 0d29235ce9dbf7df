/**
 * A call's progress as a bar that fills: VS Code's notification takes steps out of 100 (`increment`)
 * and, until it gets one, shows an endless animation that says nothing of how far the call is. A
 * server that says its `total` gets a bar that shows it; one that does not keeps the animation.
 * (Measured in code-server, 20 s of a call: the endless bar cost Chromium's GPU process 3.1-3.6
 * CPU-s, the filling one 1.5-1.6, but drawing each step cost the page about as much again: no CPU
 * saved, only a bar that tells something.) Each call returns the step to add, or undefined when the
 * report has no total.
 */
export function progressShare(): (p: { progress: number; total?: number }) => number | undefined {
  let shown = 0;
  return (p) => {
    const percent = percentDone(p);
    if (percent === undefined) return undefined;
    // A server whose progress goes back (allowed by nothing, done by some) leaves the bar where it is.
    const step = Math.max(0, percent - shown);
    shown += step;
    return step;
  };
}

/** How far a call is, 0-100, where the server said its `total`; undefined where it did not. */
export function percentDone({ progress, total }: { progress: number; total?: number }): number | undefined {
  if (total === undefined || !(total > 0) || !Number.isFinite(progress)) return undefined;
  return Math.min(100, Math.max(0, (progress / total) * 100));
}
