import type { ToolResult } from '../../toolRegistry/toolResult';
import type { Tool as RemoteTool } from '@modelcontextprotocol/client';
import type { JsonSchema, Tool, ToolCallOptions, ToolRegistry } from '../../toolRegistry/toolRegistry';
import type { SafeIcon } from '../../toolRegistry/toolTypes';
import { appOfTool } from '../../apps/appMeta';

/** Where a registered tool's calls go, by the server's own tool name. */
export type ToolRoute = (
  remoteName: string,
  args: Record<string, unknown>,
  options?: ToolCallOptions,
) => Promise<ToolResult>;

/** What `register` adds tools to: a registry, or an owner that collects them. */
export type ToolSink = Pick<ToolRegistry, 'add'>;

export interface RegisterOptions {
  /** Registered as `namespace.name`. */
  namespace?: string;
  /** Where calls go; default: the server's session. */
  route?: ToolRoute;
}

/**
 * Adapts one remote tool of `server` to a registry tool named `name` whose calls go to `route`. `offered`: the entry's
 * `tools` list (the portable format's filter); a tool not on it is kept from the model, and said so.
 */
export function toRegistryTool(
  remote: RemoteTool,
  server: string,
  name: string,
  route: ToolRoute,
  offered?: readonly string[],
): Tool {
  const declared = appOfTool(remote._meta);
  const { app } = declared;
  const leftOut = offered !== undefined && !offered.includes(remote.name);
  const visibility = leftOut ? { model: false, app: declared.visibility?.app ?? true } : declared.visibility;
  return {
    name,
    description: remote.description ?? remote.title ?? '',
    parameters: remote.inputSchema as JsonSchema,
    server,
    remoteName: remote.name,
    ...(remote.title !== undefined ? { title: remote.title } : {}),
    ...(remote.icons?.length ? { icons: remote.icons as SafeIcon[] } : {}),
    ...(remote.annotations ? { annotations: remote.annotations } : {}),
    ...(app ? { app } : {}),
    ...(visibility ? { visibility } : {}),
    ...(leftOut ? { leftOutByEntry: true as const } : {}),
    call: (args, options) => route(remote.name, args, options),
  };
}

/**
 * The seed's `register(registry, { namespace })` once the tools are listed: adds each one, prefixed
 * when a namespace is given, through `adapt`, and returns the names it added.
 */
export function registerTools(
  registry: ToolSink,
  tools: readonly RemoteTool[],
  options: RegisterOptions | undefined,
  adapt: (remote: RemoteTool, name: string, route: ToolRoute | undefined) => Tool,
): string[] {
  const { namespace, route } = options ?? {};
  const names: string[] = [];
  for (const remote of tools) {
    const name = namespace ? `${namespace}.${remote.name}` : remote.name;
    registry.add(adapt(remote, name, route));
    names.push(name);
  }
  return names;
}
