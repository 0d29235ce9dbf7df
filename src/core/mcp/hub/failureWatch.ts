import type { NoSandbox } from '../sandbox/namespaces';
import { failureText, type ServerInfo } from './serverInfo';

/** A server whose failure is final: it never started, or it crashed and its automatic restarts gave up. */
export interface FinalFailure {
  server: string;
  /** True when it had been running (it crashed), false when it failed to start. */
  crashed: boolean;
  message: string;
  stderrTail: string;
  /** It was not started because this machine cannot sandbox it (the same for every server that needs one). */
  noSandbox?: NoSandbox;
}

/**
 * Tells each final failure once: a server is reported when it reaches an error that no automatic
 * restart will follow, and again only after it has been starting or running since (one report per
 * failure, not one per state change or per restart attempt).
 */
export class FailureWatch {
  private readonly reported = new Set<string>();

  /** The servers whose failure became final since the last look. */
  next(servers: readonly ServerInfo[]): FinalFailure[] {
    const found: FinalFailure[] = [];
    const names = new Set(servers.map((s) => s.name));
    for (const name of [...this.reported]) if (!names.has(name)) this.reported.delete(name);
    for (const info of servers) {
      const state = info.state;
      if (state.kind !== 'error') {
        this.reported.delete(info.name);
        continue;
      }
      if (info.willRestart || this.reported.has(info.name)) continue;
      this.reported.add(info.name);
      found.push({
        server: info.name,
        crashed: info.restartNote !== undefined,
        message: failureText(info),
        stderrTail: state.stderrTail || info.stderrTail,
        ...(state.noSandbox ? { noSandbox: state.noSandbox } : {}),
      });
    }
    return found;
  }
}
