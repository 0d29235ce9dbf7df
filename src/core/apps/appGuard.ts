/**
 * The first script of every app's page (THREATS.md, class 7: the browser's exits beyond
 * `connect-src`). No Content-Security-Policy directive covers WebRTC, so an app could send what it
 * shows to any address in a TURN username or an ICE candidate. This script runs before any of the
 * app's own and:
 *
 * - takes WebRTC's constructors (and XSLT, which builds documents no other check sees) away from
 *   the page;
 * - unless the app's resource declares frame origins, refuses every way to make a frame of its own:
 *   the app cannot reach into such a frame (the sandbox gives each document an origin of its own),
 *   but the frame runs its own inline script (`srcdoc="<script>…"`) in a fresh window, which has
 *   WebRTC. `createElement`/`createElementNS` refuse frame elements; every
 *   string that becomes HTML passes a Trusted Types default policy that makes frame tags text (the
 *   page's policy requires Trusted Types, and a policy the app makes of its own is wrapped the same
 *   way); `document.write` (which parses in pieces no policy sees whole), streaming HTML, documents
 *   fetched as XML and customized built-in frames are refused; a frame element in the page as
 *   served is removed before the app's next script runs.
 *
 * An app whose resource declares frame origins keeps its frames, and with them a way to WebRTC: the
 * consent dialog and docs/SECURITY.md say so.
 *
 * It is sent to the page as it is written here, plain JavaScript (a compiled function's text would
 * carry the compiler's helpers, which the page does not have); `FRAMEABLE` is replaced.
 */
const GUARD_SOURCE = `(function minagentAppGuard(frameable) {
  'use strict';
  const refuse = (what) => {
    throw new DOMException('MinAgent: ' + what + ' is not allowed in an app', 'NotSupportedError');
  };
  const seal = (target, name, value) => Object.defineProperty(target, name, { value, writable: false, configurable: false });
  // Interface objects are reachable only as the window's own properties (no instance exists yet).
  for (const name of ['RTCPeerConnection', 'webkitRTCPeerConnection', 'RTCIceTransport', 'RTCDataChannel', 'RTCSctpTransport', 'RTCDtlsTransport', 'RTCRtpSender', 'RTCRtpReceiver', 'RTCRtpTransceiver', 'RTCRtpScriptTransform', 'XSLTProcessor']) {
    delete window[name];
  }
  if (frameable) return;

  const FRAME = /^(iframe|frame|frameset|object|embed|portal|fencedframe)$/i;
  // A frame's start tag wherever HTML or XML is parsed (<iframe, <h:iframe): made text.
  const FRAME_TAG = /<([A-Za-z_][\\w.-]*:)?(iframe|frame|frameset|object|embed|portal|fencedframe)(?![\\w.:-])/gi;
  const clean = (html) => String(html).replace(FRAME_TAG, '&lt;$1$2');

  const createElement = Document.prototype.createElement;
  seal(Document.prototype, 'createElement', function (name, options) {
    const n = String(name);
    if (FRAME.test(n) || (options && typeof options === 'object' && FRAME.test(String(options.is)))) refuse('a <' + n + '> of its own');
    return createElement.call(this, n, options);
  });
  const createElementNS = Document.prototype.createElementNS;
  seal(Document.prototype, 'createElementNS', function (ns, name, options) {
    const n = String(name);
    if (FRAME.test(n.slice(n.indexOf(':') + 1))) refuse('a <' + n + '> of its own');
    return createElementNS.call(this, ns, n, options);
  });
  const define = CustomElementRegistry.prototype.define;
  seal(CustomElementRegistry.prototype, 'define', function (name, ctor, options) {
    if (options && typeof options === 'object' && FRAME.test(String(options.extends))) refuse('a frame element of its own');
    return define.call(this, name, ctor, options);
  });
  for (const name of ['write', 'writeln']) seal(Document.prototype, name, () => refuse('document.' + name));
  for (const proto of [Element.prototype, typeof ShadowRoot === 'function' ? ShadowRoot.prototype : undefined]) {
    if (!proto) continue;
    for (const name of Object.getOwnPropertyNames(proto)) if (/^stream\\w*HTML/i.test(name)) seal(proto, name, () => refuse(name));
  }
  const responseType = Object.getOwnPropertyDescriptor(XMLHttpRequest.prototype, 'responseType');
  if (responseType && responseType.set) {
    Object.defineProperty(XMLHttpRequest.prototype, 'responseType', {
      get: responseType.get,
      set(value) {
        if (String(value) === 'document') refuse('a document fetched as XML');
        responseType.set.call(this, value);
      },
      configurable: false,
    });
  }
  Object.defineProperty(XMLHttpRequest.prototype, 'responseXML', { get: () => null, configurable: false });

  const tt = window.trustedTypes;
  if (tt) {
    const createPolicy = tt.createPolicy;
    const pass = (s) => s;
    createPolicy.call(tt, 'default', { createHTML: clean, createScript: pass, createScriptURL: pass });
    // A policy the app makes of its own makes HTML the same way.
    seal(Object.getPrototypeOf(tt), 'createPolicy', function (name, rules) {
      const own = rules && rules.createHTML;
      return createPolicy.call(this, name, Object.assign({}, rules, own ? { createHTML: (input, ...args) => clean(own(input, ...args)) } : {}));
    });
  }

  // A frame in the page as served: gone before the app's next script runs (mutation records are
  // delivered at the microtask checkpoint the parser makes before each script).
  new MutationObserver((records) => {
    for (const r of records) {
      for (const node of Array.from(r.addedNodes)) {
        if (!(node instanceof Element)) continue;
        const frames = FRAME.test(node.localName) ? [node] : Array.from(node.querySelectorAll('iframe, frame, frameset, object, embed, portal, fencedframe'));
        for (const f of frames) f.remove();
      }
    }
  }).observe(document, { childList: true, subtree: true });
})(FRAMEABLE);`;

/** The `<script>` that runs `minagentAppGuard` first in an app's page, and the HTML with it in front. */
export function guardedHtml(html: string, frameable: boolean): string {
  const script = `<script>${GUARD_SOURCE.replace('FRAMEABLE', String(frameable))}</script>`;
  // After a doctype (before it, the page would be in quirks mode); else first.
  const doctype = /^\s*<!doctype[^>]*>/i.exec(html);
  return doctype ? `${doctype[0]}${script}${html.slice(doctype[0].length)}` : `${script}${html}`;
}

/** What an app's policy adds so that every string that becomes HTML passes the guard's default policy. */
export const TRUSTED_TYPES_DIRECTIVES = ["require-trusted-types-for 'script'", 'trusted-types default *'];
