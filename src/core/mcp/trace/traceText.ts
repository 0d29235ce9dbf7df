import { formatBytes } from '../../net/limits';
import type { McpTrace, TraceEntry } from './trace';

/**
 * A server's trace as text for a read-only document: one line per kept message (direction,
 * kind, method, id, size, timing), and each message's kept text on its own. The text is the
 * trace's own, redacted when it was recorded; nothing here adds anything the trace did not keep.
 */
export function traceSummary(server: string, trace: Pick<McpTrace, 'entries' | 'isEnabled' | 'keptBytes'>): string {
  const entries = trace.entries();
  const head = [
    `MCP trace of server "${server}": ${entries.length} message${entries.length === 1 ? '' : 's'} kept (${formatBytes(trace.keptBytes)}, oldest dropped first)`,
    trace.isEnabled
      ? 'Recording. Open a message: follow the link on its #number (Ctrl+click).'
      : "Not recording: the setting minagent.trace is off. Turn it on to record each server's messages.",
    '',
  ];
  if (!entries.length) return head.join('\n');
  const rows = entries.map((e) => [
    `#${e.seq}`,
    clock(e.at),
    e.app !== undefined
      ? e.direction === 'out'
        ? `→ app ${e.app}`
        : `← app ${e.app}`
      : e.direction === 'out'
        ? '→ out'
        : '← in',
    e.kind,
    e.method ?? '',
    e.id === undefined ? '' : String(e.id),
    formatBytes(e.size),
    e.durationMs === undefined ? '' : `${e.durationMs} ms`,
    e.cut ? `cut, ${e.cut} chars not kept` : '',
  ]);
  const header = ['#', 'time', 'dir', 'kind', 'method', 'id', 'size', 'took', ''];
  const widths = header.map((h, i) => Math.min(40, Math.max(h.length, ...rows.map((r) => r[i]!.length))));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [...head, line(header), ...rows.map(line), ''].join('\n');
}

/** One message's kept text, pretty-printed when it is whole JSON, after a comment line that says what it is. */
export function traceDetail(server: string, entry: TraceEntry): string {
  const peer = entry.app !== undefined ? `the app of tool "${entry.app}" of server "${server}"` : `server "${server}"`;
  const way = entry.direction === 'out' ? 'sent to' : 'received from';
  const method = entry.method ? ` ${entry.method}` : '';
  const id = entry.id !== undefined ? ` (id ${String(entry.id)})` : '';
  const after = entry.durationMs !== undefined ? `, ${entry.durationMs} ms after its request` : '';
  const what = `// ${way} ${peer} at ${new Date(entry.at).toISOString()}: ${entry.kind}${method}${id}, ${formatBytes(entry.size)}${after}`;
  const lines = [what];
  if (entry.cut) lines.push(`// only the head was kept: ${entry.cut} more characters were not`);
  let body = entry.text;
  if (!entry.cut) {
    try {
      body = JSON.stringify(JSON.parse(entry.text), null, 2);
    } catch {
      // kept as it is
    }
  }
  lines.push(body, '');
  return lines.join('\n');
}

/** Where each `#seq` sits in a summary, for links: [line, start, end, seq]. */
export function traceLinks(summary: string): Array<{ line: number; start: number; end: number; seq: number }> {
  const out: Array<{ line: number; start: number; end: number; seq: number }> = [];
  summary.split('\n').forEach((text, line) => {
    const m = /^#(\d+)\b/.exec(text);
    if (m) out.push({ line, start: 0, end: m[0].length, seq: Number(m[1]) });
  });
  return out;
}

function clock(at: number): string {
  const d = new Date(at);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}.${String(d.getMilliseconds()).padStart(3, '0')}`;
}
