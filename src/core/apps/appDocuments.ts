import type { Disposable } from '../base/event';
import { isFeatureError, type FeatureError, type ReadResourceResult } from '../mcp/features/featureTypes';
import { appCsp, appCspDomains, withinSandbox } from './appCsp';
import { APP_MIME_TYPE } from './appMeta';
import { guardedHtml } from './appGuard';

/** An app's HTML as read from its server, with the policy it is served under. */
export interface AppDocument {
  server: string;
  uri: string;
  html: string;
  csp: string;
  /** Whether the app declared it writes to the clipboard (`_meta.ui.permissions.clipboardWrite`). */
  clipboardWrite: boolean;
  /** What was dropped from its declared policy, for the server's log. */
  dropped: string[];
}

/** What reading an app needs: the server's resources, and their update notifications. */
export interface AppSource {
  readResource(server: string, uri: string): Promise<ReadResourceResult | FeatureError>;
  onDidUpdateResource(listener: (e: { server: string; uri: string }) => void): Disposable;
  /** The hosts the server's sandbox may reach, when it runs in one (its apps reach no others). */
  sandboxDomains?(server: string): readonly string[] | undefined;
}

/**
 * Each app's document, read once per server and URI and kept until the server says it changed
 * (`resources/updated`); a failed read is not kept. A read that fails says why, naming the server
 * and the URI.
 */
export class AppDocuments implements Disposable {
  private readonly cache = new Map<string, Promise<AppDocument | FeatureError>>();
  private readonly updates: Disposable;

  constructor(private readonly source: AppSource) {
    this.updates = source.onDidUpdateResource(({ server, uri }) => this.cache.delete(key(server, uri)));
  }

  get(server: string, uri: string): Promise<AppDocument | FeatureError> {
    const k = key(server, uri);
    let doc = this.cache.get(k);
    if (!doc) {
      doc = this.read(server, uri);
      this.cache.set(k, doc);
      void doc.then((d) => isFeatureError(d) && this.cache.get(k) === doc && this.cache.delete(k));
    }
    return doc;
  }

  /** Forgets a server's documents (its entry changed or it restarted). */
  forgetServer(server: string): void {
    for (const k of [...this.cache.keys()]) if (k.startsWith(`${server}\n`)) this.cache.delete(k);
  }

  private async read(server: string, uri: string): Promise<AppDocument | FeatureError> {
    const result = await this.source.readResource(server, uri);
    if (isFeatureError(result))
      return { error: `the app of server "${server}" (${uri}) could not be read: ${result.error}` };
    const content = result.contents.find((c) => c.uri === uri) ?? result.contents[0];
    const fail = (why: string): FeatureError => ({
      error: `the app of server "${server}" (${uri}) ${why}; its result is shown as text`,
    });
    if (!content) return fail('came back empty');
    const mime = (content.mimeType ?? '').replace(/\s+/g, '').toLowerCase();
    if (mime !== APP_MIME_TYPE && !mime.startsWith('text/html'))
      return fail(
        `is ${content.mimeType ? `of type "${content.mimeType.slice(0, 60)}"` : 'without a type'}, not ${APP_MIME_TYPE}`,
      );
    // A read keeps at most 1 MB of text (the official examples are about 200 KB): a larger app is not cut, it is
    // refused.
    if (content.truncated) return fail(`is ${Math.round(content.truncated.total / 1024)} KB, more than an app may be`);
    const html =
      content.text ?? (content.blob !== undefined ? Buffer.from(content.blob, 'base64').toString('utf8') : undefined);
    if (html === undefined) return fail('has no text');
    const ui = uiMeta(content.meta);
    const declared = appCspDomains(ui?.csp);
    const sandboxed = this.source.sandboxDomains?.(server);
    const bounded = sandboxed ? withinSandbox(declared.domains, sandboxed) : { domains: declared.domains, dropped: [] };
    const domains = bounded.domains;
    const dropped = [...declared.dropped, ...bounded.dropped];
    const permissions =
      typeof ui?.permissions === 'object' && ui.permissions !== null ? (ui.permissions as Record<string, unknown>) : {};
    // Its own script first: WebRTC closed, and unless it declares frames, no frame of its own (appGuard.ts).
    return {
      server,
      uri,
      html: guardedHtml(html, domains.frameDomains.length > 0),
      csp: appCsp(domains),
      clipboardWrite: permissions.clipboardWrite !== undefined && permissions.clipboardWrite !== false,
      dropped,
    };
  }

  dispose(): void {
    this.updates.dispose();
    this.cache.clear();
  }
}

function key(server: string, uri: string): string {
  return `${server}\n${uri}`;
}

function uiMeta(meta: unknown): Record<string, unknown> | undefined {
  const ui = typeof meta === 'object' && meta !== null ? (meta as Record<string, unknown>).ui : undefined;
  return typeof ui === 'object' && ui !== null && !Array.isArray(ui) ? (ui as Record<string, unknown>) : undefined;
}
