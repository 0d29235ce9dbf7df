import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { CHAT_BODY } from '../../shared/chatPage';

/** The chat page: a strict CSP with a per-load nonce; scripts and styles only from the extension. */
export function chatHtml(webview: vscode.Webview, extensionUri: vscode.Uri, appOrigin?: string): string {
  const nonce = randomBytes(16).toString('base64');
  const script = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'webview.js'));
  const style = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'media', 'chat.css'));
  const promptStyle = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'media', 'prompts.css'));
  const csp = [
    "default-src 'none'",
    `style-src ${webview.cspSource}`,
    `script-src 'nonce-${nonce}'`,
    `img-src ${webview.cspSource} data:`,
    `font-src ${webview.cspSource}`,
    // MCP Apps: each app's document comes from the host's loopback app server, with a policy of its own.
    ...(appOrigin ? [`frame-src ${appOrigin}`] : []),
  ].join('; ');
  const head = `<link rel="stylesheet" href="${style}">\n<link rel="stylesheet" href="${promptStyle}">\n<title>MinAgent Chat</title>`;
  return webviewPage(
    csp,
    head,
    `<body hidden>\n${CHAT_BODY}\n<script nonce="${nonce}" src="${script}"></script>\n</body>`,
  );
}

/** A webview's document: its policy, what goes in its head, and its body. */
export function webviewPage(csp: string, head: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
${head}
</head>
${body}
</html>`;
}

export function webviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions {
  return {
    enableScripts: true,
    localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist'), vscode.Uri.joinPath(extensionUri, 'media')],
  };
}
