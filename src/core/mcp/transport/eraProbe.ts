import { Client, LATEST_PROTOCOL_VERSION, type Implementation, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/client';
import type { ProcessTransport } from './processTransport';

/** Which era a stdio server speaks, as its disposable sibling showed it. */
export type StdioEra = 'modern' | 'legacy';

/** The probe was answered with something that is not a valid 2026-07-28 reply, and the 2025 handshake follows. */
export interface ProbeFallback {
  /** What the probe got, as a predicate of "server/discover": "answered HTTP 500: ...", "did not answer within 5000 ms". */
  got: string;
  /**
   * An answer a failed handshake needs no help to explain: what a 2025 server gives (Method not
   * found; silence while it answers initialize; a stdio server that exits on it), or a list of
   * other revisions. A failed handshake after it says so alone.
   */
  ordinary?: boolean;
}

/** The era, and for the 2025 handshake what the probe got. */
export interface StdioVerdict {
  era: StdioEra;
  fallback?: ProbeFallback;
}

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
 * Resolves `legacy` for anything that is not definite modern evidence (a JSON-RPC error, a line
 * that is not JSON-RPC, no answer), including a sibling that could not start: the session process
 * then fails with the real reason. The legacy verdict says what the probe got. "No answer" is
 * `answerMs` after the sibling's first sign of life (any output, stderr included), so a program
 * that is slow to start on a busy machine is not taken for a stuck one; one that shows none is
 * given `startMs`.
 */
export async function probeStdioEra(session: ProcessTransport, clientInfo: Implementation, bounds: { answerMs: number; startMs: number }): Promise<StdioVerdict> {
  const { answerMs, startMs } = bounds;
  let stuck: NodeJS.Timeout | undefined;
  let resolveStuck!: (verdict: 'stuck') => void;
  const stuckVerdict = new Promise<'stuck'>((r) => (resolveStuck = r));
  const alive = () => (stuck ??= setTimeout(() => resolveStuck('stuck'), answerMs));
  let tell: TellingTransport | undefined;
  const sibling = session.sibling({
    onStderr: alive,
    onGarbage: (line) => {
      alive();
      tell?.garbage(line);
    },
  });
  tell = new TellingTransport(sibling, clientInfo, alive);
  const client = new Client(clientInfo, { versionNegotiation: { mode: 'auto', probe: { timeoutMs: startMs } } });
  try {
    const connected = client.connect(tell, { timeout: startMs }).then(
      () => (client.getProtocolEra() === 'modern' ? 'modern' : 'legacy') as StdioEra,
      () => 'legacy' as const,
    );
    // The SDK falls back to initialize in place once it decided "legacy": that is the answer too.
    const era = await Promise.race([connected, tell.fallback, stuckVerdict]);
    if (era === 'stuck') return { era: 'legacy', fallback: tell.got(answerMs) };
    return era === 'modern' ? { era } : { era, fallback: tell.got(startMs) };
  } finally {
    clearTimeout(stuck);
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
  private probeSent = false;
  /** What the probe got, once it got something (see got()). */
  private answer: ProbeFallback | undefined;

  constructor(
    private readonly sibling: ProcessTransport,
    private readonly clientInfo: Implementation,
    /** Called on every message from the sibling: it is alive. */
    private readonly alive: () => void,
  ) {
    this.fallback = new Promise((r) => (this.resolveFallback = r));
    sibling.onclose = () => {
      // A process that ends before the probe was answered (or even sent) has given its answer: no
      // waiting for a timeout; the session process then fails (or not) with its own reason.
      if (this.pendingProbe !== undefined || !this.probeSent) {
        this.answer ??= { got: `did not answer: the probe process ended${describeExit(sibling)}`, ordinary: true };
        this.resolveFallback('legacy');
      }
      this.onclose?.();
    };
    sibling.onerror = (err) => this.onerror?.(err);
    sibling.onmessage = (message) => this.receive(message);
  }

  /** A line of the sibling's stdout that is not JSON-RPC: while the probe waits, that is its answer. */
  garbage(line: string): void {
    if (this.pendingProbe !== undefined) this.answer ??= { got: `answered a line that is not JSON-RPC: ${clip(line)}` };
  }

  /** What the probe got, for the legacy verdict: its answer, or that it had none within `timeoutMs`. */
  got(timeoutMs: number): ProbeFallback {
    return this.answer ?? { got: `did not answer within ${timeoutMs} ms` };
  }

  get pid(): number | undefined {
    return this.sibling.pid;
  }

  get stderr(): null {
    return null;
  }

  async start(): Promise<void> {
    try {
      await this.sibling.start();
    } catch (err) {
      // A program that cannot start (not found, not executable) is not slow: say so at once.
      this.answer ??= { got: `did not answer: the probe process could not start (${clip(err instanceof Error ? err.message : String(err))})`, ordinary: true };
      this.resolveFallback('legacy');
      throw err;
    }
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const m = message as { id?: string | number; method?: string };
    if (m.method === 'initialize') {
      this.resolveFallback('legacy');
      return;
    }
    const isProbe = m.method === 'server/discover' && m.id !== undefined;
    // Pending before it is written: the answer may arrive before the write is reported done.
    if (isProbe) {
      this.pendingProbe = m.id;
      this.probeSent = true;
    }
    await this.sibling.send(message);
    if (!isProbe || this.told) return;
    this.told = true;
    await this.sibling
      .send({ jsonrpc: '2.0', id: TELL_ID, method: 'initialize', params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: this.clientInfo } })
      .catch(() => undefined); // a sibling that is gone shows as a close
  }

  private receive(message: JSONRPCMessage): void {
    this.alive();
    const m = message as { id?: string | number; result?: unknown; error?: { code?: unknown; message?: unknown } };
    if (m.id !== TELL_ID) {
      if (m.id !== undefined && m.id === this.pendingProbe) {
        this.pendingProbe = undefined;
        this.answer ??= m.error ? rpcErrorAnswer(m.error) : resultAnswer(m.result);
      }
      this.onmessage?.(message);
      return;
    }
    const probe = this.pendingProbe;
    if (m.result === undefined || probe === undefined) return;
    this.pendingProbe = undefined;
    this.answer ??= { got: 'did not answer (the server answered initialize)', ordinary: true };
    this.onmessage?.({ jsonrpc: '2.0', id: probe, error: { code: -32601, message: 'Method not found (the server answered initialize instead)' } });
  }

  close(): Promise<void> {
    return this.sibling.close();
  }
}

function describeExit(sibling: ProcessTransport): string {
  const exit = sibling.exit;
  if (!exit) return '';
  return exit.signal ? ` (killed by ${exit.signal})` : ` (exit code ${exit.code})`;
}

/** A JSON-RPC error to the probe; "Method not found" is what a 2025 server answers. */
export function rpcErrorAnswer(error: { code?: unknown; message?: unknown }): ProbeFallback {
  return { got: `answered a JSON-RPC error ${String(error.code)} (${clip(String(error.message ?? ''))})`, ...(error.code === -32601 ? { ordinary: true } : {}) };
}

/** A result to the probe that did not make the server a 2026-07-28 one: a discover result of other revisions, or not one. */
export function resultAnswer(result: unknown): ProbeFallback {
  const offered = (result as { supportedVersions?: unknown } | undefined)?.supportedVersions;
  if (Array.isArray(offered) && offered.length && offered.every((v) => typeof v === 'string')) {
    // What the handshake then says (a refusal that names the versions) explains it.
    return { got: `offered only protocol ${clip(offered.join(', '))}`, ordinary: true };
  }
  return { got: 'answered a result that is not a valid 2026-07-28 discover result' };
}

/** One line of at most 200 characters. */
export function clip(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}
