import type { ToolResult } from '../../toolResult';
import type { Logger } from '../../logger';
import { errorMessage, type Tool, type ToolCallOptions } from '../../tools';
import { serverIdentity } from '../config/identity';
import { ClosedWhileStarting, type McpToolSource } from '../connection/source';
import type { Entry } from './entry';

/** Where the hub routes a call of a registered tool: by server, the server's own tool name and the entry identity it was listed under. */
export type HubRoute = (server: string, remoteName: string, identity: string, args: Record<string, unknown>, options?: ToolCallOptions) => Promise<ToolResult>;

/**
 * Has the source register its tools (the adapter's `register` contract), under the server's own
 * names and with calls routed through the hub; kept as the entry's `lastTools` while that source is
 * the entry's and running, then `registered` is told (the naming policy renames them there).
 */
export function registerEntryTools(entry: Entry, source: McpToolSource, route: HubRoute, registered: () => void, log: Logger): void {
  const server = entry.config.name;
  const identity = serverIdentity(entry.config);
  const tools: Tool[] = [];
  const registering: Promise<void> = source
    .register({ add: (tool) => void tools.push(tool) }, { route: (remoteName, args, o) => route(server, remoteName, identity, args, o) })
    .then(
      () => {
        if (entry.source !== source || source.state.kind !== 'running') return;
        entry.lastTools = { tools, identity };
        registered();
      },
      (err: unknown) => {
        if (!(err instanceof ClosedWhileStarting)) log.warn(`[${server}] registering its tools failed: ${errorMessage(err)}`);
      },
    )
    .finally(() => {
      if (entry.registering === registering) entry.registering = undefined;
    });
  entry.registering = registering;
}
