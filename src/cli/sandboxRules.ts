import { homedir } from 'node:os';
import { cliConfigDir } from '../core/auth/fileStore';
import { sandboxCacheRoot, type SandboxRules, type WorkspaceSandboxRule } from '../core/mcp/sandbox/decision';

/**
 * The CLI's sandbox: every server of the folder's settings file is the folder's (whoever wrote the
 * repository wrote it), so with `always` each stdio server runs in a sandbox; the CLI's own config
 * folder (tokens, trusted folders) is never readable from one.
 */
export function cliSandboxRules(
  rule: WorkspaceSandboxRule,
  workspace: string,
  env: NodeJS.ProcessEnv = process.env,
): SandboxRules {
  const home = env.HOME || homedir();
  return {
    workspaceServers: rule,
    // All but another tool's file in the user's profile (VS Code's mcp.json, Copilot's), which is the user's.
    fromWorkspace: (config) => !config.userFile,
    context: {
      home,
      cacheRoot: sandboxCacheRoot(env, home),
      privatePaths: [cliConfigDir(env)],
      workspaceFolders: [workspace],
    },
  };
}
