import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { webviewPage } from '../chat/html';
import { parseAppTabRequest, type AppTabMessage, type AppTabRequest } from '../../shared/appTabProtocol';

/** An app's editor tab, as its owner drives it. */
export interface AppTab extends vscode.Disposable {
  post(message: AppTabMessage): void;
  reveal(): void;
}

/**
 * An editor tab beside the chat that frames one app (a bigger canvas than its card): a webview whose
 * own policy runs only its relay script and frames only the apps' origin. What the page sends is
 * checked before `onRequest` sees it; `onClose` runs once, when the user closes the tab or it is
 * disposed.
 */
export function openAppTab(
  extensionUri: vscode.Uri,
  appOrigin: string,
  title: string,
  onRequest: (request: AppTabRequest) => void,
  onClose: () => void,
): AppTab {
  const panel = vscode.window.createWebviewPanel(
    'minagent.app',
    title,
    { viewColumn: vscode.ViewColumn.Beside, preserveFocus: false },
    {
      enableScripts: true,
      // The app's own state lives in its frame: hiding the tab must not reload it.
      retainContextWhenHidden: true,
      localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist')],
    },
  );
  panel.webview.html = appTabHtml(panel.webview, extensionUri, appOrigin);
  const listener = panel.webview.onDidReceiveMessage((m: unknown) => {
    const request = parseAppTabRequest(m);
    if (request) onRequest(request);
  });
  panel.onDidDispose(() => {
    listener.dispose();
    onClose();
  });
  return {
    post: (message) => void panel.webview.postMessage(message),
    reveal: () => panel.reveal(),
    dispose: () => panel.dispose(),
  };
}

function appTabHtml(webview: vscode.Webview, extensionUri: vscode.Uri, appOrigin: string): string {
  const nonce = randomBytes(16).toString('base64');
  const script = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'appTab.js'));
  const csp = [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src 'nonce-${nonce}'`,
    `frame-src ${appOrigin}`,
  ].join('; ');
  const style = `<style nonce="${nonce}">
html, body { height: 100%; margin: 0; padding: 0; overflow: hidden; background: var(--vscode-editor-background); color: var(--vscode-descriptionForeground); font-family: var(--vscode-font-family); }
iframe { display: block; width: 100%; height: 100%; border: 0; }
#status { padding: 12px; font-style: italic; }
</style>
<title>App</title>`;
  return webviewPage(
    csp,
    style,
    `<body>\n<div id="status">Loading the app…</div>\n<script nonce="${nonce}" src="${script}"></script>\n</body>`,
  );
}
