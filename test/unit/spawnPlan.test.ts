import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cmdLine, planSpawn } from '../../src/core/mcp/transport/spawnPlan';

const NPX = 'C:\\Program Files\\nodejs\\npx.cmd';
const CMD = 'C:\\Windows\\system32\\cmd.exe';
const windows = (resolved: string) => ({ platform: 'win32' as const, resolve: () => resolved, comspec: CMD });
/** Arguments a hostile workspace could put in a folder name or an entry. */
const HOSTILE = [
  'a&calc&',
  'x|y',
  '100%PATH%',
  'c^d',
  'say "hi"',
  'two words',
  'C:\\dir with space\\',
  '$(touch x)',
  '!x!',
  '<in',
  '>out',
  'a;b',
];

/**
 * What cmd.exe does to the line (one level of ^ escapes), then how the program splits it (CommandLineToArgvW rules).
 */
function asWindowsRunsIt(line: string): string[] {
  const afterCmd = line.replace(/\^(.)/g, '$1');
  const args: string[] = [];
  let cur = '';
  let inQuotes = false;
  let started = false;
  for (let i = 0; i < afterCmd.length; i++) {
    const c = afterCmd[i]!;
    if (c === '\\') {
      let n = 0;
      while (afterCmd[i] === '\\') n++, i++;
      if (afterCmd[i] === '"') {
        cur += '\\'.repeat(Math.floor(n / 2));
        if (n % 2) cur += '"';
        else inQuotes = !inQuotes;
      } else {
        cur += '\\'.repeat(n);
        i--;
      }
      started = true;
    } else if (c === '"') {
      inQuotes = !inQuotes;
      started = true;
    } else if (c === ' ' && !inQuotes) {
      if (started) args.push(cur);
      cur = '';
      started = false;
    } else {
      cur += c;
      started = true;
    }
  }
  if (started) args.push(cur);
  return args;
}

test('a .cmd shim on Windows runs through cmd.exe with every argument quoted and every metacharacter escaped', () => {
  const plan = planSpawn('npx', ['-y', 'a&b', 'x|y', '50%', 'c^d', 'say "hi"', 'two words'], windows(NPX));
  assert.equal(plan.file, CMD);
  assert.equal(plan.windowsVerbatimArguments, true);
  assert.deepEqual(plan.args, [
    '/d',
    '/s',
    '/c',
    '"npx ^"-y^" ^"a^&b^" ^"x^|y^" ^"50^%^" ^"c^^d^" ^"say^ \\^"hi\\^"^" ^"two^ words^""',
  ]);
});

test('no metacharacter reaches cmd.exe unescaped, and the program gets back exactly the arguments given', () => {
  const line = cmdLine('npx', HOSTILE);
  // Every cmd.exe metacharacter is preceded by a caret (which is itself escaped where literal);
  // the only bare characters left are the spaces between arguments.
  const bare = line.replace(/\^./g, '');
  assert.doesNotMatch(bare, /[&|<>%!()"^;,]/, `unescaped metacharacter in ${line}`);
  assert.deepEqual(asWindowsRunsIt(line), ['npx', ...HOSTILE]);
});

test('a node_modules/.bin shim is escaped twice (cmd.exe parses its line once more)', () => {
  const shim = 'C:\\proj\\node_modules\\.bin\\server.cmd';
  const line = planSpawn(shim, ['a&b'], windows(shim)).args[3]!.slice(1, -1);
  assert.equal(line, 'C:\\proj\\node_modules\\.bin\\server.cmd ^^^"a^^^&b^^^"');
  // The first cmd.exe pass leaves one level of escapes for the shim's own cmd.exe pass.
  assert.deepEqual(asWindowsRunsIt(line.replace(/\^(.)/g, '$1')), ['C:\\proj\\node_modules\\.bin\\server.cmd', 'a&b']);
});

test('an .exe on Windows and any command elsewhere spawn directly, arguments untouched, no shell', () => {
  assert.deepEqual(planSpawn('node', HOSTILE, windows('C:\\Program Files\\nodejs\\node.exe')), {
    file: 'C:\\Program Files\\nodejs\\node.exe',
    args: HOSTILE,
  });
  assert.deepEqual(planSpawn('npx', HOSTILE, { platform: 'linux' }), { file: 'npx', args: HOSTILE });
  assert.deepEqual(planSpawn('npx', HOSTILE, { platform: 'darwin' }), { file: 'npx', args: HOSTILE });
});
