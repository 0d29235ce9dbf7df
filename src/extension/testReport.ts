import { rename, writeFile } from 'node:fs/promises';
import type { ServerHub } from '../core/mcp/hub/serverHub';
import { processTree } from '../core/mcp/transport/processTree';

/**
 * For the e2e suite only: when MINAGENT_TEST_REPORT names a file, the extension writes its servers'
 * states and process trees there on every change, so the no-orphan check knows what to look for.
 * Reports are written one after another, off the event loop, each replacing the file whole.
 */
export function testReporter(hub: ServerHub): (() => void) | undefined {
  const file = process.env.MINAGENT_TEST_REPORT;
  if (!file) return undefined;
  const seen = new Set<number>();
  let writing = Promise.resolve();
  return () => {
    const states = hub.servers().map((s) => ({
      name: s.name,
      state: s.state.kind,
      pid: s.state.kind === 'running' ? s.state.pid : undefined,
      origin: s.config.origin,
      sandboxed: s.sandbox !== undefined,
    }));
    const tools = hub.registry.names();
    writing = writing
      .then(async () => {
        const servers = await Promise.all(
          states.map(async (s) => {
            const tree = s.pid ? [...(await processTree(s.pid))] : [];
            tree.forEach((p) => seen.add(p));
            return { ...s, tree };
          }),
        );
        await writeFile(
          `${file}.tmp`,
          JSON.stringify({ at: Date.now(), servers, tools, everSeenPids: [...seen] }, null, 2),
        );
        await rename(`${file}.tmp`, file);
      })
      .catch(() => {});
  };
}
