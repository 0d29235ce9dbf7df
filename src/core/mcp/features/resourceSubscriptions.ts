import type { Client, McpSubscription } from '@modelcontextprotocol/client';
import type { Disposable } from '../../base/event';
import { errorMessage } from '../../toolRegistry/toolRegistry';
import type { FeatureError, FeatureHost } from './featureTypes';
import { ResourceListen } from './resourceListen';

interface Subscription {
  count: number;
  opening: Promise<McpSubscription | undefined | FeatureError>;
}

/**
 * A server's resource subscriptions: `resources/subscribe` in the initialize era, one `subscriptions/listen` for all of
 * them in the 2026-07-28 one (resourceListen.ts). Counted per URI; the last dispose unsubscribes.
 */
export class ResourceSubscriptions implements Disposable {
  private readonly subscriptions = new Map<string, Subscription>();
  private listen: { client: Client; session: ResourceListen } | undefined;

  constructor(
    private readonly server: string,
    private readonly host: FeatureHost,
  ) {}

  /** Asks the server to say when a resource changes; the updates reach the client's handler. */
  async subscribe(uri: string): Promise<Disposable | FeatureError> {
    const client = this.host.client();
    if (!client) return { error: `server "${this.server}" is not connected` };
    if (!client.getServerCapabilities()?.resources?.subscribe)
      return { error: `server "${this.server}" does not offer resource subscriptions` };
    let sub = this.subscriptions.get(uri);
    if (!sub) {
      sub = { count: 0, opening: this.open(client, uri) };
      this.subscriptions.set(uri, sub);
    }
    const held = sub;
    held.count++;
    const opened = await held.opening;
    if (opened && 'error' in opened) {
      if (--held.count === 0 && this.subscriptions.get(uri) === held) this.subscriptions.delete(uri);
      return opened;
    }
    let disposed = false;
    return {
      dispose: () => {
        if (disposed) return;
        disposed = true;
        if (--held.count > 0 || this.subscriptions.get(uri) !== held) return;
        this.subscriptions.delete(uri);
        void this.close(client, uri, opened);
      },
    };
  }

  /** The one listen of this connection's resource subscriptions (2026-07-28), made anew for a new connection. */
  private listenOf(client: Client): ResourceListen {
    if (this.listen?.client !== client) {
      this.listen?.session.dispose();
      this.listen = {
        client,
        session: new ResourceListen(client, this.server, () => this.host.timeoutMs(), this.host.log),
      };
    }
    return this.listen.session;
  }

  private async open(client: Client, uri: string): Promise<McpSubscription | undefined | FeatureError> {
    try {
      if (client.getProtocolEra() === 'modern') {
        const refused = await this.listenOf(client).add(uri);
        return refused ? { error: this.host.redact ? this.host.redact(refused) : refused } : undefined;
      }
      await client.subscribeResource({ uri }, { timeout: this.host.timeoutMs() });
      return undefined;
    } catch (err) {
      return { error: `subscribing to <${uri}> on server "${this.server}" failed: ${await this.host.describe(err)}` };
    }
  }

  private async close(client: Client, uri: string, handle: McpSubscription | undefined): Promise<void> {
    try {
      if (handle) await handle.close();
      else if (this.listen?.client === client) await this.listen.session.remove(uri);
      else if (this.host.client() === client && client.getProtocolEra() !== 'modern')
        await client.unsubscribeResource({ uri }, { timeout: this.host.timeoutMs() });
    } catch (err) {
      this.host.log.warn(`unsubscribing from <${uri}> failed: ${errorMessage(err)}`);
    }
  }

  dispose(): void {
    this.listen?.session.dispose();
    this.listen = undefined;
    this.subscriptions.clear();
  }
}
