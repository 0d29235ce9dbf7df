// The page of an app's editor tab: one app, framed as in the chat (sandboxed to scripts alone), with
// its messages relayed to the host and back. The host serves the app once the page says how it looks.
import { parseAppTabMessage, type AppTabRequest } from '../shared/appTabProtocol';
import { parseAppMessage } from '../shared/validateApps';
import { appIframe, appLook, onThemeChange } from './appLook';

declare function acquireVsCodeApi(): { postMessage(message: unknown): void };
const vscode = acquireVsCodeApi();
const send = (request: AppTabRequest) => vscode.postMessage(request);
const look = () => appLook('--vscode-editor-background');
const status = document.getElementById('status')!;
let iframe: HTMLIFrameElement | undefined;

window.addEventListener('message', (event: MessageEvent<unknown>) => {
  if (iframe && event.source === iframe.contentWindow) {
    const message = parseAppMessage(event.data);
    if (message) send({ type: 'appMessage', message });
    return;
  }
  // Only the host's own messages (the webview's origin); anything else framed or opened is ignored.
  if (event.origin !== window.origin) return;
  const m = parseAppTabMessage(event.data);
  if (m?.type === 'appMessage') iframe?.contentWindow?.postMessage(m.message, '*');
  else if (m?.type === 'appFrame') {
    if (!m.url) {
      status.textContent = m.error ?? 'The app could not be shown.';
      return;
    }
    iframe = appIframe(m.url, document.title);
    status.replaceWith(iframe);
  }
});

onThemeChange(() => send({ type: 'appLook', look: look() }));
let resized: ReturnType<typeof setTimeout> | undefined;
window.addEventListener('resize', () => {
  clearTimeout(resized);
  resized = setTimeout(() => send({ type: 'appLook', look: look() }), 200);
});
send({ type: 'appReady', look: look() });
