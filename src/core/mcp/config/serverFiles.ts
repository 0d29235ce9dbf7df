import { realpath } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { parseSettingsText } from '../../base/jsonc';
import { readEnvFile, within } from './workspacePaths';

/**
 * The MCP files a VS Code or Copilot user already has, read as they are so nobody copies a configuration: the
 * workspace's (written by whoever wrote the repository: trusted and sandboxed as its settings are) and the user's
 * files of other tools (VS Code's profile `mcp.json`, Copilot's `mcp-config.json`: started once the user confirms
 * the file, their pre-approvals ignored until confirmed too).
 */
export interface ServerFile {
  /** As users know it: `.vscode/mcp.json`, `~/.copilot/mcp-config.json`, "VS Code's user mcp.json". */
  label: string;
  /** Its absolute path. */
  path: string;
  /** `workspace`: part of the workspace; `tool`: another tool's file in the user's profile. */
  scope: 'workspace' | 'tool';
  /** The setting that turns reading it off (`minagent.discovery.*`). */
  setting: string;
  /** A workspace file's folder: the file is read only where it resolves inside it (a link out is refused). */
  root?: string;
  /**
   * A sandboxed server of the workspace could make it where it is absent (`.vscode` always exists in a sandboxed
   * server's folder and is read-only there; the place of an absent `.mcp.json` or `.github` is not held).
   */
  sandboxCanMake?: true;
}

/** An input a file declares for `${input:ID}` (VS Code's `inputs`). */
export interface InputDefinition {
  id: string;
  /** `promptString` (the default), `pickString` or `command`. */
  type?: string;
  description?: string;
  password?: boolean;
  default?: string;
  /** `pickString`: the choices, as text or `{ label, value }`. */
  options?: (string | { label?: string; value: string })[];
  /** `command`: the VS Code command whose result is the value, and its arguments. */
  command?: string;
  args?: unknown;
}

/** What a server file holds. */
export interface FileServers {
  servers: Record<string, unknown>;
  inputs: InputDefinition[];
  /** Whether it is in the portable format (`mcpServers`), where `${NAME}` reads the environment. */
  portable: boolean;
}

/** The workspace folder's MCP files, in the order they win: VS Code's, then the portable ones. */
export function workspaceServerFiles(folder: string): ServerFile[] {
  return [
    { label: '.vscode/mcp.json', path: join(folder, '.vscode', 'mcp.json'), setting: 'discovery.vscodeMcpJson' },
    {
      label: '.mcp.json',
      path: join(folder, '.mcp.json'),
      setting: 'discovery.mcpJson',
      sandboxCanMake: true as const,
    },
    {
      label: '.github/mcp.json',
      path: join(folder, '.github', 'mcp.json'),
      setting: 'discovery.githubMcpJson',
      sandboxCanMake: true as const,
    },
  ].map((f) => ({ ...f, scope: 'workspace' as const, root: folder }));
}

/**
 * The user's files of other tools: VS Code's profile `mcp.json` (beside its settings.json in `vscodeUserDir`, when
 * known) and Copilot's `$COPILOT_HOME/mcp-config.json` (`~/.copilot/mcp-config.json`).
 */
export function toolServerFiles(
  vscodeUserDir: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
  home = homedir(),
): ServerFile[] {
  const copilotHome = env.COPILOT_HOME || join(home, '.copilot');
  return [
    ...(vscodeUserDir
      ? [
          {
            label: "VS Code's user mcp.json",
            path: join(vscodeUserDir, 'mcp.json'),
            setting: 'discovery.vscodeUserMcpJson',
          },
        ]
      : []),
    {
      label: env.COPILOT_HOME ? '$COPILOT_HOME/mcp-config.json' : '~/.copilot/mcp-config.json',
      path: join(copilotHome, 'mcp-config.json'),
      setting: 'discovery.copilotMcpConfig',
    },
  ].map((f) => ({ ...f, scope: 'tool' as const }));
}

/**
 * The servers and inputs of a file's text (JSONC). Servers are under `servers` (VS Code's format) or `mcpServers`
 * (the portable one); a file with both is read as VS Code's. Throws a message naming the file when it is not JSONC or
 * its servers are not an object.
 */
export function parseServerFileText(text: string, label: string): FileServers {
  // An empty file (one just made, a placeholder) lists nothing.
  if (!text.trim()) return { servers: {}, inputs: [], portable: !label.endsWith('.vscode/mcp.json') };
  const json = parseSettingsText(text, label);
  const key = 'servers' in json ? 'servers' : 'mcpServers';
  const servers = json[key];
  if (servers !== undefined && (typeof servers !== 'object' || servers === null || Array.isArray(servers)))
    throw new Error(`${label}: "${key}" must be an object keyed by server name`);
  const inputs = Array.isArray(json.inputs)
    ? (json.inputs as InputDefinition[]).filter((i) => i && typeof i === 'object' && typeof i.id === 'string')
    : [];
  return { servers: (servers ?? {}) as Record<string, unknown>, inputs, portable: key === 'mcpServers' };
}

/**
 * Reads one server file; a missing file is undefined, a broken one throws a message naming it. Read as a workspace
 * names it may not be: a link out of the workspace's folder, a FIFO or a device, a file past 1 MB are refused by name,
 * never waited on or read whole.
 */
export async function readServerFile(file: ServerFile): Promise<FileServers | undefined> {
  let text: string;
  try {
    if (file.root && !within(await realpath(file.root), await realpath(file.path)))
      throw new Error('it is a link to a file outside the workspace folder');
    text = await readEnvFile(file.path, 'MCP files');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ENOTDIR')
      return undefined;
    throw new Error(`${file.label}: not read (${file.path}): ${(err as Error).message}`);
  }
  return parseServerFileText(text, file.label);
}

/**
 * A file's entries that no earlier source defines (`taken`: each name's first source, updated here), and the names
 * it defines again, for the winning entry's `alsoIn`: a server configured in two places shows once.
 */
export function claimServers(
  taken: Map<string, string>,
  label: string,
  servers: Record<string, unknown>,
): { own: Record<string, unknown>; again: string[] } {
  const own: Record<string, unknown> = {};
  const again: string[] = [];
  for (const [name, entry] of Object.entries(servers)) {
    if (taken.has(name)) again.push(name);
    else {
      taken.set(name, label);
      own[name] = entry;
    }
  }
  return { own, again };
}

/** The servers with, on each one defined again elsewhere, where (`alsoIn`: name to the later sources). */
export function withAlsoIn<T extends { name: string }>(servers: T[], alsoIn: Map<string, string[]>): T[] {
  return servers.map((s) => (alsoIn.get(s.name)?.length ? { ...s, alsoIn: alsoIn.get(s.name) } : s));
}
