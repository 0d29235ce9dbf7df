import { lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * What a sandboxed server may never write inside a folder it may write (its cwd, the entry's
 * allowWrite): what another program runs or obeys without the user doing anything, outside the
 * sandbox. A repository's `.git/config` (VS Code's Git runs `git status` in the background, and a
 * `core.fsmonitor` there is a command), its hooks (run at the next commit), its submodules' own
 * config and hooks (`.git/modules`), the editor's `.vscode` (tasks, terminal profiles, the servers
 * of a workspace), and the dotfiles a shell or git reads (where the folder is the home folder).
 *
 * The sandbox library protects such names only below the host process's own working directory,
 * which for the editor is not the workspace (measured: a sandboxed server wrote the workspace's
 * `.git/config` and `.git/hooks/pre-commit`). So they are named here for each folder the server may
 * write, and handed to the library as writes it denies.
 *
 * A name that exists is made read-only. Where `.git` or `.vscode` does not exist, the server may
 * not create it: the library holds an empty folder there while the server runs (git takes an empty
 * `.git` for no repository), removed after it if it is still empty. Other absent names (a shell's
 * dotfile, `.mcp.json`) are left alone, so no empty file appears in the user's folder.
 */
export function protectedPaths(roots: readonly string[]): string[] {
  const out = new Set<string>();
  for (const root of roots) {
    if (kindOf(root) !== 'dir') continue;
    top(root, out);
    // A repository or an editor folder one or two levels down (a folder of several repositories).
    for (const child of subfolders(root)) {
      nested(child, out);
      for (const grandchild of subfolders(child)) nested(grandchild, out);
    }
  }
  return [...out];
}

/** Dotfiles that a shell or git reads from the folder it starts in or from home (the sandbox library's list). */
const READ_BY_OTHERS = ['.gitconfig', '.gitmodules', '.bashrc', '.bash_profile', '.zshrc', '.zprofile', '.profile', '.ripgreprc', '.mcp.json', '.idea', '.claude'];

function top(root: string, out: Set<string>): void {
  repository(root, out, true);
  const vscode = join(root, '.vscode');
  out.add(vscode);
  // Absent, a path below it makes the library hold a folder there, not a file (a file named
  // `.vscode` would stop the editor from writing the workspace's settings).
  if (kindOf(vscode) === 'absent') out.add(join(vscode, 'settings.json'));
  for (const name of READ_BY_OTHERS) if (kindOf(join(root, name)) !== 'absent') out.add(join(root, name));
}

function nested(folder: string, out: Set<string>): void {
  repository(folder, out, false);
  if (kindOf(join(folder, '.vscode')) !== 'absent') out.add(join(folder, '.vscode'));
}

/** A repository's config, hooks and submodules' own; `.git` whole where it is a file (a worktree's pointer). */
function repository(folder: string, out: Set<string>, evenAbsent: boolean): void {
  const git = join(folder, '.git');
  const kind = kindOf(git);
  if (kind === 'file' || kind === 'other') out.add(git);
  else if (kind === 'dir' || evenAbsent) for (const part of ['config', 'hooks', 'modules']) out.add(join(git, part));
}

const SKIPPED = new Set(['node_modules', '.git']);

function subfolders(folder: string): string[] {
  try {
    return readdirSync(folder, { withFileTypes: true })
      .filter((e) => e.isDirectory() && !SKIPPED.has(e.name))
      .map((e) => join(folder, e.name));
  } catch {
    return []; // unreadable: nothing found in it
  }
}

function kindOf(path: string): 'dir' | 'file' | 'other' | 'absent' {
  try {
    const s = lstatSync(path);
    return s.isDirectory() ? 'dir' : s.isFile() ? 'file' : 'other';
  } catch {
    return 'absent';
  }
}
