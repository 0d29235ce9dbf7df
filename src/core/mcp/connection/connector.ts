import { Client, type Transport } from '@modelcontextprotocol/client';
import type { Disposable } from '../../base/event';
import type { Logger } from '../../base/logger';
import type { Redactor } from '../../base/redact';
import { errorMessage } from '../../toolRegistry/toolRegistry';
import { DEFAULT_HUB_SETTINGS } from '../config/hubSettings';
import type { ServerConfig } from '../config/serverConfig';
import type { ServerFeatures } from '../features/features';
import { ProcessTransport } from '../transport/processTransport';
import { BadProbeAnswer, eraNegotiation, probeBound, type ProbeFallback } from './era';
import { StaleEraVerdict } from './eraRefusal';
import { handshake } from './handshake';
import type { SourceOptions } from './sourceOptions';
import type { StderrTail } from './stderrTail';
import {
  createTransport,
  httpFetch,
  withSseFallback,
  type TransportKind,
  type TransportSettings,
} from './transportFactory';

const CLIENT_INFO = { name: 'minagent', version: '0.1.0' };
/** How many times a step is run again after a sign-in put its authorization right. */
const SIGN_IN_RETRIES = 2;

/** What the connector works for: one server's session (see McpToolSource). */
export interface ConnectorHost {
  config: ServerConfig;
  options: SourceOptions;
  log: Logger;
  redactor: Redactor;
  stderr: StderrTail;
  features: ServerFeatures;
  /** Whether the session's owner is closing it. */
  closing(): boolean;
  /** The server said its tool list changed (debounced). */
  toolsChanged(): void;
  /** The connection ended without the session closing it. */
  closed(): void;
  /** A process still starting at the connect limit got its patience: why it may be slow, in a few words. */
  slowStart(why: string): void;
}

/**
 * Opens the connection to one server and holds what it opened: the SDK client over one transport,
 * with the handlers of the server's requests to the client. Tries the transports in order (the
 * entry's own, then SSE for an old HTTP server), the era handshake within the connect limit (and the
 * 2025 handshake after a bad probe answer), and again after a sign-in.
 */
export class Connector {
  /** The open session's client; undefined before, after close, and once the connection dropped. */
  client: Client | undefined;
  /** The last transport opened; kept after it ended, for its exit status and pid. */
  transport: Transport | undefined;
  private clientHandlers: Disposable | undefined;
  /** What the era probe got when it led to the 2025 handshake: a failed handshake names both. */
  probeFallback: ProbeFallback | undefined;

  constructor(private readonly host: ConnectorHost) {}

  get pid(): number | undefined {
    return this.transport instanceof ProcessTransport ? this.transport.pid : undefined;
  }

  /** Connects, trying the fallbacks above; rejects with the failure that explains it. */
  open(timeoutMs: number): Promise<void> {
    const { config, log } = this.host;
    return withSseFallback(
      { config, log },
      () => this.host.closing(),
      () => this.afterSignIn(() => this.connectNegotiated(config.type === 'sse' ? 'sse' : 'primary', timeoutMs)),
      () => this.connectWith(this.newTransport('sse'), timeoutMs),
    );
  }

  /**
   * Runs `step`; when it stopped on an authorization problem that the server's OAuth client puts
   * right (a sign-in the user completes), runs it again. Without an OAuth client, or once the session
   * is closing, the failure stands.
   */
  async afterSignIn<T>(step: () => Promise<T>): Promise<T> {
    const auth = this.host.options.auth;
    for (let attempt = 0; ; attempt++) {
      try {
        return await step();
      } catch (err) {
        if (
          !auth ||
          this.host.closing() ||
          attempt >= SIGN_IN_RETRIES ||
          !(await auth.recover(err, httpFetch(this.transportSettings())))
        )
          throw err;
      }
    }
  }

  /** Closes the client and the transport (the whole process tree); the transport stays known. */
  async dispose(): Promise<void> {
    const client = this.client;
    const transport = this.transport;
    this.client = undefined;
    this.clientHandlers?.dispose();
    this.clientHandlers = undefined;
    if (client) client.onclose = undefined;
    try {
      await client?.close();
    } catch {
      // closing a broken connection may fail; the transport close below still runs
    }
    try {
      await transport?.close();
    } catch (err) {
      this.host.log.warn(`closing the transport failed: ${errorMessage(err)}`);
    }
  }

  /**
   * Connects in the era the server speaks. A probe answered badly where the SDK gives up (HTTP 5xx,
   * an HTML page, a dropped connection, no answer in time) gets the 2025 handshake once, on a new
   * transport, within what is left of the connect limit; a server never reached is not tried again. A server
   * remembered as a 2025 one that refuses the 2025 handshake (StaleEraVerdict) is probed afresh, once.
   */
  private async connectNegotiated(kind: TransportKind, timeoutMs: number): Promise<void> {
    const started = Date.now();
    const left = () => Math.max(1, timeoutMs - (Date.now() - started));
    try {
      await this.connectWith(this.newTransport(kind), timeoutMs);
      return;
    } catch (err) {
      if (!(err instanceof StaleEraVerdict) || this.host.closing()) return this.fallBack(kind, err, left);
      // Remembered as a 2025 server, and upgraded since: probed afresh (the verdict is forgotten).
      this.host.log.info(`known as a 2025 server, but ${err.message}`);
    }
    try {
      await this.connectWith(this.newTransport(kind), left());
    } catch (err) {
      await this.fallBack(kind, err, left);
    }
  }

  /** After a probe answered badly (BadProbeAnswer), the 2025 handshake once on a new transport; else `err` again. */
  private async fallBack(kind: TransportKind, err: unknown, left: () => number): Promise<void> {
    if (!(err instanceof BadProbeAnswer) || this.host.closing()) throw err;
    this.noteFallback(err.fallback);
    // A stdio server that ended on the probe starts again: the new process's stderr is what explains it (the log
    // keeps both).
    this.host.stderr.clear();
    await this.connectWith(this.newTransport(kind), left(), true);
  }

  /** The one log line of a probe that led to the 2025 handshake. */
  private noteFallback(fallback: ProbeFallback): void {
    this.probeFallback = fallback;
    this.host.log.info(`server/discover ${fallback.got}; trying the 2025 handshake (initialize)`);
  }

  private async connectWith(transport: Transport, timeoutMs: number, legacy = false): Promise<void> {
    const { config, options, log, redactor } = this.host;
    const probeTimeoutMs = probeBound(options.probeTimeoutMs ?? DEFAULT_HUB_SETTINGS.probeTimeoutMs, timeoutMs);
    const client = new Client(CLIENT_INFO, {
      versionNegotiation: eraNegotiation(probeTimeoutMs),
      listChanged: {
        // Debounced, so a storm of notifications becomes one refresh; we list tolerantly ourselves.
        tools: { debounceMs: 300, autoRefresh: false, onChanged: () => this.host.toolsChanged() },
        ...this.host.features.listChangedOptions(),
      },
    });
    this.client = client;
    this.transport = transport;
    this.clientHandlers = options.clientRequests?.install(client, config, log);
    client.onclose = () => this.host.closed();
    client.onerror = (err) => {
      const message = errorMessage(err);
      // A server may still report progress on a call that was just cancelled (Stop): expected, not a warning.
      if (/^Received a progress notification for an unknown token/.test(message)) log.trace(`protocol: ${message}`);
      // A server that asked something as it ended (or as we closed it) cannot read the answer: nothing is wrong.
      else if (/^Failed to send response: /.test(message) && transportGone(transport, this.host.closing()))
        log.info(`protocol: not answered, the server had ended or was being closed: ${message}`);
      else log.warn(`protocol: ${message}`);
    };
    try {
      await handshake(client, transport, {
        config,
        log,
        redactor,
        trace: options.trace,
        eras: options.eras,
        timeoutMs,
        probeTimeoutMs,
        legacy,
        closing: () => this.host.closing(),
        onFallback: (f) => this.noteFallback(f),
        onPatience: (why) => this.host.slowStart(why),
      });
    } catch (err) {
      await this.dispose();
      throw err;
    }
  }

  private newTransport(kind: TransportKind): Transport {
    return createTransport(kind, this.transportSettings());
  }

  private transportSettings(): TransportSettings {
    const { config, log, stderr, options: o } = this.host;
    return {
      config,
      log,
      stderr,
      closeTimings: o.closeTimings,
      maxMessageBytes: o.maxMessageBytes,
      httpLimits: o.httpLimits,
      auth: o.auth,
      serverPriority: o.serverPriority,
      sandbox: o.sandbox,
    };
  }
}

/**
 * Whether the server can no longer read what is sent: its session is closing, or its process was closed or has exited.
 */
function transportGone(transport: Transport, closing: boolean): boolean {
  return closing || (transport instanceof ProcessTransport && (transport.closed || transport.exit !== undefined));
}
