import { Emitter } from '../base/event';
import type { SafeIcon, ToolApp, ToolVisibility } from './toolTypes';
import { WireNames } from './wireNames';
import { asResult, failed, type ToolResult } from './toolResult';

export type JsonSchema = Record<string, unknown>;

/** Hints a server gives about a tool (MCP `ToolAnnotations`), used for approvals. */
export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** An image a tool returned, for providers that accept images (its text form stays in the result). */
export interface ToolImage {
  mimeType: string;
  /** Base64. */
  data: string;
}

/**
 * A resource a tool result links to or embeds, for a UI that shows it as a link or card (its
 * text form stays in the result the model gets). Open a link with the hub's readResource(server, uri).
 */
export interface ToolResource {
  kind: 'link' | 'embedded';
  server: string;
  uri: string;
  name?: string;
  title?: string;
  description?: string;
  mimeType?: string;
  /** An embedded text resource's text (capped); absent for binary ones and for links. */
  text?: string;
  /** Bytes: an embedded resource's actual size, or what a link states. */
  size?: number;
}

/** What a tool reported of its progress while it runs (MCP `notifications/progress`). */
export interface ToolProgress {
  progress: number;
  total?: number;
  message?: string;
}

export interface ToolCallOptions {
  signal?: AbortSignal;
  /** Images in the result, beside the string the registry returns. */
  onImage?: (image: ToolImage) => void;
  /** Resource links and embedded resources in the result, beside the string the registry returns. */
  onResource?: (resource: ToolResource) => void;
  /** Progress reported by the tool while it runs (MCP `notifications/progress`). */
  onProgress?: (progress: ToolProgress) => void;
  /** The result as the server sent it (MCP `CallToolResult`), for a tool's app; the string is still returned. */
  onResult?: (result: Record<string, unknown>) => void;
  /** The server made the call a task (the Tasks extension): what the caller may do with it while it runs. */
  onTask?: (task: TaskControl) => void;
  /** A task the caller let run in the background ended: its outcome (the call itself returned when it went). */
  onTaskEnd?: (result: ToolResult) => void;
}

/** A call that became a task, while it runs. */
export interface TaskControl {
  /** The server's id of the task. */
  id: string;
  /** The tool's own name at its server. */
  tool: string;
  /** The call returns now (the model is told the task runs on); the outcome comes to onTaskEnd. */
  background(): void;
  /** Cancels the task at its server (tasks/cancel). */
  stop(): void;
}

/**
 * A tool as the agent sees it. `call` resolves to a string; it should not reject, but the registry guards it anyway.
 */
export interface Tool {
  name: string;
  description: string;
  parameters: JsonSchema;
  /** Its answer (a string is an answer), or a failure made with `failed` (toolResult.ts). */
  call(args: Record<string, unknown>, options?: ToolCallOptions): Promise<string | ToolResult>;
  annotations?: ToolAnnotations;
  /** A human-readable title the server gave the tool. */
  title?: string;
  /** The tool's icons, already checked (allowed types and origins only). */
  icons?: SafeIcon[];
  /**
   * For a tool that routes by its arguments (the built-in read_resource): the server a call with
   * these arguments goes to, so an approval (and "always allow") is per that server.
   */
  targetServer?: (args: Record<string, unknown>) => string | undefined;
  /**
   * What an approval of a call with these arguments is bound to besides the tool and server (the built-in load_skill:
   * the skill and its digest, so a changed skill asks again); undefined: the tool and server alone.
   */
  approvalScope?: (args: Record<string, unknown>) => string | undefined;
  /** What a call with these arguments will do, shown where it asks, when its arguments alone do not say it. */
  describeCall?: (args: Record<string, unknown>) => string | undefined;
  /** The server the tool came from, for MCP tools. */
  server?: string;
  /** The server's own name for the tool, when it came from MCP. */
  remoteName?: string;
  /** The identity of the server's entry (see serverIdentity), when it came from MCP. */
  serverIdentity?: string;
  /** Why the registry name differs from the server's name, when it does. */
  renamed?: string;
  /** The tool's MCP App (its `ui://` resource), when its server declared one. */
  app?: ToolApp;
  /** Who may call it, when its server said (`_meta.ui.visibility`); absent: the model and apps alike. */
  visibility?: ToolVisibility;
  /** Kept from the model because its server's entry lists the tools it offers (`tools`) and not this one. */
  leftOutByEntry?: true;
}

/** Whether the model may be offered (and may call) the tool: not when its server keeps it for apps alone. */
export function forModel(tool: Tool): boolean {
  return tool.visibility?.model !== false;
}

/** Whether an app of the tool's server may call it: not when its server keeps it for the model alone. */
export function forApp(tool: Tool): boolean {
  return tool.visibility?.app !== false;
}

export interface ToolSchema {
  /** The wire name, the one a model API accepts. */
  name: string;
  description: string;
  parameters: JsonSchema;
  /** Sent for the provider's own tool search to find (Anthropic `defer_loading`), not into the model's context. */
  deferLoading?: boolean;
}

/**
 * The exact tool a call was approved for: an MCP tool by its server (name and identity) and the
 * server's own tool name, never by the registry name, which shifts when another server appears.
 */
export interface ToolPin {
  name: string;
  server?: string;
  remoteName?: string;
  serverIdentity?: string;
}

export function pinOf(tool: Tool): ToolPin {
  return {
    name: tool.name,
    ...(tool.server !== undefined ? { server: tool.server } : {}),
    ...(tool.remoteName !== undefined ? { remoteName: tool.remoteName } : {}),
    ...(tool.serverIdentity !== undefined ? { serverIdentity: tool.serverIdentity } : {}),
  };
}

export { toolError } from './toolResult';

export function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message || err.name;
  return String(err);
}

/**
 * Holds tools by name. `call` always resolves to a string and never rejects: this is what keeps
 * one bad tool from ending an agent turn. `add` never replaces a tool silently: it throws.
 */
export class ToolRegistry {
  private readonly tools = new Map<string, Tool>();
  private wireNames: WireNames | undefined;
  private readonly onDidChangeEmitter = new Emitter<void>();
  readonly onDidChange = this.onDidChangeEmitter.event;
  private readonly onDidChangeServerToolsEmitter = new Emitter<ReadonlySet<string>>();
  /**
   * Fires with the servers whose own tool list changed (a tool added, removed or redefined, or the
   * server's identity changed); a tool that only got another registry name does not count.
   */
  readonly onDidChangeServerTools = this.onDidChangeServerToolsEmitter.event;

  add(tool: Tool): void {
    if (this.tools.has(tool.name)) {
      throw new Error(
        `tool "${tool.name}" is already registered${tool.server ? ` (adding it from server "${tool.server}")` : ''}`,
      );
    }
    const before = this.list();
    this.tools.set(tool.name, tool);
    this.changed(before);
  }

  /** Replaces the whole set at once (one change event), as the hub does after a rebuild. */
  replaceAll(tools: readonly Tool[]): void {
    const next = new Map<string, Tool>();
    for (const tool of tools) {
      if (next.has(tool.name)) throw new Error(`tool "${tool.name}" appears twice`);
      next.set(tool.name, tool);
    }
    const before = this.list();
    this.tools.clear();
    for (const [name, tool] of next) this.tools.set(name, tool);
    this.changed(before);
  }

  get(name: string): Tool | undefined {
    return this.tools.get(name);
  }

  names(): string[] {
    return [...this.tools.keys()];
  }

  list(): Tool[] {
    return [...this.tools.values()];
  }

  get size(): number {
    return this.tools.size;
  }

  /** The name a model API is sent for a registry name. */
  wireName(name: string): string | undefined {
    return this.wire().wire(name);
  }

  /** The registry name for a name a model sent (wire or registry form). */
  resolve(nameOrWire: string): string | undefined {
    return this.wire().name(nameOrWire);
  }

  /** The tool schemas a model is shown, under wire names. */
  schemas(): ToolSchema[] {
    const wire = this.wire();
    return this.list()
      .filter(forModel)
      .map((t) => ({ name: wire.wire(t.name) ?? t.name, description: t.description, parameters: t.parameters }));
  }

  /** The text the model receives for a call (see `result` for how it ended). */
  async call(nameOrWire: string, args: unknown, options: ToolCallOptions = {}): Promise<string> {
    return (await this.result(nameOrWire, args, options)).text;
  }

  /** A call: its text and how it ended. Never rejects. */
  async result(nameOrWire: string, args: unknown, options: ToolCallOptions = {}): Promise<ToolResult> {
    const name = this.resolve(nameOrWire);
    const tool = name === undefined ? undefined : this.tools.get(name);
    if (!tool) {
      // Bounded: with thousands of tools the whole list would flood the model's context.
      const known = this.names();
      const shown = known.slice(0, 30).join(', ');
      return failed(
        `unknown tool "${nameOrWire}"; available tools: ${known.length ? `${shown}${known.length > 30 ? ` and ${known.length - 30} more` : ''}` : '(none)'}`,
      );
    }
    return this.invoke(tool, args, options);
  }

  /** The tool a pin names, if the registry still has it (under whatever registry name it has now). */
  findPinned(pin: ToolPin): Tool | undefined {
    if (pin.server === undefined) return this.tools.get(pin.name);
    return this.list().find(
      (t) => t.server === pin.server && t.remoteName === pin.remoteName && t.serverIdentity === pin.serverIdentity,
    );
  }

  /** The text of a call to exactly the pinned tool (see `resultPinned`). */
  async callPinned(pin: ToolPin, args: unknown, options: ToolCallOptions = {}): Promise<string> {
    return (await this.resultPinned(pin, args, options)).text;
  }

  /** Calls exactly the pinned tool, or fails saying it is gone; never another tool of the same name. */
  resultPinned(pin: ToolPin, args: unknown, options: ToolCallOptions = {}): Promise<ToolResult> {
    const tool = this.findPinned(pin);
    if (!tool) {
      const which =
        pin.server !== undefined ? `tool "${pin.remoteName}" of server "${pin.server}"` : `tool "${pin.name}"`;
      return Promise.resolve(
        failed(
          `the ${which} that was approved is no longer available (the server removed it, or its entry changed); nothing was run`,
        ),
      );
    }
    return this.invoke(tool, args, options);
  }

  private async invoke(tool: Tool, args: unknown, options: ToolCallOptions): Promise<ToolResult> {
    if (options.signal?.aborted) return failed('cancelled', 'cancelled');
    if (args !== undefined && args !== null && (typeof args !== 'object' || Array.isArray(args))) {
      return failed(`arguments for tool "${tool.name}" must be a JSON object`);
    }
    try {
      return asResult(await tool.call((args ?? {}) as Record<string, unknown>, options));
    } catch (err) {
      return failed(`tool "${tool.name}" failed: ${errorMessage(err)}`);
    }
  }

  private wire(): WireNames {
    this.wireNames ??= new WireNames(this.tools.keys());
    return this.wireNames;
  }

  private changed(before: readonly Tool[]): void {
    this.wireNames = undefined;
    this.onDidChangeEmitter.fire();
    const servers = changedServers(before, this.list());
    if (servers.size) this.onDidChangeServerToolsEmitter.fire(servers);
  }

  dispose(): void {
    this.onDidChangeEmitter.dispose();
    this.onDidChangeServerToolsEmitter.dispose();
  }
}

/** Servers whose own tools differ between two lists, ignoring registry names. */
function changedServers(before: readonly Tool[], after: readonly Tool[]): Set<string> {
  const byServer = (tools: readonly Tool[]) => {
    const map = new Map<string, Map<string, Tool>>();
    for (const t of tools) {
      if (t.server === undefined) continue;
      if (!map.has(t.server)) map.set(t.server, new Map());
      map.get(t.server)!.set(t.remoteName ?? t.name, t);
    }
    return map;
  };
  const a = byServer(before);
  const b = byServer(after);
  const changed = new Set<string>();
  for (const server of new Set([...a.keys(), ...b.keys()])) {
    const x = a.get(server) ?? new Map<string, Tool>();
    const y = b.get(server) ?? new Map<string, Tool>();
    const same =
      x.size === y.size &&
      [...x].every(([remote, t]) => {
        const u = y.get(remote);
        return (
          !!u &&
          u.serverIdentity === t.serverIdentity &&
          u.description === t.description &&
          u.parameters === t.parameters &&
          u.annotations === t.annotations
        );
      });
    if (!same) changed.add(server);
  }
  return changed;
}
