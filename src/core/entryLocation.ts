import { findNodeAtLocation, parseTree, type JSONPath, type Node } from 'jsonc-parser';

/** Where a server entry sits in a settings or MCP file, as offsets into its text. */
export interface EntryLocation {
  offset: number;
  length: number;
}

/** Where a file keeps its servers: settings files under `minagent.servers`, MCP files under their own key. */
export type ServersKey = { kind: 'settings'; workspaceFile?: boolean } | { kind: 'mcp'; key: 'servers' | 'mcpServers' };

function serverPaths(where: ServersKey): JSONPath[] {
  if (where.kind === 'mcp') return [[where.key]];
  const base: JSONPath = where.workspaceFile ? ['settings'] : [];
  return [
    [...base, 'minagent.servers'],
    [...base, 'minagent', 'servers'],
  ];
}

/** A problem's field (`command`, `env.TOKEN`, `args[0]`, `args.0`) as a JSON path. */
export function fieldPath(field: string): JSONPath {
  if (!field) return [];
  return field.split(/\.|(?=\[)/).map((part) => {
    const index = /^\[(\d+)\]$/.exec(part);
    return index ? Number(index[1]) : /^\d+$/.test(part) ? Number(part) : part;
  });
}

/**
 * The entry of server `name` in a JSONC text: its field when given and present (the value), else the
 * entry's key. Undefined when the file has no such entry. Reads the text only; nothing is evaluated.
 */
export function locateEntry(text: string, where: ServersKey, name: string, field = ''): EntryLocation | undefined {
  const tree = parseTree(text, [], { allowTrailingComma: true, disallowComments: false });
  if (!tree) return undefined;
  for (const servers of serverPaths(where)) {
    const entry = findNodeAtLocation(tree, [...servers, name]);
    if (!entry) continue;
    const path = fieldPath(field);
    // The deepest part of the field that exists: a missing "command" points at the entry itself.
    for (let n = path.length; n > 0; n--) {
      const value = findNodeAtLocation(entry, path.slice(0, n));
      if (value) return span(value);
    }
    return keyOf(entry) ?? span(entry);
  }
  return undefined;
}

/** Where the servers object itself starts (for opening a file at its servers when no entry is named). */
export function locateServers(text: string, where: ServersKey): EntryLocation | undefined {
  const tree = parseTree(text, [], { allowTrailingComma: true, disallowComments: false });
  if (!tree) return undefined;
  for (const servers of serverPaths(where)) {
    const node = findNodeAtLocation(tree, servers);
    if (node) return keyOf(node) ?? span(node);
  }
  return undefined;
}

function span(node: Node): EntryLocation {
  return { offset: node.offset, length: node.length };
}

/** The key of a property's value node (`"name"` in `"name": {...}`). */
function keyOf(value: Node): EntryLocation | undefined {
  const key = value.parent?.type === 'property' ? value.parent.children?.[0] : undefined;
  return key ? span(key) : undefined;
}
