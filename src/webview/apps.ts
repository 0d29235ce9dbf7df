import type { AppLook, HostMessage, ToolCard, WebviewRequest } from '../shared/protocol';
import { parseAppMessage } from '../shared/validateApps';

/** The height an app starts at, until it says how tall it is. */
const FIRST_HEIGHT = 160;

interface Frame {
  host: HTMLElement;
  iframe?: HTMLIFrameElement;
}

/**
 * The apps in the chat's cards: a frame per card whose tool has an app, loaded from the address the
 * host serves it at, sandboxed (scripts only: no same origin, no top navigation, no popups, no
 * forms), and a relay of the app's JSON-RPC messages to the host and back. A message counts as the
 * app's only when it comes from that frame's own window.
 */
export class AppFrames {
  private readonly frames = new Map<string, Frame>();

  constructor(private readonly send: (request: WebviewRequest) => void) {
    window.addEventListener('message', (event: MessageEvent<unknown>) => {
      for (const [callId, frame] of this.frames) {
        if (!frame.iframe || event.source !== frame.iframe.contentWindow) continue;
        const message = parseAppMessage(event.data);
        if (message) this.send({ type: 'appMessage', callId, message });
        return;
      }
    });
    // VS Code's theme is the body's class: apps get the new look when it changes.
    new MutationObserver(() => this.frames.size && this.send({ type: 'appLook', look: look() })).observe(document.body, { attributes: true, attributeFilter: ['class'] });
  }

  /** A card was rendered: its app goes under it (once the call is done and its result was kept). */
  attach(card: ToolCard, cardEl: HTMLElement): void {
    if (!card.app?.result || card.status !== 'done') return;
    let frame = this.frames.get(card.callId);
    if (!frame) {
      frame = { host: document.createElement('div') };
      frame.host.className = 'app-host';
      frame.host.textContent = 'Loading the app…';
      this.frames.set(card.callId, frame);
      this.send({ type: 'appOpen', callId: card.callId, look: look() });
    }
    cardEl.append(frame.host);
  }

  /** A host message about an app. */
  handle(m: Extract<HostMessage, { type: 'appFrame' | 'appMessage' | 'appSize' }>): void {
    if (m.type === 'appFrame') this.show(m.callId, m.url, m.error);
    else if (m.type === 'appMessage') this.deliver(m.callId, m.message);
    else this.resize(m.callId, m.height);
  }

  /** The host's answer to `appOpen`: the app's address, or why there is none. */
  private show(callId: string, url: string | undefined, error: string | undefined): void {
    const frame = this.frames.get(callId);
    if (!frame) return;
    if (!url) {
      frame.host.textContent = error ?? 'The app could not be shown.';
      frame.host.classList.add('app-error');
      return;
    }
    const iframe = document.createElement('iframe');
    iframe.setAttribute('sandbox', 'allow-scripts');
    iframe.setAttribute('referrerpolicy', 'no-referrer');
    iframe.setAttribute('title', 'App');
    iframe.style.height = `${FIRST_HEIGHT}px`;
    iframe.src = url;
    frame.iframe = iframe;
    frame.host.replaceChildren(iframe);
  }

  /** A message from the host's side of the bridge, for the app. Its origin is opaque: only `*` reaches it. */
  private deliver(callId: string, message: Record<string, unknown>): void {
    this.frames.get(callId)?.iframe?.contentWindow?.postMessage(message, '*');
  }

  private resize(callId: string, height: number): void {
    const iframe = this.frames.get(callId)?.iframe;
    if (iframe) iframe.style.height = `${height}px`;
  }

  /** The transcript was replaced (another chat): every app goes. */
  reset(): void {
    for (const [callId, frame] of this.frames) {
      frame.host.remove();
      this.send({ type: 'appClosed', callId });
    }
    this.frames.clear();
  }
}

/** The chat's look as the spec's theme and style variables, read from VS Code's theme variables. */
function look(): AppLook {
  const css = getComputedStyle(document.body);
  const v = (name: string) => css.getPropertyValue(name).trim();
  const variables: Record<string, string> = {};
  const map: Array<[string, string]> = [
    ['--color-background-primary', '--vscode-sideBar-background'],
    ['--color-background-secondary', '--vscode-editorWidget-background'],
    ['--color-text-primary', '--vscode-foreground'],
    ['--color-text-secondary', '--vscode-descriptionForeground'],
    ['--color-text-danger', '--vscode-errorForeground'],
    ['--color-border-primary', '--vscode-widget-border'],
    ['--color-ring-primary', '--vscode-focusBorder'],
    ['--font-sans', '--vscode-font-family'],
    ['--font-mono', '--vscode-editor-font-family'],
  ];
  for (const [spec, vscodeName] of map) {
    const value = v(vscodeName);
    if (value) variables[spec] = value;
  }
  const dark = document.body.classList.contains('vscode-dark') || document.body.classList.contains('vscode-high-contrast');
  return { theme: dark ? 'dark' : 'light', variables, width: Math.round(document.body.clientWidth) };
}
