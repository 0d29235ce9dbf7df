import type { OutputChecker } from '../tools/outputCheck';
import type { ServerAuth } from '../../auth/provider';
import type { Logger } from '../../base/logger';
import type { ClientRequestsHost } from '../clientRequests/clientRequests';
import type { ServerPriority } from '../config/hubSettings';
import type { McpTrace } from '../trace/trace';
import type { CloseTimings } from '../transport/processTransport';
import type { EraMemory } from './eraMemory';
import type { SandboxPolicy } from '../sandbox/policy';

/** Why a source's owner closed it. */
export type CloseReason = 'restarted' | 'stopped';

export interface SourceOptions {
  logger?: Logger;
  connectTimeoutMs?: number;
  /**
   * How long the era probe waits before the 2025 handshake is tried (default: the hub setting's default; at most half
   * the connect limit).
   */
  probeTimeoutMs?: number;
  callTimeoutMs?: number;
  maxOutputChars?: number;
  closeTimings?: CloseTimings;
  /** Largest single stdio message kept (default 64 MB); larger ones are dropped and their call fails. */
  maxMessageBytes?: number;
  /** Caps on HTTP replies: a whole JSON reply, one SSE event (defaults in DEFAULT_LIMITS). */
  httpLimits?: { bodyBytes?: number; eventBytes?: number };
  /** Records this server's JSON-RPC traffic while enabled; kept across restarts by the owner. */
  trace?: McpTrace;
  /** OAuth for an HTTP server (see src/core/auth); absent: only the entry's static headers. */
  auth?: ServerAuth;
  /** Answers the server's requests to the client (elicitation, sampling, roots). */
  clientRequests?: ClientRequestsHost;
  /** The era each server spoke before (default: this process's memory). */
  eras?: EraMemory;
  /** `low`: a stdio server runs below the editor (see transport/priority.ts); default `normal`. */
  serverPriority?: ServerPriority;
  /** The sandbox a stdio server runs in (see sandbox/decision.ts); absent: none. */
  sandbox?: SandboxPolicy;
  /** Checks results against their tools' outputSchema (its owner, the hub, stops it); absent: results go unchecked. */
  outputs?: OutputChecker;
}
