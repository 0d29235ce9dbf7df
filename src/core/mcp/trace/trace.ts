import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import { Emitter } from '../../base/event';

export interface TraceEntry {
  seq: number;
  /** When it was sent or received (ms since the epoch). */
  at: number;
  direction: 'out' | 'in';
  /** Set for a message between the host and one of the server's MCP Apps (not the server's own connection). */
  app?: string;
  kind: 'request' | 'response' | 'error' | 'notification';
  method?: string;
  id?: string | number;
  /** The whole message's size in bytes (UTF-8 JSON). */
  size: number;
  /** For a response or error: the time since its request. */
  durationMs?: number;
  /** The message's JSON, redacted, cut to its head past the per-message cap. */
  text: string;
  /** Characters of the JSON left out of `text`. */
  cut?: number;
}

export interface TraceOptions {
  /** Most bytes all kept entries may take (their text plus a small overhead each). Default 2 MB. */
  maxBytes?: number;
  /** Most characters kept of one message (its head). Default 64 KB. */
  maxMessageChars?: number;
  /** The server's own redaction (its substituted secrets); applied to every kept text. */
  redact?: (text: string) => string;
}

const ENTRY_OVERHEAD = 128;
/** Characters past the cut that are redacted with the head (longer than any secret we know of). */
const REDACT_MARGIN = 4096;
const MAX_PENDING = 10_000;
/** Field names whose string values never reach the trace, whatever the server or client put there. */
const SECRET_KEY = /authorization|token|secret|password|passwd|api[_-]?key|apikey|cookie|credential/i;
/**
 * A JSON string member: a short key, and its value up to the closing quote (or the end of a cut text). Keys are bounded
 * so a long value cannot make the scan backtrack far.
 */
const STRING_MEMBER = /"((?:[^"\\]|\\.){1,64})"(\s*:\s*)"((?:[^"\\]|\\.)*)("|\\?$)/g;

/**
 * The JSON-RPC traffic of one server, like the Inspector's history: a ring buffer bounded in bytes
 * (a 64 MB message keeps only its head), redacted before it is kept. Off by default; while off,
 * recording is one boolean check.
 */
export class McpTrace {
  private enabled = false;
  /** Entries from `head` on are kept; the ones before it are dropped and compacted away now and then. */
  private readonly kept: TraceEntry[] = [];
  private head = 0;
  private bytes = 0;
  private seq = 0;
  private readonly pending = new Map<string | number, { method: string; at: number }>();
  private readonly maxBytes: number;
  private readonly maxMessageChars: number;
  private readonly onDidRecordEmitter = new Emitter<TraceEntry>();
  /** Fires for each kept entry, for a live view. */
  readonly onDidRecord = this.onDidRecordEmitter.event;

  private redact: ((text: string) => string) | undefined;

  constructor(options: TraceOptions = {}) {
    this.redact = options.redact;
    this.maxBytes = options.maxBytes ?? 2 * 1024 * 1024;
    this.maxMessageChars = options.maxMessageChars ?? 64 * 1024;
  }

  get isEnabled(): boolean {
    return this.enabled;
  }

  /**
   * The server's own redaction (its substituted secrets), set by whoever knows them; applied before anything is kept.
   */
  setRedactor(redact: ((text: string) => string) | undefined): void {
    this.redact = redact;
  }

  setEnabled(on: boolean): void {
    this.enabled = on;
    if (!on) this.pending.clear();
  }

  /** The kept entries, oldest first. */
  entries(): TraceEntry[] {
    return this.kept.slice(this.head);
  }

  /** The bytes the kept entries take, as counted against maxBytes. */
  get keptBytes(): number {
    return this.bytes;
  }

  clear(): void {
    this.kept.length = 0;
    this.head = 0;
    this.bytes = 0;
    this.pending.clear();
  }

  /** One message: with `app`, one between the host and that app of the server (`out` to the app, `in` from it). */
  record(direction: 'out' | 'in', message: JSONRPCMessage, app?: string): void {
    if (!this.enabled) return;
    const at = Date.now();
    const json = safeStringify(message);
    const m = message as { id?: string | number; method?: string; error?: unknown };
    const entry: TraceEntry = {
      seq: ++this.seq,
      at,
      direction,
      ...(app !== undefined ? { app } : {}),
      kind: 'notification',
      size: Buffer.byteLength(json),
      text: '',
    };
    // An app numbers its requests on its own: its ids are told apart from the server's.
    const channel = app !== undefined ? `app ${app}:` : '';
    if (m.method !== undefined) {
      entry.method = m.method;
      if (m.id !== undefined) {
        entry.kind = 'request';
        entry.id = m.id;
        if (this.pending.size >= MAX_PENDING) this.pending.clear();
        this.pending.set(`${channel}${direction}:${m.id}`, { method: m.method, at });
      }
    } else if (m.id !== undefined) {
      entry.kind = m.error !== undefined ? 'error' : 'response';
      entry.id = m.id;
      const key = `${channel}${direction === 'in' ? 'out' : 'in'}:${m.id}`;
      const request = this.pending.get(key);
      if (request) {
        this.pending.delete(key);
        entry.method = request.method;
        entry.durationMs = at - request.at;
      }
    }
    // Redact a little past the cut, then cut: a secret that straddles the cut is still whole when redacted.
    const wide =
      json.length > this.maxMessageChars + REDACT_MARGIN ? json.slice(0, this.maxMessageChars + REDACT_MARGIN) : json;
    const redacted = redactFields(this.redact ? this.redact(wide) : wide);
    entry.text = redacted.length > this.maxMessageChars ? redacted.slice(0, this.maxMessageChars) : redacted;
    if (json.length > this.maxMessageChars) entry.cut = json.length - this.maxMessageChars;
    this.keep(entry);
  }

  private keep(entry: TraceEntry): void {
    const cost = entry.text.length + ENTRY_OVERHEAD;
    this.kept.push(entry);
    this.bytes += cost;
    while (this.bytes > this.maxBytes && this.kept.length - this.head > 1)
      this.bytes -= this.kept[this.head++]!.text.length + ENTRY_OVERHEAD;
    if (this.head > 1024 && this.head * 2 > this.kept.length) {
      this.kept.splice(0, this.head);
      this.head = 0;
    }
    this.onDidRecordEmitter.fire(entry);
  }

  dispose(): void {
    this.onDidRecordEmitter.dispose();
  }
}

/** Replaces the string value of every secret-looking field (`authorization`, `token`, `apiKey`, ...). */
export function redactFields(json: string): string {
  if (!SECRET_KEY.test(json)) return json; // most messages name no secret at all: one scan
  return json.replace(STRING_MEMBER, (all, key: string, colon: string, _value: string, end: string) =>
    SECRET_KEY.test(key) ? `"${key}"${colon}"[redacted]${end === '"' ? '"' : ''}` : all,
  );
}

function safeStringify(message: unknown): string {
  try {
    return JSON.stringify(message) ?? '';
  } catch {
    return '"[message that cannot be shown as JSON]"';
  }
}

/**
 * Records every message the transport sends and receives in `trace`, on the transport itself (its
 * `send` and `onmessage` are wrapped; nothing else changes, so `instanceof` and optional methods
 * keep working). While the trace is off, a message costs one call and one boolean check.
 */
export function tracedTransport(transport: Transport, trace: McpTrace): Transport {
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    trace.record('out', message);
    return send(message, options);
  };
  let handler: Transport['onmessage'];
  const receive: NonNullable<Transport['onmessage']> = (message, extra) => {
    trace.record('in', message);
    handler?.(message, extra);
  };
  Object.defineProperty(transport, 'onmessage', {
    configurable: true,
    enumerable: true,
    get: () => (handler ? receive : undefined),
    set: (h: Transport['onmessage']) => {
      handler = h;
    },
  });
  return transport;
}
