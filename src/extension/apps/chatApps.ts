import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import type * as vscode from 'vscode';
import type { AppDocuments } from '../../core/apps/appDocuments';
import { partialArguments } from '../../core/apps/partialArguments';
import type { Post } from '../../core/chat/chatActions';
import type { Logger } from '../../core/base/logger';
import { isFeatureError } from '../../core/mcp/features/featureTypes';
import type { ServerHub } from '../../core/mcp/hub/serverHub';
import { serverIdentity } from '../../core/mcp/config/identity';
import type { AppLook, ToolCard } from '../../shared/protocol';
import { APP_CONSENT_DETAIL, type AppAccess } from './appAccess';
import type { AppServer } from './appServer';
import { AppSession, type DisplayMode } from './appSession';
import { appServices, type AppServiceDeps } from './appServices';
import { openAppTab, type AppTab } from './appTab';

/** What the chat's apps answer to, besides their servers. */
export interface ChatAppsDeps extends AppServiceDeps {
  /** What an app may do, with the user's say. */
  access: AppAccess;
  extensionUri: vscode.Uri;
  /** An app's `ui/update-model-context`: the text goes on its card, and from there to the model. */
  onContext(callId: string, text: string): void;
}

interface Live {
  /** The card as the app last heard of it. */
  card: ToolCard;
  session: AppSession;
  /** Its document unpublished, its tools off the shelf. */
  revoke(): void;
}

/** An app moved to an editor tab, and its session there once it runs. */
interface InTab {
  tab: AppTab;
  live?: Live;
}

/** One chat view's apps: those in its cards, and those moved to editor tabs. */
interface ViewApps {
  live: Map<string, Live>;
  tabs: Map<string, InTab>;
  /**
   * Cards whose app has asked for its tab or a pinned place itself: asked once, so the user's close or unpin is not
   * undone by the app.
   */
  asked: Set<string>;
  /** Cards that ask, in place of their app, whether their server's apps may show (the card and its look). */
  asking: Map<string, { card: ToolCard; look: AppLook }>;
  /** Apps told they go and not yet done: their frames still answer (a teardown may call the app's server). */
  retiring: Map<string, Live>;
  /** Cards whose call ended while their app was being made: told once it runs. */
  endedEarly: Map<string, ToolCard>;
}

/** Where a session's app is shown, and how its messages reach it. */
interface Place {
  mode: DisplayMode;
  post(message: Record<string, unknown>): void;
  resize(height: number): void;
  requestDisplayMode(mode: string): DisplayMode;
  /** The places the app declared it may be shown in. */
  modes(modes: DisplayMode[]): void;
  /** The app asked to be closed: it is told it goes, then its place closes. */
  requestTeardown(): void;
}

/**
 * The chat's live apps, per view and card: serves each app's document, runs its bridge, and holds
 * what it may do to its own server and the user's say. A server's first app asks the user once
 * (remembered per server identity); an app's tool call outside the read-only rules asks each time,
 * naming the app as the caller. An app can move to an editor tab beside the chat (its button, or
 * its own `ui/request-display-mode`): the card's frame closes, the tab runs the app afresh with the
 * same input and result, and closing the tab brings it back to the card. A view that closes takes
 * its apps and their tabs with it.
 */
export class ChatApps implements vscode.Disposable {
  private readonly views = new Map<Post, ViewApps>();

  constructor(
    private readonly hub: ServerHub,
    private readonly server: AppServer,
    private readonly documents: AppDocuments,
    private readonly deps: ChatAppsDeps,
  ) {}

  private get log(): Logger {
    return this.deps.log;
  }

  /** Where the apps' documents are served from (the chat's page may frame only this origin). */
  get origin(): string {
    return this.server.origin;
  }

  async open(card: ToolCard, look: AppLook, post: Post, pip = false): Promise<void> {
    const callId = card.callId;
    this.close(post, callId);
    if (this.viewOf(post).tabs.has(callId)) return post({ type: 'appPlace', callId, place: 'tab' });
    // Where the app is now: the page pins it and brings it back without a reload, and says so (`mode`).
    const now = (): DisplayMode => this.viewOf(post).live.get(callId)?.session.displayMode ?? (pip ? 'pip' : 'inline');
    const started = await this.start(card, look, post, {
      mode: pip ? 'pip' : 'inline',
      post: (message) => post({ type: 'appMessage', callId, message }),
      resize: (height) => post({ type: 'appSize', callId, height }),
      requestDisplayMode: (mode) => {
        if (mode === 'inline') {
          if (now() === 'pip') post({ type: 'appPlace', callId, place: 'inline' });
          return 'inline';
        }
        // Its own ask for a bigger or pinned place: granted once per card (the card's buttons always work).
        if ((mode === 'fullscreen' || mode === 'pip') && this.firstAsk(post, callId)) {
          if (mode === 'fullscreen') this.fullscreen(post, callId);
          // Pinned above the input: the page keeps the frame running and shows it there.
          else post({ type: 'appPlace', callId, place: 'pip' });
          return mode;
        }
        return now();
      },
      modes: (modes) => post({ type: 'appModes', callId, modes }),
      requestTeardown: () =>
        void this.teardown(post, callId, 'closedByApp').catch((err: Error) => this.log.warn(err.message)),
    });
    if ('consent' in started) {
      this.viewOf(post).asking.set(callId, { card, look });
      return post({ type: 'appFrame', callId, consent: { server: started.consent, detail: APP_CONSENT_DETAIL } });
    }
    if ('error' in started) return post({ type: 'appFrame', callId, error: started.error });
    const view = this.viewOf(post);
    view.live.set(callId, started.live);
    await started.live.session.start();
    post({ type: 'appFrame', callId, url: started.url });
    const ended = view.endedEarly.get(callId);
    view.endedEarly.delete(callId);
    if (ended) this.callEnded(post, ended);
  }

  /**
   * Moves a card's app to an editor tab beside the chat (or shows the tab it is in): the app in the card is told it
   * goes, then the card says where it is.
   */
  async fullscreen(post: Post, callId: string): Promise<void> {
    const view = this.viewOf(post);
    const open = view.tabs.get(callId);
    if (open) return open.tab.reveal();
    const live = view.live.get(callId);
    if (!live || !(await this.retire(view, callId))) return;
    const place: InTab = {
      tab: openAppTab(
        this.deps.extensionUri,
        this.origin,
        `${live.card.name} (app)`,
        (request) => {
          if (request.type === 'appMessage') place.live?.session.deliver(request.message as JSONRPCMessage);
          else if (request.type === 'appLook') place.live?.session.lookChanged(request.look);
          else if (!place.live)
            void this.startInTab(live.card, request.look, post, place).then((started) => {
              if (view.tabs.get(callId) === place) place.live = started;
              else if (started) {
                // The tab closed while the app was being made.
                started.revoke();
                started.session.dispose();
              }
            });
        },
        () => {
          if (view.tabs.get(callId) !== place) return;
          view.tabs.delete(callId);
          place.live?.revoke();
          place.live?.session.dispose();
          if (this.views.get(post) === view) post({ type: 'appPlace', callId, place: 'inline' });
        },
      ),
    };
    view.tabs.set(callId, place);
    post({ type: 'appPlace', callId, place: 'tab' });
  }

  /** The app in a card is told it goes; then the page may remove its frame (`appGone`). */
  async teardown(post: Post, callId: string, why: 'paused' | 'closedByApp' = 'paused'): Promise<void> {
    const view = this.views.get(post);
    if (!view || !(await this.retire(view, callId))) return;
    if (this.views.get(post) === view) post({ type: 'appGone', callId, why });
  }

  /** Every app in a card, before the views show another conversation; undefined when none runs. */
  teardownAll(): Promise<void> | undefined {
    const all = [...this.views.values()].flatMap((view) => [...view.live.keys()].map((id) => this.retire(view, id)));
    return all.length ? Promise.all(all).then(() => undefined) : undefined;
  }

  /** More of a call's arguments (the model still writes them), or all of them: its running app is told. */
  input(post: Post, card: ToolCard): void {
    const session = this.liveOf(post, card.callId)?.session;
    if (card.app?.partial) session?.toolInputPartial(partialArguments(card.arguments));
    else session?.toolInput(parseArguments(card.arguments));
  }

  /** The call of an app opened while it ran ended: the app gets the result, or is told it was cancelled. */
  callEnded(post: Post, card: ToolCard): void {
    const view = this.views.get(post);
    if (!view || card.status === 'running' || card.status === 'waiting') return;
    const live = this.liveOf(post, card.callId);
    if (!live) return void view.endedEarly.set(card.callId, card);
    // Kept as it is now: the app moved to a tab later starts with the result.
    live.card = card;
    const { session } = live;
    // A call whose arguments were never finished (the answer was cut, the turn stopped) has no input to give.
    if (!card.app?.partial) session.toolInput(parseArguments(card.arguments));
    if (card.status === 'done' && card.app?.result) session.toolResult(card.app.result);
    else session.toolCancelled(cancelReason(card.status));
  }

  /**
   * Whether this is a card's app's first own ask for another place (a tab, or pinned): granted once, so the user's
   * close is not undone.
   */
  private firstAsk(post: Post, callId: string): boolean {
    const view = this.viewOf(post);
    if (view.asked.has(callId)) return false;
    view.asked.add(callId);
    return true;
  }

  /**
   * The user's answer in a card that asked about its server's apps (in the card, not a dialog: the
   * call was just allowed there, and the caret stays in the input). Every card of that server that
   * waits on it opens its app, or shows why it is text.
   */
  async consent(post: Post, callId: string, show: boolean): Promise<void> {
    const view = this.views.get(post);
    const server = view?.asking.get(callId)?.card.server;
    const config = server !== undefined ? this.hub.server(server)?.config : undefined;
    if (!view || !config) return;
    await this.deps.access.decide(serverIdentity(config), show);
    this.log.info(`apps of server "${server}": ${show ? 'shown' : 'text only'} (the user's choice in the chat)`);
    // Each waiting card asks again (`appPlace`), so its app opens with the card as it is now (its call may have ended).
    for (const [id, waiting] of [...view.asking]) {
      if (waiting.card.server !== server) continue;
      view.asking.delete(id);
      post({ type: 'appPlace', callId: id, place: 'inline' });
    }
  }

  /** The page pinned a card's running app above the input, or brought it back: the app is told its display mode. */
  mode(post: Post, callId: string, mode: 'inline' | 'pip'): void {
    this.views.get(post)?.live.get(callId)?.session.modeChanged(mode);
  }

  message(post: Post, callId: string, message: Record<string, unknown>): void {
    const view = this.views.get(post);
    (view?.live.get(callId) ?? view?.retiring.get(callId))?.session.deliver(message as JSONRPCMessage);
  }

  /** A card's running app, in its card or in its tab. */
  private liveOf(post: Post, callId: string): Live | undefined {
    const view = this.views.get(post);
    return view?.live.get(callId) ?? view?.tabs.get(callId)?.live;
  }

  /**
   * A card's app is told it goes (`ui/resource-teardown`, bounded) while its frame still relays, then its document and
   * tools go; false when it was not running.
   */
  private async retire(view: ViewApps, callId: string): Promise<boolean> {
    const live = view.live.get(callId);
    if (!live) return false;
    view.live.delete(callId);
    view.retiring.set(callId, live);
    await tellAndRevoke(live);
    view.retiring.delete(callId);
    return true;
  }

  look(post: Post, look: AppLook): void {
    for (const live of this.views.get(post)?.live.values() ?? []) live.session.lookChanged(look);
  }

  close(post: Post, callId: string): void {
    this.views.get(post)?.asking.delete(callId);
    const live = this.views.get(post)?.live.get(callId);
    if (!live) return;
    this.views.get(post)!.live.delete(callId);
    live.revoke();
    live.session.dispose();
  }

  viewClosed(post: Post): void {
    const view = this.views.get(post);
    if (!view) return;
    this.views.delete(post);
    for (const live of view.live.values()) {
      live.revoke();
      live.session.dispose();
    }
    for (const { tab } of [...view.tabs.values()]) tab.dispose();
  }

  private viewOf(post: Post): ViewApps {
    let view = this.views.get(post);
    if (!view)
      this.views.set(
        post,
        (view = {
          live: new Map(),
          tabs: new Map(),
          asked: new Set(),
          asking: new Map(),
          retiring: new Map(),
          endedEarly: new Map(),
        }),
      );
    return view;
  }

  private async startInTab(card: ToolCard, look: AppLook, post: Post, place: InTab): Promise<Live | undefined> {
    const { tab } = place;
    const back = () => void (place.live ? tellAndRevoke(place.live) : Promise.resolve()).then(() => tab.dispose());
    const started = await this.start(card, look, post, {
      mode: 'fullscreen',
      post: (message) => tab.post({ type: 'appMessage', message }),
      resize: () => {},
      requestDisplayMode: (mode) => (mode === 'inline' ? (back(), 'inline') : 'fullscreen'),
      modes: () => {},
      requestTeardown: back,
    });
    if ('error' in started || 'consent' in started) {
      tab.post({ type: 'appFrame', error: 'error' in started ? started.error : 'show this app in its card first' });
      return undefined;
    }
    await started.live.session.start();
    tab.post({ type: 'appFrame', url: started.url });
    return started.live;
  }

  /** Serves a card's app and makes its bridge, for the place it is shown in; or says why not. */
  private async start(
    card: ToolCard,
    look: AppLook,
    post: Post,
    place: Place,
  ): Promise<{ live: Live; url: string } | { error: string } | { consent: string }> {
    const server = card.server;
    const config = server !== undefined ? this.hub.server(server)?.config : undefined;
    if (!card.app || server === undefined || !config) return { error: 'the server of this app is not running' };
    // While the call runs the app starts with its input, and gets the result (or the cancel) when the call ends.
    if (!card.app.result && !(card.status === 'running' && card.app.allowed))
      return { error: 'the result this app shows was not kept; its text is above' };
    if (config.apps === false)
      return { error: `apps of server "${server}" are shown as text (its setting "apps": false)` };
    const say = this.deps.access.known(serverIdentity(config));
    if (say === undefined) return { consent: server };
    if (!say) return { error: `apps of server "${server}" are shown as text (your choice)` };
    const doc = await this.documents.get(server, card.app.resourceUri);
    if (isFeatureError(doc)) return { error: doc.error };
    if (doc.dropped.length)
      this.log.warn(
        `the app of server "${server}" declared origins its policy does not take: ${doc.dropped.join(', ')}`,
      );
    const tool = this.hub.registry.list().find((t) => t.server === server && t.name === card.name);
    const published = this.server.publish({ html: doc.html, csp: doc.csp, clipboardWrite: doc.clipboardWrite });
    const read = (uri: string) => this.deps.access.readResource(server, uri);
    let session: AppSession | undefined;
    const services = appServices(
      { server, config, tool: card.name, resourceUri: card.app.resourceUri },
      this.hub,
      this.deps,
      () => session,
      read,
      place.modes,
    );
    session = new AppSession(
      {
        tool: {
          name: tool?.remoteName ?? card.name,
          description: tool?.description ?? '',
          inputSchema: tool?.parameters ?? {},
        },
        arguments: card.app.partial ? partialArguments(card.arguments) : parseArguments(card.arguments),
        ...(card.app.partial ? { partial: true } : {}),
        ...(card.app.result ? { result: card.app.result } : {}),
      },
      {
        callTool: (name, args) => this.deps.access.callTool(server, card.name, card.callId, name, args),
        readResource: read,
        message: (text) => post({ type: 'appSaid', text }),
        openLink: (url) => this.deps.access.openLink(url),
        updateContext: (text) => {
          this.log.info(
            `the app of tool "${card.name}" updated what the model should know (${text.length} characters)`,
          );
          this.deps.onContext(card.callId, text);
        },
        resize: place.resize,
        requestDisplayMode: place.requestDisplayMode,
        requestTeardown: place.requestTeardown,
        post: (message) => place.post(message as Record<string, unknown>),
        record: (direction, message) => this.hub.trace(server).record(direction, message, card.name),
        log: (line) => this.log.info(`[${server}] ${line}`),
        ...services,
      },
      look,
      place.mode,
    );
    const revoke = () => {
      services.dispose();
      published.revoke();
    };
    return { live: { card, session, revoke }, url: published.url };
  }

  dispose(): void {
    for (const post of [...this.views.keys()]) this.viewClosed(post);
  }
}

/** An app's document and tools go once the app was told it goes (`ui/resource-teardown`, bounded). */
async function tellAndRevoke(live: Live): Promise<void> {
  await live.session.teardown();
  live.revoke();
}

/** Why a call's app gets no result, in the spec's words for `tool-cancelled`. */
function cancelReason(status: ToolCard['status']): string {
  return status === 'denied' ? 'denied by the user' : status === 'cancelled' ? 'user action' : 'the call failed';
}

function parseArguments(text: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
