/** Where grants are kept: VS Code's `Memento` has this shape, so does a map in tests. */
export interface GrantStorage {
  get<T>(key: string, defaultValue: T): T;
  update(key: string, value: unknown): PromiseLike<void>;
}

/** "Always allow" for one tool of one server, as that server was when the user chose it. */
export interface Grant {
  /** serverIdentity() of the entry: another origin, command, arguments or URL is another server. */
  identity: string;
  /** The server's own name for the tool (not the registry name, which can shift). */
  tool: string;
  /** The server's name, for showing the grant only; it decides nothing. */
  server: string;
  /**
   * A grant for one of MinAgent's own tools that routes to a server (read_resource): `tool` is the
   * built-in's name and `identity` the server it reaches. Never matches a server's own tool.
   */
  builtin?: true;
}

/** What a grant is looked up by: a server identity, a tool, and whether the tool is MinAgent's own. */
export interface GrantKey {
  identity: string;
  tool: string;
  server: string;
  builtin?: true;
}

/**
 * The grant an approval request is kept under, or undefined when it cannot be kept. An MCP tool
 * by its server identity and its own name; a built-in that routes by its arguments (read_resource)
 * by the identity of the server the call reaches (`identityOf`, from the server's current entry),
 * so "Always allow" for it holds per server, never for every server at once.
 */
export function grantKey(
  req: { name: string; server?: string; serverIdentity?: string; remoteName?: string; scope?: string },
  identityOf: (server: string) => string | undefined,
): GrantKey | undefined {
  if (req.server === undefined) return undefined;
  if (req.serverIdentity !== undefined)
    return req.remoteName !== undefined
      ? { identity: req.serverIdentity, tool: req.remoteName, server: req.server }
      : undefined;
  if (req.remoteName !== undefined) return undefined;
  const identity = identityOf(req.server);
  // A built-in bound to more than its server (load_skill: the skill and its digest) is kept with that scope.
  const tool = req.scope !== undefined ? `${req.name}#${req.scope}` : req.name;
  return identity !== undefined ? { identity, tool, server: req.server, builtin: true } : undefined;
}

const KEY = 'minagent.approvals.grants';
/** Grants of earlier versions: "server/tool", keyed by the server's name alone. */
const LEGACY_KEY = 'minagent.approvals.always';

/**
 * The "Always allow" grants of one workspace. A grant holds for one (server identity, tool) pair,
 * so it lapses when the server's entry changes what it runs or where it came from.
 */
export class AlwaysAllow {
  constructor(private readonly storage: GrantStorage) {}

  has(identity: string | undefined, tool: string | undefined, builtin = false): boolean {
    if (identity === undefined || tool === undefined) return false;
    return this.list().some((g) => g.identity === identity && g.tool === tool && (g.builtin === true) === builtin);
  }

  /** Whether a request's grant (see grantKey) is kept. */
  hasKey(key: GrantKey | undefined): boolean {
    return key !== undefined && this.has(key.identity, key.tool, key.builtin === true);
  }

  list(): Grant[] {
    const stored = this.storage.get<unknown>(KEY, []);
    return Array.isArray(stored) ? stored.filter(isGrant) : [];
  }

  async add(grant: Grant): Promise<void> {
    if (this.has(grant.identity, grant.tool, grant.builtin === true)) return;
    await this.storage.update(KEY, [...this.list(), grant]);
  }

  async remove(grants: readonly Grant[]): Promise<void> {
    const gone = (g: Grant) =>
      grants.some((r) => r.identity === g.identity && r.tool === g.tool && r.builtin === g.builtin);
    await this.storage.update(
      KEY,
      this.list().filter((g) => !gone(g)),
    );
  }

  /**
   * Takes the grants an earlier version stored by server name alone. They cannot be trusted (the
   * entry behind the name may have changed since), so they are removed; the caller asks once more
   * for each and says why. Returns them as "server/tool".
   */
  async takeLegacy(): Promise<string[]> {
    const legacy = this.storage.get<unknown>(LEGACY_KEY, undefined);
    if (legacy === undefined) return [];
    await this.storage.update(LEGACY_KEY, undefined);
    return Array.isArray(legacy) ? legacy.filter((k): k is string => typeof k === 'string') : [];
  }
}

function isGrant(v: unknown): v is Grant {
  const g = v as Partial<Grant> | null;
  return (
    typeof g === 'object' &&
    g !== null &&
    typeof g.identity === 'string' &&
    typeof g.tool === 'string' &&
    typeof g.server === 'string' &&
    (g.builtin === undefined || g.builtin === true)
  );
}
