import type { NoSandbox } from '../sandbox/namespaces';

/** A server's lifecycle state, switched over exhaustively by its users. */
export type ServerState =
  | { kind: 'stopped' }
  /**
   * `slow`: said once a process still starting at the connect limit gets its patience (e.g. "npx may be downloading
   * what it runs").
   */
  | { kind: 'starting'; slow?: string }
  /** `protocolVersion`: the revision negotiated (2026-07-28 in the stateless era, else from initialize). */
  | { kind: 'running'; startedAt: number; toolCount: number; pid?: number; protocolVersion?: string }
  /**
   * `cannotStart`: its process could not be started at all (no command, folder or sandbox): as it is, trying again
   * cannot help. `noSandbox`: it was not started because this machine cannot sandbox it, why and what the user can do.
   */
  | { kind: 'error'; message: string; stderrTail: string; cannotStart?: true; noSandbox?: NoSandbox }
  /** The server waits for the user to sign in (OAuth): not a failure, and Sign In is what puts it right. */
  | { kind: 'signIn'; message: string };

export function assertNever(value: never): never {
  throw new Error(`unexpected value: ${JSON.stringify(value)}`);
}
