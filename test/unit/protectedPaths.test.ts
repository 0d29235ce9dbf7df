import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { protectedPaths } from '../../src/core/mcp/sandbox/protectedPaths';

const folder = () => mkdtempSync(join(tmpdir(), 'minagent-protected-'));

describe('what a sandboxed server never writes in a folder it may write', () => {
  test("in its cwd: a repository's config, hooks and submodules, and .vscode; .vscode and hooks are made when missing, so nothing absent is named", () => {
    const repo = folder();
    mkdirSync(join(repo, '.git', 'modules'), { recursive: true });
    writeFileSync(join(repo, '.git', 'config'), '[core]\n');
    assert.deepEqual(protectedPaths(repo, [repo]).sort(), [join(repo, '.git/config'), join(repo, '.git/hooks'), join(repo, '.git/modules'), join(repo, '.vscode')].sort());
    assert.deepEqual(readdirSync(join(repo, '.vscode')), [], 'an empty .vscode, as the editor would make');
    assert.ok(existsSync(join(repo, '.git', 'hooks')));
    const plain = folder();
    assert.deepEqual(protectedPaths(plain, []), [join(plain, '.vscode')], 'not a repository: no .git is made');
    assert.equal(existsSync(join(plain, '.git')), false);
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
    assert.ok(!found.includes(join(home, '.zshrc')) && !found.includes(join(home, '.mcp.json')) && !found.includes(join(home, '.vscode')));
    assert.equal(existsSync(join(home, '.vscode')), false);
  });

  test('repositories and .vscode folders one and two levels down, not in node_modules; a missing folder adds nothing', () => {
    const root = folder();
    for (const dir of ['app/.git/hooks', 'libs/core/.git/hooks', 'libs/core/.vscode', 'node_modules/pkg/.git/hooks', 'a/b/c/.git/hooks']) mkdirSync(join(root, dir), { recursive: true });
    const found = protectedPaths(root, [join(root, 'no-such-folder')]);
    for (const p of ['app/.git/hooks', 'libs/core/.git/hooks', 'libs/core/.vscode']) assert.ok(found.includes(join(root, p)), p);
    assert.ok(!found.some((p) => p.includes('node_modules') || p.includes('a/b/c') || p.includes('no-such-folder')));
  });
});
