import { writeFileSync } from 'node:fs';
import type { ServerHub } from '../core/mcp/hub';
import { processTree } from '../core/mcp/transport/processTree';

/**
 * For the e2e suite only: when MINAGENT_TEST_REPORT names a file, the extension writes its servers'
 * states and process trees there on every change, so the no-orphan check knows what to look for.
 */
export function testReporter(hub: ServerHub): (() => void) | undefined {
  const file = process.env.MINAGENT_TEST_REPORT;
  if (!file) return undefined;
  const seen = new Set<number>();
  return () => {
    const servers = hub.servers().map((s) => {
      const pid = s.state.kind === 'running' ? s.state.pid : undefined;
      const tree = pid ? [...processTree(pid)] : [];
      tree.forEach((p) => seen.add(p));
      return { name: s.name, state: s.state.kind, pid, tree };
    });
    writeFileSync(file, JSON.stringify({ at: Date.now(), servers, tools: hub.registry.names(), everSeenPids: [...seen] }, null, 2));
  };
}
