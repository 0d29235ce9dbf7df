/** The chat page's markup (no script, no styles): shared by the extension's webview and the webview benchmark. */
export const CHAT_BODY = `<header>
  <select id="model" title="Model" aria-label="Model"></select>
</header>
<div id="banner" hidden></div>
<div id="transcript" role="log" aria-live="off" aria-label="Conversation"></div>
<div id="announce-polite" class="visually-hidden" role="status" aria-live="polite" aria-atomic="true"></div>
<div id="announce-alert" class="visually-hidden" role="alert" aria-atomic="true"></div>
<div id="app-pip" hidden aria-label="Pinned app"></div>
<div id="budget" hidden>
  <button id="budget-meter" class="link" aria-expanded="false" aria-controls="budget-details">
    <span class="budget-bar" aria-hidden="true"><span class="seg seg-system"></span><span class="seg seg-tools"></span><span class="seg seg-history"></span><span class="seg seg-message"></span><span class="seg-free"></span><span class="seg seg-reserve"></span></span>
    <span id="budget-label"></span>
  </button>
  <div id="budget-details" hidden></div>
</div>
<div id="attachments" hidden aria-label="Attached to the next message"></div>
<footer>
  <textarea id="input" rows="2" placeholder="Ask MinAgent… (Enter to send, Shift+Enter for a new line)" aria-label="Message"></textarea>
  <button id="send" title="Send (Enter)">Send</button>
</footer>`;
