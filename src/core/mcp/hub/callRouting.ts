import type { ToolCallOptions } from '../../toolRegistry/toolRegistry';
import { failed, type ToolResult } from '../../toolRegistry/toolResult';
import { serverIdentity } from '../config/identity';
import { NOT_CONNECTED } from '../connection/crashDiagnosis';
import { sendTurn } from '../transport/inbox';
import type { ServerEntry } from './serverEntry';
import { isRestarting } from './restarts';

/**
 * Routes the calls of registry tools to each server's current source, so a restart needs no
 * re-registration; never to a server whose entry changed since the tool was listed (another
 * command, URL or origin). Counts the calls on their way.
 */
export class CallRouter {
  private active = 0;

  constructor(private readonly entryOf: (server: string) => ServerEntry | undefined) {}

  /** How many tool calls are on their way to a server now. */
  get running(): number {
    return this.active;
  }

  async call(
    server: string,
    remoteName: string,
    identity: string,
    args: Record<string, unknown>,
    options?: ToolCallOptions,
  ): Promise<ToolResult> {
    // A burst of calls made in one tick is made a budgeted slice per event-loop iteration (see
    // inbox). The checks below run after the turn, on the server as it is then.
    await sendTurn();
    if (options?.signal?.aborted) return failed('cancelled', 'cancelled');
    const entry = this.entryOf(server);
    if (entry && serverIdentity(entry.config) !== identity) {
      return failed(
        `server "${server}" changed (its origin, command, arguments or URL) since tool "${remoteName}" was listed; the call was not made`,
      );
    }
    if (entry && entry.source?.state.kind !== 'running' && isRestarting(entry)) {
      return failed(`${NOT_CONNECTED}: "${server}" crashed and is restarting; try again shortly`);
    }
    const source = entry?.source;
    if (!source) return failed(NOT_CONNECTED);
    this.active++;
    try {
      return await source.result(remoteName, args, options);
    } finally {
      this.active--;
    }
  }
}
