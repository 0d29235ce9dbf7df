import * as vscode from 'vscode';
import type { Disposable as CoreDisposable } from '../../core/base/event';
import type { Logger } from '../../core/base/logger';
import { isFeatureError, type FeatureError, type ReadResourceResult } from '../../core/mcp/features/featureTypes';
import type { HubCatalog } from '../../core/mcp/hub/catalog';
import { formatBytes, languageFor, resourceView } from '../../core/mcp/features/resourceView';
import type { CardResource } from '../../shared/protocol';
import { imageHtml, type ImageView } from './imageHtml';
import { parseResourceDocUri, refKey, resourceDocUri, RESOURCE_SCHEME, type ResourceRef } from './docUri';

interface Watch {
  /** Open documents and previews of this resource. */
  docs: Map<string, vscode.Uri>;
  previews: Set<vscode.WebviewPanel>;
  subscription: Promise<CoreDisposable | FeatureError>;
  /** The server's identity object when subscribed: a new one means a new session (a restart). */
  session: unknown;
}

/**
 * A server's resources as read-only documents (`minagent-resource:`): text in its language, an
 * image in a preview, binary as a size note. While a document or preview is open the resource is
 * subscribed to, and a `notifications/resources/updated` reads it again.
 */
export class ResourceDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly watches = new Map<string, Watch>();
  /** A read made just before opening, used once by the provider (so opening reads once). */
  private readonly fresh = new Map<string, ReadResourceResult | FeatureError>();
  private readonly languages = new Map<string, string>();
  /** Embedded copies from tool results, by document URI. */
  private readonly embedded = new Map<string, { text: string; language: string }>();
  private nextEmbedded = 1;
  private readonly disposables: vscode.Disposable[];

  constructor(
    private readonly catalog: HubCatalog,
    private readonly log: Logger,
  ) {
    const updates = catalog.onDidUpdateResource((ref) => void this.updated(ref));
    const lists = catalog.onDidChangeResources(() => this.resubscribe());
    this.disposables = [
      { dispose: () => lists.dispose() },
      vscode.workspace.registerTextDocumentContentProvider(RESOURCE_SCHEME, this),
      { dispose: () => updates.dispose() },
      vscode.workspace.onDidCloseTextDocument((doc) => {
        const ref = parseResourceDocUri(doc.uri);
        if (ref?.embedded !== undefined) this.embedded.delete(doc.uri.toString());
        else if (ref) this.unwatch(ref, { doc: doc.uri });
      }),
    ];
  }

  /** Reads a resource and shows it: an image in a preview, anything else as a read-only document. */
  async open(ref: ResourceRef, label?: string): Promise<void> {
    const result = await this.catalog.readResource(ref.server, ref.uri);
    const title = label ?? ref.uri;
    if (!isFeatureError(result)) {
      const view = resourceView(result);
      if (view.kind === 'image') {
        const panel = showImagePreview(title, view);
        this.watch(ref, { preview: panel });
        panel.onDidDispose(() => this.unwatch(ref, { preview: panel }));
        return;
      }
    }
    const uri = resourceDocUri(ref, label);
    // An open document reads again (its provider is not asked by openTextDocument); a new one uses this read.
    if (vscode.workspace.textDocuments.some((d) => d.uri.toString() === uri.toString())) this.changed.fire(uri);
    else this.fresh.set(uri.toString(), result);
    await this.show(uri, () => this.languages.get(uri.toString()));
  }

  /** Opens and shows a document; its language is known once the provider has read it. */
  private async show(uri: vscode.Uri, languageOf: () => string | undefined): Promise<void> {
    let doc = await vscode.workspace.openTextDocument(uri);
    this.fresh.delete(uri.toString());
    const language = languageOf();
    if (language && doc.languageId !== language) {
      // A language no extension provides stays plain text.
      doc = await vscode.languages.setTextDocumentLanguage(doc, language).then(
        (d) => d,
        () => doc,
      );
    }
    await vscode.window.showTextDocument(doc, { preview: true });
  }

  /** Shows the copy of a resource a tool result embedded (what the model got), read-only. */
  async openEmbedded(resource: CardResource): Promise<void> {
    const uri = resourceDocUri(
      { server: resource.server, uri: resource.uri, embedded: String(this.nextEmbedded++) },
      resource.label,
    );
    const language = languageFor(resource.mimeType, resource.uri);
    const text =
      resource.text !== undefined
        ? resource.text
        : `(binary data${resource.mimeType ? ` of type ${resource.mimeType}` : ''}${resource.size !== undefined ? `: ${formatBytes(resource.size)}` : ''}; not shown)`;
    this.embedded.set(uri.toString(), { text, language: resource.text !== undefined ? language : 'plaintext' });
    await this.show(uri, () => this.embedded.get(uri.toString())?.language);
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const ref = parseResourceDocUri(uri);
    if (!ref) return 'This is not a MinAgent resource.';
    const key = uri.toString();
    if (ref.embedded !== undefined)
      return (
        this.embedded.get(key)?.text ??
        `(the copy of <${ref.uri}> that a tool result embedded is no longer held; open it from its tool card again)`
      );
    this.watch(ref, { doc: uri });
    const result = this.fresh.get(key) ?? (await this.catalog.readResource(ref.server, ref.uri));
    this.fresh.delete(key);
    if (isFeatureError(result)) return `Could not read <${ref.uri}> from server "${ref.server}": ${result.error}`;
    const view = resourceView(result);
    if (view.kind === 'image') return `(an image, ${view.mimeType}: open it from the Resources view to see it)`;
    this.languages.set(key, view.language);
    return view.text;
  }

  private watch(ref: ResourceRef, what: { doc?: vscode.Uri; preview?: vscode.WebviewPanel }): void {
    const key = refKey(ref);
    let w = this.watches.get(key);
    if (!w) {
      w = {
        docs: new Map(),
        previews: new Set(),
        subscription: this.follow(ref),
        session: this.catalog.serverInfo(ref.server),
      };
      this.watches.set(key, w);
    }
    if (what.doc) w.docs.set(what.doc.toString(), what.doc);
    if (what.preview) w.previews.add(what.preview);
  }

  private follow(ref: ResourceRef): Promise<CoreDisposable | FeatureError> {
    const subscription = this.catalog.subscribe(ref.server, ref.uri);
    void subscription.then(
      (s) => isFeatureError(s) && this.log.info(`not following changes of <${ref.uri}>: ${s.error}`),
    );
    return subscription;
  }

  /** A subscription ends with its server's session: after a restart, open resources subscribe again and read again. */
  private resubscribe(): void {
    for (const [key, w] of this.watches) {
      const [server, uri] = JSON.parse(key) as [string, string];
      const session = this.catalog.serverInfo(server);
      if (!session || session === w.session) continue;
      w.session = session;
      void w.subscription.then((s) => !isFeatureError(s) && s.dispose());
      w.subscription = this.follow({ server, uri });
      void this.updated({ server, uri });
    }
  }

  private unwatch(ref: ResourceRef, what: { doc?: vscode.Uri; preview?: vscode.WebviewPanel }): void {
    const key = refKey(ref);
    const w = this.watches.get(key);
    if (!w) return;
    if (what.doc) {
      w.docs.delete(what.doc.toString());
      this.languages.delete(what.doc.toString());
    }
    if (what.preview) w.previews.delete(what.preview);
    if (w.docs.size || w.previews.size) return;
    this.watches.delete(key);
    void w.subscription.then((s) => !isFeatureError(s) && s.dispose());
  }

  /** The server says a subscribed resource changed: open documents read it again, previews redraw. */
  private async updated(ref: ResourceRef): Promise<void> {
    const w = this.watches.get(refKey(ref));
    if (!w) return;
    for (const doc of w.docs.values()) this.changed.fire(doc);
    if (!w.previews.size) return;
    const result = await this.catalog.readResource(ref.server, ref.uri);
    if (isFeatureError(result)) return;
    const view = resourceView(result);
    if (view.kind === 'image') for (const panel of w.previews) showImagePreview(panel.title, view, panel);
  }

  dispose(): void {
    for (const w of this.watches.values()) void w.subscription.then((s) => !isFeatureError(s) && s.dispose());
    this.watches.clear();
    for (const d of this.disposables) d.dispose();
    this.changed.dispose();
  }
}

/**
 * An image resource in an editor tab: a webview without scripts whose CSP allows only `data:`
 * images and its own inline style; the image is an `<img>` (an SVG's script never runs there).
 */
function showImagePreview(title: string, view: ImageView, existing?: vscode.WebviewPanel): vscode.WebviewPanel {
  const panel =
    existing ??
    vscode.window.createWebviewPanel('minagent.resourceImage', title, vscode.ViewColumn.Active, {
      enableScripts: false,
      localResourceRoots: [],
    });
  panel.webview.html = imageHtml(title, view);
  return panel;
}
