// Issue 54: no line in src/ or test/ over 120 characters, except where a literal it holds makes it so (a
// message, a pattern, a page's markup): code and comments wrap. The formatter wraps code; this holds the rest.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

const ROOT = join(__dirname, '..', '..');
const MAX = 120;

/** For each character of a TypeScript or JavaScript text: whether it is inside a string, template or regex literal. */
export function literalMask(text: string): boolean[] {
  const mask = new Array<boolean>(text.length).fill(false);
  /** Template literals open at each `${` depth: the brace depth their substitution started at. */
  const templates: number[] = [];
  let braces = 0;
  let last = ''; // the last significant character outside literals and comments
  let i = 0;
  const literal = (from: number, to: number) => mask.fill(true, from, to);
  const template = () => {
    // From just after a backtick or a substitution's `}` to the closing backtick or the next `${`.
    const from = i;
    while (i < text.length) {
      if (text[i] === '\\') i += 2;
      else if (text[i] === '`') {
        i++;
        literal(from, i);
        return;
      } else if (text[i] === '$' && text[i + 1] === '{') {
        i += 2;
        literal(from, i);
        templates.push(braces);
        braces++;
        return;
      } else i++;
    }
    literal(from, i);
  };
  while (i < text.length) {
    const c = text[i]!;
    if (c === '/' && text[i + 1] === '/') {
      const end = text.indexOf('\n', i);
      i = end < 0 ? text.length : end;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 2;
    } else if (c === "'" || c === '"') {
      const from = i++;
      while (i < text.length && text[i] !== c && text[i] !== '\n') i += text[i] === '\\' ? 2 : 1;
      literal(from, ++i);
      last = c;
    } else if (c === '`') {
      i++;
      mask[i - 1] = true;
      template();
      last = '`';
    } else if (
      c === '/' &&
      (last === '' ||
        /[(,=:[!&|?{};+\-*%<>~^]/.test(last) ||
        /\b(return|typeof|case|of|in)$/.test(text.slice(Math.max(0, i - 8), i).trimEnd()))
    ) {
      const from = i++;
      let inClass = false;
      while (i < text.length && text[i] !== '\n' && (inClass || text[i] !== '/')) {
        if (text[i] === '\\') i++;
        else if (text[i] === '[') inClass = true;
        else if (text[i] === ']') inClass = false;
        i++;
      }
      i++;
      while (/[a-z]/.test(text[i] ?? '')) i++;
      literal(from, i);
      last = '/';
    } else {
      if (c === '{') braces++;
      else if (c === '}') {
        braces--;
        if (templates.length && templates.at(-1) === braces) {
          templates.pop();
          mask[i] = true;
          i++;
          template();
          last = '`';
          continue;
        }
      }
      if (!/\s/.test(c)) last = /\w/.test(c) ? 'w' : c;
      i++;
    }
  }
  return mask;
}

/** The lines of a file over MAX characters that no literal accounts for: `path:line`. */
function tooLong(path: string): string[] {
  const text = readFileSync(join(ROOT, path), 'utf8');
  const mask = literalMask(text);
  const out: string[] = [];
  let start = 0;
  text.split('\n').forEach((line, n) => {
    if (line.length > MAX) {
      let literalChars = 0;
      for (let k = start; k < start + line.length; k++) if (mask[k]) literalChars++;
      if (line.length - literalChars > MAX || literalChars === 0) out.push(`${path}:${n + 1} (${line.length})`);
    }
    start += line.length + 1;
  });
  return out;
}

test('the literal mask knows strings, templates with substitutions, regexes and comments', () => {
  const text = "a('x', `y${b + `z`}w`, /q\\/[/]r/g) // 'c'";
  const marked = [...text].map((ch, k) => (literalMask(text)[k] ? ch : '_')).join('');
  assert.equal(marked, "__'x'__`y${____`z`}w`__/q\\/[/]r/g________");
});

test('no line in src/ or test/ is over 120 characters but for the literals it holds', () => {
  const files = execFileSync('git', ['ls-files', 'src', 'test'], { cwd: ROOT, encoding: 'utf8' })
    .split('\n')
    .filter((f) => /\.(ts|mjs|js|cjs)$/.test(f));
  assert.ok(files.length > 100, 'the tree is read');
  assert.deepEqual(files.flatMap(tooLong), []);
});
