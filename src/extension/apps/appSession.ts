import type {
  CallToolResult,
  CreateMessageRequest,
  CreateMessageResult,
  JSONRPCMessage,
  ReadResourceResult,
} from '@modelcontextprotocol/client';
import {
  AppBridge,
  type McpUiDisplayMode,
  type McpUiDownloadFileRequest,
} from '@modelcontextprotocol/ext-apps/app-bridge';
import type { AppLook } from '../../shared/protocol';
import { declaredModes, HOST_MODES, hostContext, MAX_APP_HEIGHT, type ToolInfo } from './appHostContext';
import { RelayTransport } from './relayTransport';

export { MAX_APP_HEIGHT, MAX_PIP_HEIGHT } from './appHostContext';
/** `ui/message` requests an app may make per minute; past it, they are refused (a flood). */
const MESSAGES_PER_MINUTE = 5;

/** What an app may reach, each already limited to its own server and the user's say. */
export interface AppHost {
  /** A tool of the app's own server, through the user's approval; resolves to the server's result. */
  callTool(name: string, args: Record<string, unknown>): Promise<CallToolResult>;
  /** A resource of the app's own server. */
  readResource(uri: string): Promise<ReadResourceResult>;
  /** Text for the chat's input (the user sends it, or not). */
  message(text: string): void;
  /** Opens an http(s) address through VS Code's own confirmation; resolves false when refused. */
  openLink(url: string): Promise<boolean>;
  /** What the app wants the model to know from now on (shown in the card, counted in the budget). */
  updateContext(text: string): void;
  /** The height the app asked for, bounded. */
  resize(height: number): void;
  /** The app asks to be shown inline or fullscreen (in an editor tab); resolves to where it is now. */
  requestDisplayMode(mode: string): DisplayMode;
  /** The bridge's side of a message, for the app's frame. */
  post(message: JSONRPCMessage): void;
  /** Every message between the bridge and the app, for the server's trace (`out` to the app). */
  record(direction: 'out' | 'in', message: JSONRPCMessage): void;
  log(line: string): void;
  /** A sampling request of the app: the server's card, limits and model (offered to apps only when present). */
  sample?(params: CreateMessageRequest['params'], signal: AbortSignal): Promise<CreateMessageResult>;
  /** Files the app asks to save, each through the user's own save dialog; resolves false when refused or failed. */
  download?(contents: McpUiDownloadFileRequest['params']['contents']): Promise<boolean>;
  /** The app finished `ui/initialize`: the display modes it may be shown in, and whether it offers tools. */
  ready?(modes: McpUiDisplayMode[], offersTools: boolean): void;
  /** The app's tools changed (`notifications/tools/list_changed`). */
  toolsChanged?(): void;
  /** The app asked to be closed (`ui/notifications/request-teardown`). */
  requestTeardown?(): void;
}

/** Where an app is shown: in its card, or in an editor tab of its own. */
export type DisplayMode = 'inline' | 'fullscreen' | 'pip';
/** How long a view has to tidy up on `ui/resource-teardown` before its frame goes anyway. */
export const TEARDOWN_MS = 1_000;

/**
 * The tool call an app is shown with: its arguments as the model sent them, and the server's result (absent while the
 * call runs; `cancelled` when it ended without one).
 */
export interface AppCall {
  tool: ToolInfo;
  arguments: Record<string, unknown>;
  /** The model is still writing them: the app gets them as `tool-input-partial` until they are whole. */
  partial?: boolean;
  result?: Record<string, unknown>;
  cancelled?: string;
}

/**
 * The host's side of one live app: the ext-apps AppBridge, on a transport whose far end is the app's
 * frame in the chat page (the page only relays, from that frame alone). On `ui/initialize` the app
 * gets the host context (theme, its style variables, size, locale); once initialized, the tool's
 * input and result. Every request it makes goes through `AppHost`, which decides.
 */
export class AppSession {
  private readonly bridge: AppBridge;
  private readonly transport = new RelayTransport((m) => {
    this.host.record('out', m);
    this.host.post(m);
  });
  private messages: number[] = [];
  private initialized = false;
  private closed = false;
  /** The display modes the app declared, narrowed to the host's (all of them until it says). */
  private modes: McpUiDisplayMode[] = [...HOST_MODES];

  constructor(
    private readonly call: AppCall,
    private readonly host: AppHost,
    private look: AppLook,
    private mode: DisplayMode = 'inline',
  ) {
    this.bridge = new AppBridge(
      null,
      { name: 'MinAgent', version: '0.1.0' },
      {
        openLinks: {},
        serverTools: {},
        serverResources: {},
        logging: {},
        message: { text: {} },
        updateModelContext: { text: {} },
        ...(host.sample ? { sampling: {} } : {}),
        ...(host.download ? { downloadFile: {} } : {}),
      },
      { hostContext: hostContext(look, mode, call.tool) },
    );
    this.bridge.oninitialized = () => {
      this.initialized = true;
      const caps = this.bridge.getAppCapabilities();
      this.modes = declaredModes(caps?.availableDisplayModes);
      if (caps?.availableDisplayModes !== undefined) this.contextChanged();
      host.ready?.(this.modes, caps?.tools !== undefined);
      void this.sendCall();
    };
    this.bridge.onsizechange = ({ height }) => {
      if (typeof height === 'number' && Number.isFinite(height) && height > 0)
        host.resize(Math.min(Math.ceil(height), MAX_APP_HEIGHT));
    };
    this.bridge.oncalltool = async ({ name, arguments: args }) => host.callTool(name, args ?? {});
    this.bridge.onreadresource = async ({ uri }) => host.readResource(uri);
    this.bridge.onmessage = async ({ content }) => {
      const now = Date.now();
      this.messages = this.messages.filter((t) => now - t < 60_000);
      if (this.messages.length >= MESSAGES_PER_MINUTE) return { isError: true };
      this.messages.push(now);
      const text = textOf(content);
      if (!text) return { isError: true };
      host.message(text);
      return {};
    };
    this.bridge.onopenlink = async ({ url }) => ((await host.openLink(url)) ? {} : { isError: true });
    // Its text, else its structured content as JSON; an empty update clears what the app said before.
    this.bridge.onupdatemodelcontext = async ({ content, structuredContent }) => {
      host.updateContext(textOf(content) ?? (structuredContent ? JSON.stringify(structuredContent) : ''));
      return {};
    };
    // Only a place it declared: another ask leaves it where it is.
    this.bridge.onrequestdisplaymode = async ({ mode }) => {
      if (this.modes.includes(mode)) this.mode = host.requestDisplayMode(mode);
      return { mode: this.mode };
    };
    this.bridge.onloggingmessage = ({ level, data }) =>
      host.log(`app log (${level}): ${typeof data === 'string' ? data : JSON.stringify(data)}`.slice(0, 2000));
    if (host.sample) {
      const sample = host.sample;
      this.bridge.oncreatesamplingmessage = async (params, extra) =>
        sample(params as CreateMessageRequest['params'], extra.mcpReq.signal);
    }
    if (host.download) {
      const download = host.download;
      this.bridge.ondownloadfile = async ({ contents }) => ((await download(contents)) ? {} : { isError: true });
    }
    this.bridge.onrequestteardown = () => host.requestTeardown?.();
    this.bridge.setNotificationHandler('notifications/tools/list_changed', () => host.toolsChanged?.());
  }

  start(): Promise<void> {
    return this.bridge.connect(this.transport);
  }

  /** A message the app's frame posted. */
  deliver(message: JSONRPCMessage): void {
    this.host.record('in', message);
    this.transport.receive(message);
  }

  lookChanged(look: AppLook): void {
    this.look = look;
    this.contextChanged();
  }

  /** The app, still running, moved (pinned above the input, or back in its card): it is told its display mode. */
  modeChanged(mode: DisplayMode): void {
    if (mode === this.mode) return;
    this.mode = mode;
    this.contextChanged();
  }

  /** The display mode the app was last told. */
  get displayMode(): DisplayMode {
    return this.mode;
  }

  /** The places the app may be shown in: those it declared (all, when it declared none). */
  get displayModes(): readonly McpUiDisplayMode[] {
    return this.modes;
  }

  /** More of the arguments the model is writing (ignored once they are whole). */
  toolInputPartial(args: Record<string, unknown>): void {
    if (!this.call.partial) return;
    this.call.arguments = args;
    if (this.initialized) void this.bridge.sendToolInputPartial({ arguments: args }).catch(() => undefined);
  }

  /** The arguments are whole: the app gets `tool-input` (once). */
  toolInput(args: Record<string, unknown>): void {
    if (!this.call.partial) return;
    this.call.partial = false;
    this.call.arguments = args;
    if (this.initialized) void this.bridge.sendToolInput({ arguments: args }).catch(() => undefined);
  }

  /** The call the app was opened for while it ran has its result now. */
  toolResult(result: Record<string, unknown>): void {
    if (this.call.result || this.call.cancelled) return;
    this.call.result = result;
    if (this.initialized) void this.bridge.sendToolResult(result as CallToolResult).catch(() => undefined);
  }

  /** The call ended without a result (stopped, failed, timed out, denied): the app is told why. */
  toolCancelled(reason: string): void {
    if (this.call.result || this.call.cancelled) return;
    this.call.cancelled = reason;
    if (this.initialized) void this.bridge.sendToolCancelled({ reason }).catch(() => undefined);
  }

  /** The app's own tools (`tools/list` to the view), as it answers. */
  listTools(timeoutMs: number): Promise<unknown> {
    return this.bridge.listTools({}, { timeout: timeoutMs });
  }

  /** Calls one of the app's own tools (`tools/call` to the view). */
  callTool(
    name: string,
    args: Record<string, unknown>,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<CallToolResult> {
    return this.bridge.callTool({ name, arguments: args }, { timeout: timeoutMs, ...(signal ? { signal } : {}) });
  }

  /**
   * Tells the app it is about to go (`ui/resource-teardown`) and waits for its answer, at most `ms`, then closes. Its
   * frame should be removed only after this resolves.
   */
  async teardown(ms = TEARDOWN_MS): Promise<void> {
    if (this.closed) return;
    if (this.initialized) await this.bridge.teardownResource({}, { timeout: ms }).catch(() => undefined);
    this.dispose();
  }

  private contextChanged(): void {
    void this.bridge.sendHostContextChange(hostContext(this.look, this.mode, this.call.tool, this.modes));
  }

  private async sendCall(): Promise<void> {
    if (this.call.partial) return this.bridge.sendToolInputPartial({ arguments: this.call.arguments });
    await this.bridge.sendToolInput({ arguments: this.call.arguments });
    if (this.call.result) await this.bridge.sendToolResult(this.call.result as CallToolResult);
    else if (this.call.cancelled) await this.bridge.sendToolCancelled({ reason: this.call.cancelled });
  }

  dispose(): void {
    if (this.closed) return;
    this.closed = true;
    void this.bridge.close();
  }
}

/** The text of a message's content blocks (apps send text; anything else is left out). */
function textOf(content: unknown): string | undefined {
  const blocks = Array.isArray(content) ? content : [content];
  const text = blocks
    .map((b) =>
      typeof b === 'object' && b !== null && (b as { type?: unknown }).type === 'text'
        ? String((b as { text?: unknown }).text ?? '')
        : '',
    )
    .join('\n')
    .trim();
  return text ? text.slice(0, 100_000) : undefined;
}
