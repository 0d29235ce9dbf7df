import type { ConflictPolicy } from '../config/hubSettings';

export interface ServerToolNames {
  /** The server's name (its key in settings). */
  server: string;
  /** An explicit prefix from the server entry; when set it is always applied. */
  namespace?: string;
  /** The tool names the server reported, in the server's order. */
  tools: readonly string[];
}

export interface NameAssignment {
  server: string;
  remoteName: string;
  /** The registry name, e.g. `echo` or `analytics.echo`. */
  name: string;
  /** Why the name differs from the remote name; absent when it does not. */
  renamed?: string;
}

/** A tool that was refused, renamed past its prefix, or listed twice. */
export interface NamingProblem {
  server: string;
  tool: string;
  message: string;
}

/**
 * Decides registry names for every server's tools, in settings order, so the result never depends
 * on which server answered first. With `prefix` (the seed's choice) the first server keeps a
 * name; a later server with any clashing name is namespaced as a whole, so one server's tools
 * always share one form.
 */
export function assignNames(
  servers: readonly ServerToolNames[],
  policy: ConflictPolicy,
  /** What is named, for the problems' wording: prompts follow the same policy as tools. */
  kind: 'tool' | 'prompt' = 'tool',
): { assignments: NameAssignment[]; problems: NamingProblem[] } {
  const taken = new Set<string>();
  const assignments: NameAssignment[] = [];
  const problems: NamingProblem[] = [];

  for (const entry of servers) {
    const tools = dedupeWithinServer(entry, problems, kind);
    const prefix = entry.namespace ?? entry.server;
    const clashes = tools.filter((t) => taken.has(t));
    const prefixAll =
      entry.namespace !== undefined || policy === 'prefixAll' || (policy === 'prefix' && clashes.length > 0);
    // One reason per server, shared by its tools.
    const reason = !prefixAll
      ? undefined
      : entry.namespace !== undefined
        ? `prefixed with the server's namespace "${prefix}"`
        : policy === 'prefixAll'
          ? `prefixed with the server name (conflictPolicy "prefixAll")`
          : `prefixed because ${clashes
              .slice(0, 3)
              .map((c) => `"${c}"`)
              .join(
                ', ',
              )}${clashes.length > 3 ? ` and ${clashes.length - 3} more` : ''} already belonged to an earlier server`;

    for (const remoteName of tools) {
      if (!prefixAll && taken.has(remoteName)) {
        // Only reachable under the `error` policy: refuse, visibly.
        problems.push({
          server: entry.server,
          tool: remoteName,
          message: `${kind} "${remoteName}" of server "${entry.server}" clashes with an earlier server's ${kind} and was refused (conflictPolicy "error")`,
        });
        continue;
      }
      let name = prefixAll ? `${prefix}.${remoteName}` : remoteName;
      let renamed = reason;
      if (taken.has(name)) {
        const base = name;
        for (let i = 2; taken.has(name); i++) name = `${base}~${i}`;
        renamed = `${renamed ?? 'renamed'}; "${base}" was taken too, so it became "${name}"`;
        problems.push({
          server: entry.server,
          tool: remoteName,
          message: `${kind} "${remoteName}" of server "${entry.server}" was registered as "${name}" because "${base}" was taken`,
        });
      }
      taken.add(name);
      assignments.push(
        renamed ? { server: entry.server, remoteName, name, renamed } : { server: entry.server, remoteName, name },
      );
    }
  }
  return { assignments, problems };
}

function dedupeWithinServer(entry: ServerToolNames, problems: NamingProblem[], kind: string): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const t of entry.tools) {
    if (seen.has(t)) {
      problems.push({
        server: entry.server,
        tool: t,
        message: `server "${entry.server}" listed ${kind} "${t}" more than once; the later one was ignored`,
      });
      continue;
    }
    seen.add(t);
    out.push(t);
  }
  return out;
}
