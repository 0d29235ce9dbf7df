// What one `minagent.servers` entry becomes once it is checked and its variables are expanded, and
// the problems a bad entry is reported by.

/** One server entry after validation and variable expansion. */
export type ServerConfig = StdioServerConfig | HttpServerConfig;

interface ServerConfigBase {
  name: string;
  namespace?: string;
  /** Per-call timeout in ms for this server's tools. */
  timeoutMs?: number;
  autoApprove: string[];
  /** Added from an MCP registry: which one, the server's name there and the version written. */
  registry?: RegistryOrigin;
  /**
   * `trusted: true`: the user vouches for this server, so its read-only tools run even after the
   * model read other servers' results. Counts only from user settings (see trustedByUser).
   */
  trusted?: true;
  /** `false` keeps the server's instructions out of the model's system prompt (default: they reach it, bounded). */
  instructions?: false;
  /** `false` shows this server's MCP Apps as their text results, and does not tell the server the chat renders apps. */
  apps?: false;
  /** Where the entry came from, e.g. `user settings`, `workspace settings` or `.vscode/mcp.json`. */
  origin?: string;
  /**
   * From another tool's file in the user's profile (VS Code's `mcp.json`, Copilot's): the user's, not the
   * workspace's. `vouched`: the user confirmed in MinAgent the entry's pre-approvals (`autoApprove`, `trusted`).
   */
  userFile?: { vouched: boolean };
  /** In a multi-root workspace, the folder whose settings or MCP file defined it (its name). */
  folder?: string;
  /** The other files that define a server of this name (not used: the first source wins), for the tooltip. */
  alsoIn?: string[];
  /** The portable format's `tools`: the only tools offered to the model (absent: all of them). */
  tools?: string[];
  /** VS Code's `dev.watch`: globs (relative to the workspace folder) whose change restarts the server. */
  watch?: string[];
  /**
   * Values that must never become text: what `${input:}` and `${env:}` put into the entry, env-file
   * values and header values (see Redactor; short ones are left out there).
   */
  secrets?: string[];
}

export interface StdioServerConfig extends ServerConfigBase {
  type: 'stdio';
  command: string;
  args: string[];
  /** Only the entry's own variables (expanded); the inherited environment is merged at spawn time. */
  env: Record<string, string>;
  cwd: string;
  /**
   * What the entry says of a sandbox: run in one (with what it adds to the defaults), or `false`,
   * never. Absent: the rule for its origin decides (see sandbox/decision.ts).
   */
  sandbox?: SandboxEntry | false;
  /**
   * `cwd`, `envFile` and `env` as the entry wrote them (`${env:X}` unexpanded): part of what the user
   * trusts, shown in the trust prompt and the row's tooltip.
   */
  written?: { cwd?: string; envFile?: string; env?: Record<string, string> };
}

/** What an entry adds to the sandbox's defaults (paths expanded and absolute). */
export interface SandboxEntry {
  allowWrite: string[];
  denyRead: string[];
  /** Never writable, even inside `allowWrite`. */
  denyWrite?: string[];
  allowedDomains: string[];
  /** Never reachable, even when `allowedDomains` covers them. */
  deniedDomains?: string[];
}

export interface HttpServerConfig extends ServerConfigBase {
  type: 'http' | 'sse';
  url: string;
  headers: Record<string, string>;
  /**
   * A client pre-registered with the server's authorization server (first in the spec's order).
   * `issuer`: the authorization server the secret belongs to; the secret never goes to another.
   */
  oauth?: { clientId: string; clientSecret?: string; issuer?: string };
}

export interface ConfigProblem {
  server: string;
  /** The field at fault, e.g. `command` or `env.TOKEN`; empty for the entry as a whole. */
  field: string;
  message: string;
  severity: 'error' | 'warning';
}

export interface ParsedServers {
  /** Valid, enabled servers in settings order. */
  servers: ServerConfig[];
  /** Entries switched off with `disabled: true`. */
  disabled: string[];
  problems: ConfigProblem[];
}

/** Where a registry-added entry came from (its `registry` field). */
export interface RegistryOrigin {
  url: string;
  name: string;
  version: string;
}
