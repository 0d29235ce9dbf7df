// src/core never imports 'vscode': the core must run without an editor (the CLI proves it too).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { ROOT } from '../helpers';

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
}

test('no file under src/core or src/cli imports vscode', () => {
  const offenders = [...files(join(ROOT, 'src', 'core')), ...files(join(ROOT, 'src', 'cli'))].filter((f) =>
    /(?:from\s+|import\s*\(\s*|require\s*\(\s*)['"]vscode['"]/.test(readFileSync(f, 'utf8')),
  );
  assert.ok(files(join(ROOT, 'src', 'core')).length > 5, 'the check sees the core');
  assert.deepEqual(offenders, []);
});
