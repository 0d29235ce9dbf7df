import { homedir } from 'node:os';
import { basename, sep } from 'node:path';

export interface VariableContext {
  /** What `${workspaceFolder}` means: the first folder of the workspace. */
  workspaceFolder?: string;
  /** Every folder of the workspace (several in a multi-root workspace); trust applies to all of them. */
  workspaceFolders?: readonly string[];
  userHome?: string;
  env?: NodeJS.ProcessEnv;
  /** Resolves `${input:ID}` for a server; absent means inputs are not supported in this source. */
  input?: (id: string, server: string) => string | undefined;
  /**
   * Env files read ahead by `readEnvFiles` (resolved path -> text, or why it could not be read), so
   * parsing never blocks the extension host on the disk. Absent: files are read while parsing.
   */
  envFiles?: ReadonlyMap<string, string | Error>;
  /**
   * The workspace is not trusted: a server never runs inside any of its folders (the default cwd is
   * the user's home) and no env file there is read, since a repository could plant `node_modules`,
   * `.npmrc`, Python modules or variables there. "There" includes every path that passes through a
   * link inside a folder: the repository decides where its links point (see reachesInto).
   */
  untrusted?: boolean;
  /**
   * The entry is in the portable format (`mcpServers`: `.mcp.json`, the Copilot file), where `${NAME}` and
   * `${NAME:-default}` read the environment as `${env:NAME}` does.
   */
  portable?: boolean;
}

/**
 * Expands `${workspaceFolder}`, `${workspaceFolderBasename}`, `${userHome}`, `${pathSeparator}` (`${/}`),
 * `${env:NAME}` and `${input:ID}` (and in the portable format `${NAME}`, `${NAME:-default}`); anything unresolved is
 * reported. `secret` hears each environment and `${input:}` value put into the text.
 */
export function expandVariables(
  text: string,
  ctx: VariableContext,
  report: (message: string) => void,
  secret?: (value: string) => void,
): string {
  return text.replace(/\$\{([^}]*)\}/g, (whole, inner: string) => {
    const env = ctx.env ?? process.env;
    if (inner === 'workspaceFolder') {
      if (ctx.workspaceFolder !== undefined) return ctx.workspaceFolder;
      report('${workspaceFolder} is used but no folder is open');
      return whole;
    }
    if (inner === 'workspaceFolderBasename') {
      if (ctx.workspaceFolder !== undefined) return basename(ctx.workspaceFolder);
      report('${workspaceFolderBasename} is used but no folder is open');
      return whole;
    }
    if (inner === 'pathSeparator' || inner === '/') return sep;
    if (inner === 'userHome') return ctx.userHome ?? homedir();
    const portable = ctx.portable ? /^([A-Za-z_][A-Za-z0-9_]*)(?::-(.*))?$/s.exec(inner) : null;
    if (portable) {
      const value = env[portable[1]!] || portable[2];
      if (value !== undefined) {
        if (env[portable[1]!]) secret?.(value);
        return value;
      }
      report(`environment variable ${portable[1]} is not set (used as ${whole})`);
      return whole;
    }
    if (inner.startsWith('env:')) {
      const value = env[inner.slice(4)];
      if (value !== undefined) {
        secret?.(value);
        return value;
      }
      report(`environment variable ${inner.slice(4)} is not set (used as ${whole})`);
      return whole;
    }
    if (inner.startsWith('input:') && ctx.input) {
      const value = ctx.input(inner.slice(6), '');
      if (value !== undefined) {
        secret?.(value);
        return value;
      }
      report(`input "${inner.slice(6)}" has no value`);
      return whole;
    }
    report(`unknown variable ${whole}`);
    return whole;
  });
}
