import type { Client, McpSubscription } from '@modelcontextprotocol/client';
import type { Logger } from '../../base/logger';
import { errorMessage } from '../../toolRegistry/toolRegistry';

/** The waits before listening again after a drop: 1 s, doubling, at most 30 s. */
const FIRST_RETRY_MS = 1_000;
const MAX_RETRY_MS = 30_000;

/**
 * A 2026-07-28 server's resource subscriptions on one `subscriptions/listen` stream (one per server, not one per
 * resource): a change of the set opens a listen with the whole set, then closes the one before. The server's
 * acknowledgement says which resources it will tell about; one it left out is refused by name. A stream that
 * drops (`remote`) is listened again after 1 s, 2 s, 4 s… up to 30 s, for as long as anything is subscribed.
 */
export class ResourceListen {
  private readonly uris = new Set<string>();
  private current: { handle: McpSubscription; uris: ReadonlySet<string> } | undefined;
  /** Listens are opened one at a time, in the order asked. */
  private turn: Promise<unknown> = Promise.resolve();
  private retry: ReturnType<typeof setTimeout> | undefined;
  private retryMs = FIRST_RETRY_MS;
  private disposed = false;

  constructor(
    private readonly client: Client,
    private readonly server: string,
    private readonly timeoutMs: () => number,
    private readonly log: Logger,
  ) {}

  /** Adds `uri` to the listen; why not, if the server did not take it (the set is as before then). */
  add(uri: string): Promise<string | undefined> {
    return this.queue(async () => {
      if (this.uris.has(uri)) return undefined;
      this.uris.add(uri);
      try {
        const honored = await this.relisten();
        if (honored && !honored.has(uri)) throw new Error('the server did not take it in its acknowledgement');
        return undefined;
      } catch (err) {
        this.uris.delete(uri);
        return `subscribing to <${uri}> on server "${this.server}" failed: ${errorMessage(err)}`;
      }
    });
  }

  /** Takes `uri` out of the listen (the last one closes it). */
  remove(uri: string): Promise<void> {
    return this.queue(async () => {
      if (!this.uris.delete(uri)) return;
      await this.relisten().catch((err: unknown) =>
        this.log.warn(`listening again without <${uri}> failed: ${errorMessage(err)}`),
      );
    });
  }

  private queue<T>(step: () => Promise<T>): Promise<T> {
    const next = this.turn.then(step, step);
    this.turn = next.catch(() => undefined);
    return next;
  }

  /** Opens a listen for the whole set (none when it is empty) and closes the one before; what the server took. */
  private async relisten(): Promise<ReadonlySet<string> | undefined> {
    const before = this.current;
    this.current = undefined;
    let honored: ReadonlySet<string> | undefined;
    if (this.uris.size && !this.disposed) {
      const uris = new Set(this.uris);
      const handle = await this.client.listen({ resourceSubscriptions: [...uris] }, { timeout: this.timeoutMs() });
      honored = new Set(handle.honoredFilter.resourceSubscriptions ?? []);
      const live = { handle, uris: honored };
      this.current = live;
      void handle.closed.then((how) => this.closed(live, how));
    }
    if (before) await before.handle.close().catch(() => undefined);
    return honored;
  }

  private closed(live: NonNullable<ResourceListen['current']>, how: 'local' | 'graceful' | 'remote'): void {
    if (this.current !== live || this.disposed) return;
    this.current = undefined;
    if (how === 'remote' && this.uris.size) this.listenAgain('dropped');
  }

  /** Listens again after the next wait of the backoff. */
  private listenAgain(why: string): void {
    const wait = this.retryMs;
    this.retryMs = Math.min(this.retryMs * 2, MAX_RETRY_MS);
    this.log.warn(`the listen for resource updates ${why}; listening again in ${wait / 1000} s`);
    this.retry = setTimeout(() => {
      this.retry = undefined;
      void this.queue(async () => {
        if (this.current || this.disposed || !this.uris.size) return;
        try {
          await this.relisten();
          this.retryMs = FIRST_RETRY_MS;
          this.log.info(`listening again for updates of ${this.uris.size} resource(s)`);
        } catch (err) {
          this.listenAgain(`could not be opened again (${errorMessage(err)})`);
        }
      });
    }, wait);
    this.retry.unref?.();
  }

  dispose(): void {
    this.disposed = true;
    clearTimeout(this.retry);
    const live = this.current;
    this.current = undefined;
    if (live) void live.handle.close().catch(() => undefined);
  }
}
