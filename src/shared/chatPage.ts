/** The chat page's markup (no script, no styles): shared by the extension's webview and the webview benchmark. */
export const CHAT_BODY = `<header>
  <select id="model" title="Model" aria-label="Model"></select>
  <button id="new-chat" title="New Chat">New</button>
  <button id="export" title="Export as Markdown">Export</button>
</header>
<div id="banner" hidden></div>
<div id="transcript" role="log" aria-live="polite"></div>
<footer>
  <textarea id="input" rows="2" placeholder="Ask MinAgent… (Enter to send, Shift+Enter for a new line)" aria-label="Message"></textarea>
  <button id="send" title="Send (Enter)">Send</button>
</footer>`;
