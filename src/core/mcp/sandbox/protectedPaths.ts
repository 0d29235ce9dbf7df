import { lstatSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * What a sandboxed server may never write inside a folder it may write (its cwd, the entry's
 * allowWrite): what another program runs or obeys without the user doing anything, outside the
 * sandbox. In a repository's `.git` only what a committing git needs is writable (GIT_WRITABLE); the
 * rest (its config, `commondir`, `config.worktree`, `info/`, `worktrees/`, `hooks/`, `modules/`...)
 * is read-only: git reads all of them, and VS Code's Git runs `git status` in the background (a
 * `commondir` pointing at a folder of the server's with a `core.fsmonitor` there is a command run
 * outside the sandbox). Beside it, what git and the editor read from the folder (`.gitmodules`,
 * `.vscode`, `.devcontainer`), and the dotfiles a shell or git reads (where the folder is a home).
 *
 * The sandbox library protects such names only below the host process's own working directory,
 * which for the editor is not the workspace. So they are named here for each folder the server may
 * write, and handed to the library as writes it denies.
 *
 * Only what exists can be held read-only: the library would hold an absent one's place with an empty
 * file while the server runs, and an empty `commondir` stops every git command of the user ("failed
 * to read commondir"). So the names of `.git` that git would obey are made first when missing, with
 * what means nothing to git: empty `hooks/`, `info/`, `worktrees/` and `modules/` folders, an empty
 * `config.worktree`, and a `commondir` of `.` (the repository is its own common folder, as without
 * one). In the server's cwd an empty `.vscode` is made too, as the editor would. A cwd that is not a
 * repository may still be made one (see docs/SECURITY.md).
 */
export function protectedPaths(cwd: string, otherRoots: readonly string[]): string[] {
  const out = new Set<string>();
  if (kindOf(cwd) === 'dir') made(join(cwd, '.vscode'));
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
const READ_BY_OTHERS = [
  '.gitconfig',
  '.bashrc',
  '.bash_profile',
  '.zshrc',
  '.zprofile',
  '.profile',
  '.ripgreprc',
  '.mcp.json',
  '.idea',
  '.claude',
];

/**
 * What git and the editor read from a folder, outside the sandbox: its submodules, tasks and settings, its dev
 * container, its `.github` (workflows that CI runs, and `.github/mcp.json`, whose servers MinAgent starts).
 */
const READ_BY_TOOLS = ['.vscode', '.gitmodules', '.devcontainer', '.devcontainer.json', '.github'];

/** What of a repository's `.git` a git that commits writes (lock files are made beside them, and renamed onto them). */
const GIT_WRITABLE =
  /^(objects|refs|logs|index|HEAD|[A-Z_]+_HEAD|COMMIT_EDITMSG|MERGE_MSG|MERGE_MODE|SQUASH_MSG|packed-refs|[^/]+\.lock)$/;

/** What git obeys in `.git` when it is there, and what stands for it when it is not (nothing to git). */
const GIT_PLACEHOLDERS: Array<[name: string, make: 'dir' | string]> = [
  ['hooks', 'dir'],
  ['info', 'dir'],
  ['worktrees', 'dir'],
  ['modules', 'dir'],
  ['config.worktree', ''],
  ['commondir', '.\n'],
];

/** The names of `folder` that exist: its repository's `.git` but what a commit writes, what tools read, and `names`. */
function protect(folder: string, out: Set<string>, names: readonly string[]): void {
  const git = join(folder, '.git');
  const kind = kindOf(git);
  // A worktree's `.git` is a file that says where its repository is: the file whole.
  if (kind === 'file' || kind === 'other') out.add(git);
  if (kind === 'dir') {
    for (const [name, make] of GIT_PLACEHOLDERS)
      (make === 'dir' ? made : (p: string) => madeFile(p, make))(join(git, name));
    for (const entry of entries(git)) if (!GIT_WRITABLE.test(entry)) out.add(join(git, entry));
  }
  for (const name of [...READ_BY_TOOLS, ...names])
    if (kindOf(join(folder, name)) !== 'absent') out.add(join(folder, name));
}

/** A file made where there was none, holding `text` (left in place). */
function madeFile(path: string, text: string): void {
  if (kindOf(path) !== 'absent') return;
  try {
    writeFileSync(path, text, { flag: 'wx' });
  } catch {
    // not this user's to make: nor is it the server's
  }
}

function entries(folder: string): string[] {
  try {
    return readdirSync(folder);
  } catch {
    return [];
  }
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
