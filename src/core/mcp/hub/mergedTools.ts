import type { Tool } from '../../toolRegistry/toolRegistry';
import { assignNames, type NamingProblem } from '../tools/naming';
import type { ConflictPolicy } from '../config/hubSettings';

/** One server's tools as its source registered them (under the server's own names). */
export interface ListedTools {
  server: string;
  namespace?: string;
  tools: readonly Tool[];
  /** The identity of the entry they were listed under. */
  identity: string;
}

/** The servers' tools under the names the policy gives them, in settings order, with the naming problems. */
export function mergeTools(
  listed: readonly ListedTools[],
  policy: ConflictPolicy,
): { tools: Tool[]; problems: NamingProblem[] } {
  const { assignments, problems } = assignNames(
    listed.map(({ server, namespace, tools }) => ({
      server,
      ...(namespace !== undefined ? { namespace } : {}),
      tools: tools.map((t) => t.remoteName!),
    })),
    policy,
  );
  const listedOf = new Map(
    listed.map(({ server, tools, identity }) => [
      server,
      { identity, byRemote: new Map(tools.map((t) => [t.remoteName!, t])) },
    ]),
  );
  const tools: Tool[] = [];
  for (const a of assignments) {
    const { byRemote, identity } = listedOf.get(a.server)!;
    tools.push({
      ...byRemote.get(a.remoteName)!,
      name: a.name,
      serverIdentity: identity,
      ...(a.renamed ? { renamed: a.renamed } : {}),
    });
  }
  return { tools, problems };
}

/** Same names, routes and schemas; schemas compare by identity (a refreshed list brings new objects). */
export function sameTools(a: readonly Tool[], b: readonly Tool[]): boolean {
  if (a.length !== b.length) return false;
  return a.every((t, i) => {
    const u = b[i]!;
    return (
      t.name === u.name &&
      t.server === u.server &&
      t.remoteName === u.remoteName &&
      t.serverIdentity === u.serverIdentity &&
      t.description === u.description &&
      t.parameters === u.parameters &&
      t.renamed === u.renamed &&
      t.annotations === u.annotations
    );
  });
}
