/**
 * Which servers are being called from the tree's Try Tool right now: a server's ask that comes
 * during such a call is answered in quick inputs, where the user is, not in the chat.
 */
const active = new Map<string, number>();

export async function duringTryTool<T>(server: string | undefined, run: () => Promise<T>): Promise<T> {
  if (server === undefined) return run();
  active.set(server, (active.get(server) ?? 0) + 1);
  try {
    return await run();
  } finally {
    const n = (active.get(server) ?? 1) - 1;
    if (n) active.set(server, n);
    else active.delete(server);
  }
}

export function inTryTool(server: string): boolean {
  return active.has(server);
}
