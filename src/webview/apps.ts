import type { HostMessage, ToolCard, WebviewRequest } from '../shared/protocol';
import { parseAppMessage } from '../shared/validateApps';
import { appIframe, appLook, onThemeChange } from './appLook';
import { bar, button, note } from './appBar';
import { pinOver } from './pinPlace';

/** The height an app starts at, until it says how tall it is. */
const FIRST_HEIGHT = 160;
/** Apps live at once in a chat; past it, the one shown longest ago is paused (its card offers Resume). */
export const MAX_LIVE_APPS = 5;

interface Frame {
  host: HTMLElement;
  iframe?: HTMLIFrameElement;
  /** Opened while its call ran: the host is told when the call ends, so the app gets its result. */
  running?: boolean;
  /** The call's arguments the app was last told of (they change while the model writes them). */
  args?: string;
  /** The places the app declared it may be shown in (all until it says). */
  modes?: ReadonlyArray<'inline' | 'fullscreen' | 'pip'>;
  /** Where the app's card is while the app is pinned above the input (it says so, with a way back). */
  stand?: HTMLElement;
}

const look = () => appLook('--vscode-sideBar-background');

/**
 * The apps in the chat's cards: a frame per card whose tool has an app, loaded from the address the
 * host serves it at, sandboxed (scripts only), and a relay of the app's JSON-RPC messages to the
 * host and back. A message counts as the app's only when it comes from that frame's own window. At
 * most MAX_LIVE_APPS run at once; an app can move to an editor tab of its own and back.
 */
export class AppFrames {
  private readonly frames = new Map<string, Frame>();
  /** The cards whose app runs here now, the longest-running first. */
  private readonly live = new Set<string>();
  /** The card whose app is pinned above the input (picture-in-picture), if one is. */
  private pinned: string | undefined;
  /** Puts the pinned app back in its card's flow. */
  private unplace: (() => void) | undefined;

  constructor(
    private readonly send: (request: WebviewRequest) => void,
    /** The strip above the input a pinned app runs in, in sight while the conversation scrolls. */
    private readonly slot: HTMLElement,
    /** Puts the caret back in the chat's input (a card's question answered, its buttons gone). */
    private readonly backToInput: () => void = () => {},
  ) {
    window.addEventListener('message', (event: MessageEvent<unknown>) => {
      for (const [callId, frame] of this.frames) {
        if (!frame.iframe || event.source !== frame.iframe.contentWindow) continue;
        const message = parseAppMessage(event.data);
        if (message) this.send({ type: 'appMessage', callId, message });
        return;
      }
    });
    onThemeChange(() => this.live.size && this.send({ type: 'appLook', look: look() }));
  }

  /**
   * A card was rendered: its app goes under it once the call runs (approved), with its input, and gets the result when
   * the call is done; or once the call is done, when its result was kept.
   */
  attach(card: ToolCard, cardEl: HTMLElement): void {
    let frame = this.frames.get(card.callId);
    if (frame?.running && frame.args !== card.arguments) {
      frame.args = card.arguments;
      this.send({ type: 'appInput', callId: card.callId });
    }
    if (frame?.running && card.status !== 'running') {
      frame.running = false;
      this.send({ type: 'appCallEnded', callId: card.callId });
    }
    const shows =
      card.app && ((card.status === 'running' && card.app.allowed) || (card.status === 'done' && card.app.result));
    if (!shows && !frame) return;
    // Pinned: the card keeps the note that says where its app is.
    if (frame?.stand) return void cardEl.append(frame.stand);
    // Its card was updated: the app stays where it runs, and the card changes around it.
    if (frame?.host.isConnected) return;
    if (!frame) {
      frame = {
        host: document.createElement('div'),
        ...(card.status === 'running' ? { running: true as const, args: card.arguments } : {}),
      };
      frame.host.className = 'app-host';
      this.frames.set(card.callId, frame);
      this.open(card.callId);
    }
    cardEl.append(frame.host);
  }

  /** A host message about an app. */
  handle(
    m: Extract<HostMessage, { type: 'appFrame' | 'appMessage' | 'appSize' | 'appPlace' | 'appModes' | 'appGone' }>,
  ): void {
    if (m.type === 'appModes') return this.declared(m.callId, m.modes);
    if (m.type === 'appGone') return this.gone(m.callId, m.why);
    if (m.type === 'appFrame') m.consent ? this.ask(m.callId, m.consent) : this.show(m.callId, m.url, m.error);
    // An opaque origin: only `*` reaches it.
    else if (m.type === 'appMessage') this.frames.get(m.callId)?.iframe?.contentWindow?.postMessage(m.message, '*');
    else if (m.type === 'appSize') this.resize(m.callId, m.height);
    else if (m.place === 'tab') this.inTab(m.callId);
    else if (m.place === 'pip') this.pin(m.callId);
    else if (this.pinned === m.callId) this.unpin();
    else this.open(m.callId);
  }

  /**
   * Pins a card's app above the input, where it stays in sight while the conversation scrolls (one at
   * a time: another pinned app goes back to its card). It keeps running as it was (its data, its
   * selection), told its display mode is now `pip`.
   */
  private pin(callId: string): void {
    const frame = this.frames.get(callId);
    if (!frame?.host.isConnected || this.pinned === callId) return;
    if (this.pinned) this.unpin();
    frame.stand = note('Pinned above the input.');
    frame.stand.append(
      ' ',
      button('Back to its card', 'Show this app in its card again', () => this.unpin()),
    );
    frame.host.before(frame.stand);
    this.pinned = callId;
    this.unplace = pinOver(frame.host, this.slot);
    this.renewBar(callId);
    this.send({ type: 'appMode', callId, pip: true });
  }

  /**
   * The pinned app goes back to its card, running on; `told` false when it left for its tab instead (the host closes
   * it).
   */
  private unpin(told = true): void {
    const callId = this.pinned;
    const frame = callId === undefined ? undefined : this.frames.get(callId);
    this.pinned = undefined;
    this.unplace?.();
    this.unplace = undefined;
    frame?.stand?.remove();
    if (!frame || callId === undefined) return;
    frame.stand = undefined;
    this.renewBar(callId);
    if (told) this.send({ type: 'appMode', callId, pip: false });
  }

  /** The buttons above a running app, for where it is now and the places it declared. */
  private bar(callId: string): HTMLElement {
    const modes = this.frames.get(callId)?.modes;
    const buttons: Array<[string, string, () => void]> = [];
    if (this.pinned === callId)
      buttons.push(['Back to its card', 'Show this app in its card again', () => this.unpin()]);
    else if (!modes || modes.includes('pip'))
      buttons.push(['Pin', 'Keep this app in sight above the input while the chat scrolls', () => this.pin(callId)]);
    if (!modes || modes.includes('fullscreen'))
      buttons.push([
        'Open in Editor',
        'Open this app in an editor tab beside the chat (it starts afresh there: an app keeps no state across pages)',
        () => this.send({ type: 'appFullscreen', callId }),
      ]);
    return bar(buttons);
  }

  /** The app said where it may be shown: its bar offers those places alone. */
  private declared(callId: string, modes: ReadonlyArray<'inline' | 'fullscreen' | 'pip'>): void {
    const frame = this.frames.get(callId);
    if (!frame) return;
    frame.modes = modes;
    this.renewBar(callId);
  }

  private renewBar(callId: string): void {
    this.frames.get(callId)?.host.querySelector(':scope > .app-bar')?.replaceWith(this.bar(callId));
  }

  /** Asks the host for the card's app (again). */
  private open(callId: string): void {
    const frame = this.frames.get(callId);
    if (!frame) return;
    frame.iframe = undefined;
    frame.host.classList.remove('app-error');
    frame.host.textContent = 'Loading the app…';
    this.send({ type: 'appOpen', callId, look: look(), ...(this.pinned === callId ? { pip: true } : {}) });
  }

  /**
   * The server's first app: the card asks, in place of the app, whether its apps may show. In the
   * card rather than a dialog: the user just allowed the call here, and the caret stays where it was.
   */
  private ask(callId: string, consent: { server: string; detail: string }): void {
    const frame = this.frames.get(callId);
    if (!frame) return;
    const answer = (show: boolean) => {
      frame.host.textContent = show ? 'Loading the app…' : 'Text only.';
      this.send({ type: 'appConsent', callId, show });
      this.backToInput();
    };
    const question = document.createElement('div');
    question.className = 'app-consent';
    const lead = document.createElement('p');
    lead.textContent = `Server "${consent.server}" has an app: a page it wrote, shown here beside its result.`;
    const detail = document.createElement('p');
    detail.className = 'app-consent-detail';
    detail.textContent = consent.detail;
    const buttons = document.createElement('div');
    buttons.className = 'card-approval';
    const show = button(`Show Apps of "${consent.server}"`, 'Show this app, and later ones of this server', () =>
      answer(true),
    );
    show.className = 'primary';
    const text = button('Show Text Only', "Keep this server's apps as text in this workspace", () => answer(false));
    text.className = 'secondary';
    buttons.append(show, text);
    question.append(lead, detail, buttons);
    frame.host.classList.remove('app-error');
    frame.host.replaceChildren(question);
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
    const iframe = appIframe(url, 'App');
    iframe.style.height = `${FIRST_HEIGHT}px`;
    frame.iframe = iframe;
    frame.host.replaceChildren(this.bar(callId), iframe);
    this.live.delete(callId);
    this.live.add(callId);
    if (this.live.size > MAX_LIVE_APPS) {
      // The one shown longest ago pauses; a pinned app is in sight, so it is never that one.
      const oldest = [...this.live].find((id) => id !== this.pinned && id !== callId);
      if (oldest !== undefined) this.pause(oldest);
    }
  }

  /**
   * Stops a card's app here, leaving a way to run it again: the host tells the app it goes first
   * (`ui/resource-teardown`) and answers `appGone`, and only then does its frame go.
   */
  private pause(callId: string): void {
    this.live.delete(callId);
    if (this.frames.get(callId)) this.send({ type: 'appTeardown', callId });
  }

  /** The app was told it goes and is done (paused here, or closed at its own ask): its frame goes. */
  private gone(callId: string, why: 'paused' | 'closedByApp'): void {
    const frame = this.frames.get(callId);
    this.live.delete(callId);
    if (!frame) return;
    if (this.pinned === callId) this.unpin(false);
    frame.iframe = undefined;
    frame.host.replaceChildren(
      note(
        why === 'paused' ? `Paused: at most ${MAX_LIVE_APPS} apps run at once in a chat.` : 'The app closed itself.',
      ),
      bar([
        why === 'paused'
          ? ['Resume', 'Run this app again (the one shown longest ago pauses)', () => this.open(callId)]
          : ['Run Again', 'Run this app again', () => this.open(callId)],
      ]),
    );
  }

  /** The app moved to an editor tab: the card says where it is until the tab closes. */
  private inTab(callId: string): void {
    if (this.pinned === callId) this.unpin(false);
    const frame = this.frames.get(callId);
    this.live.delete(callId);
    if (!frame) return;
    frame.iframe = undefined;
    frame.host.replaceChildren(note('Open in an editor tab; closing the tab brings it back here.'));
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
    this.pinned = undefined;
    this.unplace?.();
    this.unplace = undefined;
    this.frames.clear();
    this.live.clear();
  }
}
