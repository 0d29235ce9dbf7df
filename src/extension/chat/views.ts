import * as vscode from 'vscode';
import type { HostMessage, WebviewMessage } from '../../shared/protocol';
import type { ChatController } from './controller';
import { chatHtml, webviewOptions } from './html';

export const PANEL_TYPE = 'minagent.chatPanel';
export const VIEW_ID = 'minagent.chat';

/** Connects one webview to the controller; it receives state once it says `ready`. */
function connect(webview: vscode.Webview, extensionUri: vscode.Uri, controller: ChatController): vscode.Disposable {
  webview.options = webviewOptions(extensionUri);
  webview.html = chatHtml(webview, extensionUri);
  let ready = false;
  const post = (m: HostMessage) => {
    if (ready || m.type === 'reply') void webview.postMessage(m);
  };
  const attached = controller.attach(post);
  const listener = webview.onDidReceiveMessage((m: WebviewMessage) => {
    if (m.type === 'ready') ready = true;
    void controller.handle(m, post);
  });
  return vscode.Disposable.from(attached, listener);
}

/** The chat in the MinAgent sidebar, beside the Tools tree. */
export class ChatViewProvider implements vscode.WebviewViewProvider {
  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly controller: ChatController,
  ) {}

  resolveWebviewView(view: vscode.WebviewView): void {
    const connection = connect(view.webview, this.extensionUri, this.controller);
    view.onDidDispose(() => connection.dispose());
  }
}

/** The same conversation in an editor tab; restored after a reload by the serializer. */
export class ChatPanels implements vscode.WebviewPanelSerializer, vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly controller: ChatController,
  ) {}

  open(): void {
    if (this.panel) {
      this.panel.reveal();
      return;
    }
    this.adopt(vscode.window.createWebviewPanel(PANEL_TYPE, 'MinAgent Chat', vscode.ViewColumn.Active, { retainContextWhenHidden: true }));
  }

  async deserializeWebviewPanel(panel: vscode.WebviewPanel): Promise<void> {
    this.adopt(panel);
  }

  private adopt(panel: vscode.WebviewPanel): void {
    this.panel = panel;
    panel.iconPath = vscode.Uri.joinPath(this.extensionUri, 'media', 'minagent.svg');
    const connection = connect(panel.webview, this.extensionUri, this.controller);
    panel.onDidDispose(() => {
      connection.dispose();
      if (this.panel === panel) this.panel = undefined;
    });
  }

  dispose(): void {
    this.panel?.dispose();
  }
}
