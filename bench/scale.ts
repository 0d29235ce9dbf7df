// 4. Scale: 50 servers x 100 tools registered, named and conflict-resolved (every name clashes).
import { succeeded } from '../src/core/toolRegistry/toolResult';
import { assignNames } from '../src/core/mcp/tools/naming';
import { McpToolSource, type RemoteTool } from '../src/core/mcp/connection/source';
import { ToolRegistry, type Tool } from '../src/core/toolRegistry/toolRegistry';
import { median, record } from './results';

const SERVERS = 50;
const TOOLS = 100;
const lists = Array.from({ length: SERVERS }, (_, s) => ({
  server: `server${s}`,
  tools: Array.from(
    { length: TOOLS },
    (_, t): RemoteTool =>
      ({
        name: `tool_${t}`,
        description: `tool ${t} of server ${s}`,
        inputSchema: { type: 'object', properties: { q: { type: 'string' } } },
      }) as RemoteTool,
  ),
}));
// Sources that are never connected: only their adapter (`toTool`, what `register` adds) is used.
const sources = new Map(
  lists.map((l) => [
    l.server,
    new McpToolSource({ name: l.server, type: 'stdio', command: 'node', args: [], env: {}, cwd: '.', autoApprove: [] }),
  ]),
);
const adapt = (t: RemoteTool, name: string, server: string) =>
  sources.get(server)!.toTool(t, name, async () => succeeded(''));

function ours(): number {
  const t0 = performance.now();
  const { assignments } = assignNames(
    lists.map((l) => ({ server: l.server, tools: l.tools.map((t) => t.name) })),
    'prefix',
  );
  const byServer = new Map(lists.map((l) => [l.server, new Map(l.tools.map((t) => [t.name, t]))]));
  const tools: Tool[] = assignments.map((a) => adapt(byServer.get(a.server)!.get(a.remoteName)!, a.name, a.server));
  const registry = new ToolRegistry();
  registry.replaceAll(tools);
  registry.schemas(); // wire names for every tool
  const ms = performance.now() - t0;
  if (registry.size !== SERVERS * TOOLS) throw new Error('a tool was lost');
  return ms;
}

/** The baseline: the same tools put in a Map under "server.tool", no conflict policy, no wire names. */
function baseline(): number {
  const t0 = performance.now();
  const map = new Map<string, Tool>();
  for (const l of lists)
    for (const t of l.tools) map.set(`${l.server}.${t.name}`, adapt(t, `${l.server}.${t.name}`, l.server));
  return performance.now() - t0;
}

export function benchScale(): void {
  for (let i = 0; i < 20; i++) {
    ours();
    baseline();
  }
  const o: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < 30; i++) {
    o.push(ours());
    b.push(baseline());
  }
  record('scale', `${SERVERS} servers x ${TOOLS} tools, all names clashing (median of 30)`, {
    minagentMs: median(o),
    mapOnlyMs: median(b),
    ratio: median(o) / median(b),
  });
}
