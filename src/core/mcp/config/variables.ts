import { homedir } from 'node:os';

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
}

/**
 * Expands `${workspaceFolder}`, `${userHome}`, `${env:NAME}` and `${input:ID}`; anything unresolved
 * is reported. `secret` hears each `${env:}` and `${input:}` value put into the text.
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
    if (inner === 'userHome') return ctx.userHome ?? homedir();
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
