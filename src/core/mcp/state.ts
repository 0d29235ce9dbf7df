/** A server's lifecycle state, switched over exhaustively by its users. */
export type ServerState =
  | { kind: 'stopped' }
  | { kind: 'starting' }
  | { kind: 'running'; startedAt: number; toolCount: number; pid?: number }
  | { kind: 'error'; message: string; stderrTail: string; /** The server needs the user to sign in (OAuth). */ signIn?: true };

export function assertNever(value: never): never {
  throw new Error(`unexpected value: ${JSON.stringify(value)}`);
}
