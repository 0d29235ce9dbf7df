// Issue 54: docs/ARCHITECTURE.md stays true: every path it names exists, and its list of long files is
// exactly the files of src/ past 300 lines (a file that grows past it is split, or listed with its reason).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

const ROOT = join(__dirname, '..', '..');
const doc = readFileSync(join(ROOT, 'docs', 'ARCHITECTURE.md'), 'utf8');
const LONG = 300;

test('every src/, test/ and docs/ path the architecture page names exists', () => {
  const named = [...doc.matchAll(/`((?:src|test|docs)\/[\w./-]+)`/g)].map((m) => m[1]!);
  assert.ok(named.length > 20, 'the page names paths');
  assert.deepEqual(
    named.filter((p) => !existsSync(join(ROOT, p))),
    [],
  );
});

test("the page's long files are the files of src/ past 300 lines", () => {
  const section = doc.slice(doc.indexOf('## Long files'), doc.indexOf('## Finding a feature'));
  const listed = [...section.matchAll(/^\| `(src\/[^`]+)` \|/gm)].map((m) => m[1]!).sort();
  const long = execFileSync('git', ['ls-files', 'src'], { cwd: ROOT, encoding: 'utf8' })
    .split('\n')
    .filter((f) => /\.(ts|mjs|cjs)$/.test(f) && existsSync(join(ROOT, f)))
    .filter((f) => readFileSync(join(ROOT, f), 'utf8').split('\n').length - 1 > LONG)
    .sort();
  assert.deepEqual(listed, long);
});

test('no file in src/ sits beside a folder of the same name (hub.ts beside hub/ read as one thing)', () => {
  const files = execFileSync('git', ['ls-files', 'src'], { cwd: ROOT, encoding: 'utf8' }).split('\n').filter(Boolean);
  const folders = new Set(
    files.flatMap((f) =>
      f
        .split('/')
        .slice(0, -1)
        .map((_, i, parts) => parts.slice(0, i + 1).join('/')),
    ),
  );
  assert.deepEqual(
    files.filter((f) => folders.has(f.replace(/\.[^./]+$/, ''))),
    [],
  );
});
