import { McpTrace } from '../trace/trace';

/** Each server's JSON-RPC trace, kept across its restarts; off until enabled. */
export class TraceSet {
  private readonly traces = new Map<string, McpTrace>();
  private tracing = false;

  /** A server's trace (created on first ask, on or off as setTracing says). */
  get(name: string): McpTrace {
    let trace = this.traces.get(name);
    if (!trace) {
      this.traces.set(name, (trace = new McpTrace()));
      trace.setEnabled(this.tracing);
    }
    return trace;
  }

  /** Turns every server's trace on or off, now and for servers added later. */
  setTracing(on: boolean): void {
    this.tracing = on;
    for (const trace of this.traces.values()) trace.setEnabled(on);
  }

  /** Drops the traces of servers no longer configured. */
  keepOnly(names: ReadonlySet<string>): void {
    for (const [name, trace] of this.traces) if (!names.has(name)) trace.dispose(), this.traces.delete(name);
  }

  dispose(): void {
    for (const trace of this.traces.values()) trace.dispose();
  }
}
