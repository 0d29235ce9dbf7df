import { Client, LATEST_PROTOCOL_VERSION, type Implementation, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/client';
import type { ProcessTransport } from './processTransport';

/** Which era a stdio server speaks, as its disposable sibling showed it. */
export type StdioEra = 'modern' | 'legacy';

const TELL_ID = 'minagent-era-tell';

/**
 * Finds out whether a stdio server speaks the 2026-07-28 era, on a disposable sibling process
 * started from the same parameters, so the probe never spends the session process's one life (a
 * server built on an SDK that exits on any request before initialize is simply a legacy server).
 *
 * The SDK decides: a throwaway client in `auto` mode sends `server/discover` and classifies the
 * reply. The SDK's own sibling probe exists only for its `StdioClientTransport`; on ours it would
 * probe in place, where a legacy server that stays silent costs the whole probe timeout. So beside
 * the probe the sibling also gets an `initialize` (the one request every legacy server answers): a
 * result to it while the probe is unanswered is the server saying it speaks the old era, and the
 * SDK hears it as the "Method not found" a well-behaved legacy server would have sent. Silent,
 * exiting and erroring legacy servers are all known at once.
 *
 * Resolves `legacy` for anything that is not definite modern evidence, including a sibling that
 * could not start: the session process then fails with the real reason.
 */
export async function probeStdioEra(sibling: ProcessTransport, clientInfo: Implementation, timeoutMs: number): Promise<StdioEra> {
  const tell = new TellingTransport(sibling, clientInfo);
  const client = new Client(clientInfo, { versionNegotiation: { mode: 'auto', probe: { timeoutMs } } });
  try {
    const connected = client.connect(tell, { timeout: timeoutMs }).then(
      () => (client.getProtocolEra() === 'modern' ? 'modern' : 'legacy') as StdioEra,
      () => 'legacy' as const,
    );
    // The SDK falls back to initialize in place once it decided "legacy": that is the answer too.
    return await Promise.race([connected, tell.fallback]);
  } finally {
    await sibling.close();
  }
}

/**
 * The sibling as the probing client sees it: stdio-shaped (`pid`, `stderr`), so the SDK applies its
 * stdio verdicts (silence or a close means legacy), with the initialize tell beside the probe.
 */
class TellingTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;
  /** Resolves when the SDK, having decided the server is legacy, opens the old handshake. */
  readonly fallback: Promise<'legacy'>;
  private resolveFallback!: (era: 'legacy') => void;
  private pendingProbe: string | number | undefined;
  private told = false;

  constructor(
    private readonly sibling: ProcessTransport,
    private readonly clientInfo: Implementation,
  ) {
    this.fallback = new Promise((r) => (this.resolveFallback = r));
    sibling.onclose = () => this.onclose?.();
    sibling.onerror = (err) => this.onerror?.(err);
    sibling.onmessage = (message) => this.receive(message);
  }

  get pid(): number | undefined {
    return this.sibling.pid;
  }

  get stderr(): null {
    return null;
  }

  start(): Promise<void> {
    return this.sibling.start();
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const m = message as { id?: string | number; method?: string };
    if (m.method === 'initialize') {
      this.resolveFallback('legacy');
      return;
    }
    await this.sibling.send(message);
    if (m.method !== 'server/discover' || m.id === undefined) return;
    this.pendingProbe = m.id;
    if (this.told) return;
    this.told = true;
    await this.sibling
      .send({ jsonrpc: '2.0', id: TELL_ID, method: 'initialize', params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: this.clientInfo } })
      .catch(() => undefined); // a sibling that is gone shows as a close
  }

  private receive(message: JSONRPCMessage): void {
    const m = message as { id?: string | number; result?: unknown };
    if (m.id !== TELL_ID) {
      if (m.id !== undefined && m.id === this.pendingProbe) this.pendingProbe = undefined;
      this.onmessage?.(message);
      return;
    }
    const probe = this.pendingProbe;
    if (m.result === undefined || probe === undefined) return;
    this.pendingProbe = undefined;
    this.onmessage?.({ jsonrpc: '2.0', id: probe, error: { code: -32601, message: 'Method not found (the server answered initialize instead)' } });
  }

  close(): Promise<void> {
    return this.sibling.close();
  }
}
