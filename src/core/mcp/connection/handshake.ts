import type { Client, Transport } from '@modelcontextprotocol/client';
import type { Logger } from '../../base/logger';
import type { Redactor } from '../../base/redact';
import type { ServerConfig } from '../config/serverConfig';
import { serverIdentity } from '../config/identity';
import { tracedTransport, type McpTrace } from '../trace/trace';
import { ProcessTransport } from '../transport/processTransport';
import { connectLimit } from './connectLimit';
import { fetchingRunner } from './fetchingRunner';
import { connectInEra, type ProbeFallback } from './era';
import { processEraMemory, type EraMemory } from './eraMemory';
import { redactedTransport } from './redactedTransport';
import { endCutRequests } from './cutStreams';
import { taskTransport } from '../tasks/taskTransport';

export interface HandshakeOptions {
  config: ServerConfig;
  log: Logger;
  redactor: Redactor;
  trace: McpTrace | undefined;
  /** The era each server spoke before (default: this process's memory). */
  eras: EraMemory | undefined;
  /** The connect limit. */
  timeoutMs: number;
  /** How long the era probe waits (already bounded by the limit, see probeBound). */
  probeTimeoutMs: number;
  /** Straight to the 2025 handshake, no probe (the second try after a bad probe answer). */
  legacy: boolean;
  /** Whether the session's owner is closing it (then a slow server gets no patience). */
  closing: () => boolean;
  onFallback: (fallback: ProbeFallback) => void;
  /** Told when a process still starting at the limit gets its patience, with why it may be slow. */
  onPatience?: (why: string) => void;
}

/**
 * Connects `client` over `transport` in the era the server speaks, within the connect limit counted
 * from the moment the process runs; a stdio server still starting at the limit gets it once more.
 * Rejects with ConnectTimeout when the limit passes.
 */
export async function handshake(client: Client, transport: Transport, o: HandshakeOptions): Promise<void> {
  const spawned = transport instanceof ProcessTransport ? transport : undefined;
  const limit = connectLimit({
    limitMs: o.timeoutMs,
    running: spawned ? spawned.running : Promise.resolve(),
    stillStarting: () => !!spawned && !spawned.exit && !o.closing(),
    onPatience: (ms) => {
      const runner = fetchingRunner(o.config);
      const slow = runner
        ? `${runner} may be downloading what it runs`
        : `slow: waiting ${Math.round(ms / 1000)} s more`;
      o.log.warn(
        `still starting after ${ms} ms (its process runs${runner ? `; ${slow}` : ''}); waiting ${ms} ms more before calling it failed`,
      );
      o.onPatience?.(slow);
    },
  });
  try {
    // Whatever the server sends is redacted before anything reads it (the trace keeps its own redacted copy).
    // A request whose response stream is cut fails at once (cutStreams.ts).
    // Tasks: a call answered with a task handle, and the extension's own requests (taskTransport.ts), above the
    // redaction.
    const wire = taskTransport(
      client,
      redactedTransport(endCutRequests(o.trace ? tracedTransport(transport, o.trace) : transport), o.redactor),
    );
    const memory = (o.eras ?? processEraMemory).slot(eraKey(transport, o.config));
    // The SDK's own bound leaves room for the patience; the limit above decides.
    const sdkTimeoutMs = spawned ? 2 * o.timeoutMs + 1_000 : o.timeoutMs;
    await Promise.race([
      connectInEra(client, wire, {
        timeoutMs: sdkTimeoutMs,
        probeTimeoutMs: o.probeTimeoutMs,
        legacy: o.legacy,
        memory,
        onFallback: o.onFallback,
      }),
      limit.expired,
    ]);
  } finally {
    limit.dispose();
  }
}

/** Who the server is for the era memory: a stdio program with its folder and environment, or an HTTP server's entry. */
function eraKey(transport: Transport, config: ServerConfig): string {
  return transport instanceof ProcessTransport
    ? `stdio:${transport.identity}`
    : `${config.type}:${serverIdentity(config)}`;
}
