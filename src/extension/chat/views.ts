import * as vscode from 'vscode';
import type { ChatRouter } from '../../core/chat/router';
import type { HostMessage } from '../../shared/protocol';
import { chatHtml, webviewOptions } from './html';

export const PANEL_TYPE = 'minagent.chatPanel';
export const VIEW_ID = 'minagent.chat';

/** Called when a view's page is ready, with what posts to that page (it can take the focus then). */
export type OnReady = (post: (m: HostMessage) => void) => void;

/** Where the chat's apps are served from (known once the app server listens), or undefined without apps. */
export type AppOrigin = Promise<string | undefined>;

/** Connects one webview to the router; it receives state once it says `ready`. */
function connect(
  webview: vscode.Webview,
  extensionUri: vscode.Uri,
  router: ChatRouter,
  appOrigin: AppOrigin,
  onReady?: OnReady,
): vscode.Disposable {
  webview.options = webviewOptions(extensionUri);
  // The page's policy names the apps' origin: the page loads once it is known (the listeners are in place by then).
  void appOrigin.then((origin) => (webview.html = chatHtml(webview, extensionUri, origin)));
  let ready = false;
  const post = (m: HostMessage) => {
    if (ready || m.type === 'reply') void webview.postMessage(m);
  };
  const attached = router.attach(post);
  const listener = webview.onDidReceiveMessage((m: unknown) => {
    // Only opens the channel; the router checks the message itself.
    if ((m as { type?: unknown } | undefined)?.type === 'ready' && !ready) {
      ready = true;
      onReady?.(post);
    }
    void router.handle(m, post);
  });
  return vscode.Disposable.from(attached, listener);
}

/** The chat in the MinAgent sidebar, beside the Tools tree. */
export class ChatViewProvider implements vscode.WebviewViewProvider {
  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly router: ChatRouter,
    private readonly appOrigin: AppOrigin,
    private readonly onReady?: OnReady,
  ) {}

  resolveWebviewView(view: vscode.WebviewView): void {
    const connection = connect(view.webview, this.extensionUri, this.router, this.appOrigin, this.onReady);
    view.onDidDispose(() => connection.dispose());
  }
}

/** The same conversation in an editor tab; restored after a reload by the serializer. */
export class ChatPanels implements vscode.WebviewPanelSerializer, vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly router: ChatRouter,
    private readonly appOrigin: AppOrigin,
  ) {}

  open(): void {
    if (this.panel) {
      this.panel.reveal();
      return;
    }
    this.adopt(
      vscode.window.createWebviewPanel(PANEL_TYPE, 'MinAgent Chat', vscode.ViewColumn.Active, {
        retainContextWhenHidden: true,
      }),
    );
  }

  async deserializeWebviewPanel(panel: vscode.WebviewPanel): Promise<void> {
    this.adopt(panel);
  }

  private adopt(panel: vscode.WebviewPanel): void {
    this.panel = panel;
    panel.iconPath = vscode.Uri.joinPath(this.extensionUri, 'media', 'minagent.svg');
    const connection = connect(panel.webview, this.extensionUri, this.router, this.appOrigin);
    panel.onDidDispose(() => {
      connection.dispose();
      if (this.panel === panel) this.panel = undefined;
    });
  }

  dispose(): void {
    this.panel?.dispose();
  }
}
