import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { protectedPaths } from '../../src/core/mcp/sandbox/protectedPaths';

const folder = () => mkdtempSync(join(tmpdir(), 'minagent-protected-'));

describe('what a sandboxed server never writes in a folder it may write', () => {
  test("a repository's config, hooks and submodules, and .vscode; absent, .git and .vscode cannot be created either", () => {
    const repo = folder();
    mkdirSync(join(repo, '.git'));
    mkdirSync(join(repo, '.vscode'));
    assert.deepEqual(protectedPaths([repo]).sort(), [join(repo, '.git/config'), join(repo, '.git/hooks'), join(repo, '.git/modules'), join(repo, '.vscode')].sort());
    const plain = folder();
    assert.deepEqual(protectedPaths([plain]).sort(), [join(plain, '.git/config'), join(plain, '.git/hooks'), join(plain, '.git/modules'), join(plain, '.vscode'), join(plain, '.vscode/settings.json')].sort(), 'a path below each, so the placeholder is a folder');
  });

  test('a worktree\'s .git file whole; the dotfiles a shell or git reads only where they exist (no empty file appears for the others)', () => {
    const home = folder();
    writeFileSync(join(home, '.git'), 'gitdir: /elsewhere\n');
    writeFileSync(join(home, '.bashrc'), '');
    writeFileSync(join(home, '.gitconfig'), '');
    const found = protectedPaths([home]);
    assert.ok(found.includes(join(home, '.git')) && !found.some((p) => p.startsWith(join(home, '.git/'))));
    assert.ok(found.includes(join(home, '.bashrc')) && found.includes(join(home, '.gitconfig')));
    assert.ok(!found.includes(join(home, '.zshrc')) && !found.includes(join(home, '.mcp.json')));
  });

  test('repositories and .vscode folders one and two levels down, not in node_modules; a missing folder adds nothing', () => {
    const root = folder();
    for (const dir of ['app/.git', 'libs/core/.git', 'libs/core/.vscode', 'node_modules/pkg/.git', 'a/b/c/.git']) mkdirSync(join(root, dir), { recursive: true });
    const found = protectedPaths([root, join(root, 'no-such-folder')]);
    for (const p of ['app/.git/config', 'app/.git/hooks', 'libs/core/.git/config', 'libs/core/.vscode']) assert.ok(found.includes(join(root, p)), p);
    assert.ok(!found.some((p) => p.includes('node_modules') || p.includes('a/b/c') || p.includes('no-such-folder')));
  });
});
