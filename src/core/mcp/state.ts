/** A server's lifecycle state, switched over exhaustively by its users. */
export type ServerState =
  | { kind: 'stopped' }
  | { kind: 'starting' }
  | { kind: 'running'; startedAt: number; toolCount: number; pid?: number }
  | { kind: 'error'; message: string; stderrTail: string };

export type ServerStateKind = ServerState['kind'];

export function assertNever(value: never): never {
  throw new Error(`unexpected value: ${JSON.stringify(value)}`);
}

/** One line for humans: `running (3 tools)`, `error: command not found ...`. */
export function describeState(state: ServerState): string {
  switch (state.kind) {
    case 'stopped':
      return 'stopped';
    case 'starting':
      return 'starting';
    case 'running':
      return `running (${state.toolCount} tool${state.toolCount === 1 ? '' : 's'})`;
    case 'error':
      return `error: ${state.message}`;
    default:
      return assertNever(state);
  }
}
