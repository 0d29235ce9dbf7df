// 1b. What the MCP trace costs a tool call: a source without a trace (the baseline), with the
// trace off (the default), and with it on, measured in interleaved rounds in the same run.
import { McpToolSource } from '../src/core/mcp/connection/source';
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import { McpTrace, tracedTransport } from '../src/core/mcp/trace/trace';
import { fixture } from '../test/helpers';
import { perCall } from './callOverhead';
import { median, record } from './results';

const ROUNDS = 5;
/** Whole runs of interleaved rounds; each run gives one ratio, and the spread is over the runs. */
const RUNS = 3;
const SENDS = 200_000;

export async function benchTraceOverhead(): Promise<void> {
  const cfg = fixture('research', 'research.mjs');
  const offTrace = new McpTrace();
  const onTrace = new McpTrace();
  onTrace.setEnabled(true);
  const sources = {
    none: new McpToolSource(cfg),
    off: new McpToolSource(cfg, { trace: offTrace }),
    on: new McpToolSource(cfg, { trace: onTrace }),
  };
  await Promise.all(Object.values(sources).map((s) => s.connect()));

  for (const [label, text] of [
    ['one call at a time, a 5-byte echo', 'hello'],
    ['one call at a time, a 64 KB echo', 'x'.repeat(64 * 1024)],
  ] as const) {
    const us = { none: [] as number[], off: [] as number[], on: [] as number[] };
    const offRuns: number[] = [];
    const onRuns: number[] = [];
    const order = ['none', 'off', 'on'] as const;
    for (let run = 0; run < RUNS; run++) {
      const offRatio: number[] = [];
      const onRatio: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        // The order rotates each round, so a busy moment on the machine does not fall on one case.
        const times = { none: 0, off: 0, on: 0 };
        for (let i = 0; i < 3; i++) {
          const which = order[(round + i) % 3]!;
          times[which] = await perCall(() => sources[which].call('echo', { text }));
          us[which].push(times[which]);
        }
        offRatio.push(times.off / times.none);
        onRatio.push(times.on / times.none);
      }
      offRuns.push(median(offRatio));
      onRuns.push(median(onRatio));
    }
    record(
      'trace',
      `${label} (per run the median of ${ROUNDS} interleaved rounds; ratios to no trace, median and min-max of ${RUNS} runs)`,
      {
        noTraceUs: median(us.none),
        traceOffUs: median(us.off),
        traceOnUs: median(us.on),
        offOverNone: median(offRuns),
        offOverNoneMin: Math.min(...offRuns),
        offOverNoneMax: Math.max(...offRuns),
        onOverNone: median(onRuns),
        onOverNoneMin: Math.min(...onRuns),
        onOverNoneMax: Math.max(...onRuns),
        keptEntries: onTrace.entries().length,
        keptKb: onTrace.keptBytes / 1024,
      },
    );
  }
  await Promise.all(Object.values(sources).map((s) => s.close()));
  benchWrapper();
}

/** The wrapper alone, without a process or a pipe: nanoseconds a message costs with the trace off and on. */
function benchWrapper(): void {
  const sink = (): Transport => ({ start: async () => {}, close: async () => {}, send: () => Promise.resolve() });
  const message = {
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'echo', arguments: { text: 'hello' } },
  } as JSONRPCMessage;
  const off = new McpTrace();
  const on = new McpTrace();
  on.setEnabled(true);
  const cases = { none: sink(), off: tracedTransport(sink(), off), on: tracedTransport(sink(), on) };
  const ns = { none: [] as number[], off: [] as number[], on: [] as number[] };
  for (let round = 0; round < ROUNDS + 1; round++) {
    for (const which of ['none', 'off', 'on'] as const) {
      const t = cases[which];
      const t0 = process.hrtime.bigint();
      for (let i = 0; i < SENDS; i++) void t.send(message);
      if (round > 0) ns[which].push(Number(process.hrtime.bigint() - t0) / SENDS); // round 0 warms up
    }
  }
  const [none, offNs, onNs] = [median(ns.none), median(ns.off), median(ns.on)];
  const offRatio = ns.off.map((v, i) => v / ns.none[i]!);
  const onRatio = ns.on.map((v, i) => v / ns.none[i]!);
  record(
    'trace',
    `the transport wrapper alone, per message sent (median of ${ROUNDS} rounds of ${SENDS}; ratios to no trace with their min-max over the rounds)`,
    {
      noTraceNs: none,
      traceOffNs: offNs,
      traceOnNs: onNs,
      offExtraNs: offNs - none,
      onExtraNs: onNs - none,
      offOverNone: median(offRatio),
      offOverNoneMin: Math.min(...offRatio),
      offOverNoneMax: Math.max(...offRatio),
      onOverNone: median(onRatio),
      onOverNoneMin: Math.min(...onRatio),
      onOverNoneMax: Math.max(...onRatio),
    },
  );
}
