import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { protectedPaths } from '../../src/core/mcp/sandbox/protectedPaths';

const folder = () => mkdtempSync(join(tmpdir(), 'minagent-protected-'));

describe('what a sandboxed server never writes in a folder it may write', () => {
  test("in its cwd: everything of a repository's .git but what a commit writes, and .vscode; what git would obey there is made first, meaning nothing to git, so nothing absent is named", () => {
    const repo = folder();
    for (const dir of ['.git/modules', '.git/objects', '.git/refs', '.git/logs'])
      mkdirSync(join(repo, dir), { recursive: true });
    for (const file of ['config', 'HEAD', 'index', 'ORIG_HEAD', 'COMMIT_EDITMSG', 'description'])
      writeFileSync(join(repo, '.git', file), file === 'config' ? '[core]\n' : '');
    const found = protectedPaths(repo, [repo]).sort();
    const git = (name: string) => join(repo, '.git', name);
    assert.deepEqual(
      found,
      [
        ...['commondir', 'config', 'config.worktree', 'description', 'hooks', 'info', 'modules', 'worktrees'].map(git),
        join(repo, '.vscode'),
      ].sort(),
    );
    assert.deepEqual(readdirSync(join(repo, '.vscode')), [], 'an empty .vscode, as the editor would make');
    assert.equal(
      readFileSync(git('commondir'), 'utf8'),
      '.\n',
      'the repository is its own common folder, as without the file',
    );
    assert.equal(readFileSync(git('config.worktree'), 'utf8'), '');
    for (const dir of ['hooks', 'info', 'worktrees']) assert.deepEqual(readdirSync(git(dir)), []);
    const plain = folder();
    assert.deepEqual(protectedPaths(plain, []), [join(plain, '.vscode')], 'not a repository: no .git is made');
    assert.equal(existsSync(join(plain, '.git')), false);
  });

  test('git works as before in a repository given its placeholders', () => {
    const repo = folder();
    const git = (...args: string[]) =>
      spawnSync('git', ['-c', 'user.email=p@example.invalid', '-c', 'user.name=p', ...args], {
        cwd: repo,
        encoding: 'utf8',
      });
    git('init', '-q');
    git('commit', '-q', '--allow-empty', '-m', 'before');
    protectedPaths(repo, []);
    assert.equal(git('status', '--short').status, 0);
    assert.equal(git('commit', '-q', '--allow-empty', '-m', 'after').status, 0);
    assert.equal(git('worktree', 'list').stdout.split('\n').filter(Boolean).length, 1);
  });

  test('beside a repository: .gitmodules and .devcontainer, where they exist', () => {
    const repo = folder();
    mkdirSync(join(repo, '.devcontainer'));
    writeFileSync(join(repo, '.gitmodules'), '');
    const found = protectedPaths(repo, []);
    assert.ok(found.includes(join(repo, '.devcontainer')) && found.includes(join(repo, '.gitmodules')));
    assert.ok(!found.includes(join(repo, '.devcontainer.json')));
  });

  test("another folder it may write: only what is there (nothing is made in it); a worktree's .git file whole; the dotfiles a shell or git reads where they exist", () => {
    const cwd = folder();
    const home = folder();
    writeFileSync(join(home, '.git'), 'gitdir: /elsewhere\n');
    writeFileSync(join(home, '.bashrc'), '');
    writeFileSync(join(home, '.gitconfig'), '');
    const found = protectedPaths(cwd, [home]);
    assert.ok(found.includes(join(home, '.git')) && !found.some((p) => p.startsWith(join(home, '.git/'))));
    assert.ok(found.includes(join(home, '.bashrc')) && found.includes(join(home, '.gitconfig')));
    assert.ok(
      !found.includes(join(home, '.zshrc')) &&
        !found.includes(join(home, '.mcp.json')) &&
        !found.includes(join(home, '.vscode')),
    );
    assert.equal(existsSync(join(home, '.vscode')), false);
  });

  test('repositories and .vscode folders one and two levels down, not in node_modules; a missing folder adds nothing', () => {
    const root = folder();
    for (const dir of [
      'app/.git/hooks',
      'libs/core/.git/hooks',
      'libs/core/.vscode',
      'node_modules/pkg/.git/hooks',
      'a/b/c/.git/hooks',
    ])
      mkdirSync(join(root, dir), { recursive: true });
    const found = protectedPaths(root, [join(root, 'no-such-folder')]);
    for (const p of ['app/.git/hooks', 'libs/core/.git/hooks', 'libs/core/.vscode'])
      assert.ok(found.includes(join(root, p)), p);
    assert.ok(!found.some((p) => p.includes('node_modules') || p.includes('a/b/c') || p.includes('no-such-folder')));
  });
});
