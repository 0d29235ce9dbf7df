import type { CallToolResult, JSONRPCMessage, ReadResourceResult, Transport } from '@modelcontextprotocol/client';
import { AppBridge, type McpUiHostContext, type McpUiStyles } from '@modelcontextprotocol/ext-apps/app-bridge';
import type { AppLook } from '../../shared/protocol';

/** The most an app may ask its frame to grow to (CSS pixels); past it, the app scrolls. */
export const MAX_APP_HEIGHT = 800;
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
}

/** Where an app is shown: in its card, or in an editor tab of its own. */
export type DisplayMode = 'inline' | 'fullscreen' | 'pip';
/** A pinned app's height bound: a strip above the input, the conversation scrolling above it. */
export const MAX_PIP_HEIGHT = 240;

/** The tool call an app is shown with: its arguments as the model sent them, and the server's result. */
export interface AppCall {
  tool: { name: string; description?: string; inputSchema: Record<string, unknown> };
  arguments: Record<string, unknown>;
  result?: Record<string, unknown>;
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
      },
      { hostContext: hostContext(look, mode, call.tool) },
    );
    this.bridge.oninitialized = () => void this.sendCall();
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
    this.bridge.onrequestdisplaymode = async ({ mode }) => {
      this.mode = host.requestDisplayMode(mode);
      return { mode: this.mode };
    };
    this.bridge.onloggingmessage = ({ level, data }) =>
      host.log(`app log (${level}): ${typeof data === 'string' ? data : JSON.stringify(data)}`.slice(0, 2000));
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
    void this.bridge.sendHostContextChange(hostContext(look, this.mode, this.call.tool));
  }

  /** The app, still running, moved (pinned above the input, or back in its card): it is told its display mode. */
  modeChanged(mode: DisplayMode): void {
    if (mode === this.mode) return;
    this.mode = mode;
    void this.bridge.sendHostContextChange(hostContext(this.look, mode, this.call.tool));
  }

  /** The display mode the app was last told. */
  get displayMode(): DisplayMode {
    return this.mode;
  }

  private async sendCall(): Promise<void> {
    await this.bridge.sendToolInput({ arguments: this.call.arguments });
    if (this.call.result) await this.bridge.sendToolResult(this.call.result as CallToolResult);
  }

  dispose(): void {
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

export function hostContext(look: AppLook, mode: DisplayMode, tool: AppCall['tool']): McpUiHostContext {
  return {
    // The tool call that made this app: its definition as the server listed it (the spec's toolInfo).
    toolInfo: {
      tool: {
        name: tool.name,
        inputSchema: tool.inputSchema as { type: 'object' },
        ...(tool.description ? { description: tool.description } : {}),
      },
    },
    theme: look.theme,
    styles: { variables: look.variables as McpUiStyles },
    displayMode: mode,
    availableDisplayModes: ['inline', 'fullscreen', 'pip'],
    // In a tab the app fills the editor; in a card it grows up to the bound, then scrolls; pinned, a strip.
    containerDimensions:
      mode === 'fullscreen'
        ? { width: look.width }
        : { width: look.width, maxHeight: mode === 'pip' ? MAX_PIP_HEIGHT : MAX_APP_HEIGHT },
    locale: Intl.DateTimeFormat().resolvedOptions().locale,
    timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    platform: 'desktop',
  };
}

/** A transport whose other end is a relay: `post` sends, `receive` is what came back. */
class RelayTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;

  constructor(private readonly post: (message: JSONRPCMessage) => void) {}

  async start(): Promise<void> {}

  async send(message: JSONRPCMessage): Promise<void> {
    this.post(message);
  }

  receive(message: JSONRPCMessage): void {
    this.onmessage?.(message);
  }

  async close(): Promise<void> {
    this.onclose?.();
  }
}
