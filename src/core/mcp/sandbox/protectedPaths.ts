import { lstatSync, mkdirSync, readdirSync } from 'node:fs';
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
 * Only what exists is named: the library would hold an absent one's place with an empty file or
 * folder and remove it after, and another process's sandbox (a second window, the CLI, a test beside
 * this one) could find it, bind it, and then lose it to that removal, failing to start. So in the
 * server's cwd the two that matter most are made first when missing, as the editor and git would
 * make them: an empty `.vscode`, and a repository's `hooks` folder. A cwd that is not a repository
 * may still be made one (see docs/SECURITY.md).
 */
export function protectedPaths(cwd: string, otherRoots: readonly string[]): string[] {
  const out = new Set<string>();
  if (kindOf(cwd) === 'dir') {
    made(join(cwd, '.vscode'));
    if (kindOf(join(cwd, '.git')) === 'dir') made(join(cwd, '.git', 'hooks'));
  }
  for (const root of new Set([cwd, ...otherRoots])) {
    if (kindOf(root) !== 'dir') continue;
    protect(root, out, READ_BY_OTHERS);
    // A repository or an editor folder one or two levels down (a folder of several repositories).
    for (const child of subfolders(root)) {
      protect(child, out, []);
      for (const grandchild of subfolders(child)) protect(grandchild, out, []);
    }
  }
  return [...out];
}

/** Dotfiles that a shell or git reads from the folder it starts in or from home (the sandbox library's list). */
const READ_BY_OTHERS = ['.gitconfig', '.gitmodules', '.bashrc', '.bash_profile', '.zshrc', '.zprofile', '.profile', '.ripgreprc', '.mcp.json', '.idea', '.claude'];

/** The names of `folder` that exist: its repository's config, hooks and submodules, `.vscode`, and `names`. */
function protect(folder: string, out: Set<string>, names: readonly string[]): void {
  const git = join(folder, '.git');
  const kind = kindOf(git);
  // A worktree's `.git` is a file that says where its repository is: the file whole.
  if (kind === 'file' || kind === 'other') out.add(git);
  if (kind === 'dir') for (const part of ['config', 'hooks', 'modules']) if (kindOf(join(git, part)) !== 'absent') out.add(join(git, part));
  for (const name of ['.vscode', ...names]) if (kindOf(join(folder, name)) !== 'absent') out.add(join(folder, name));
}

/** A folder made where there was none (an empty one; left in place). */
function made(path: string): void {
  if (kindOf(path) !== 'absent') return;
  try {
    mkdirSync(path);
  } catch {
    // not this user's to make: nor is it the server's
  }
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
