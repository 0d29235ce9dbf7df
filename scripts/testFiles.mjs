// Runs test files under node:test in the order given, N at a time:
//   node [flags for every file] scripts/testFiles.mjs --concurrency=N file...
// `node --test a b c` sorts its files by path before it runs them, so an order chosen to start the
// longest files first (scripts/test.mjs) was lost: the reliability matrix, wait-bound for ~110 s, came
// last and ran with the CPU half idle. node:test's run() keeps the order. Every file runs in a process
// of its own with this process's Node flags (--require, --import) and --test-force-exit; the report is
// TAP through a pipe and spec on a terminal, as `node --test` prints it, and the exit code says
// whether every test passed.
import { resolve } from 'node:path';
import { run } from 'node:test';
import { spec, tap } from 'node:test/reporters';

const args = process.argv.slice(2);
const concurrency = Number(args.find((a) => a.startsWith('--concurrency='))?.split('=')[1] ?? 1);
const files = args.filter((a) => !a.startsWith('--')).map((f) => resolve(f));
if (!files.length || !(concurrency >= 1)) {
  console.error('usage: node scripts/testFiles.mjs --concurrency=N file...');
  process.exit(2);
}
const stream = run({ files, concurrency, forceExit: true });
stream.on('test:fail', (event) => {
  if (event.todo === undefined || event.todo === false) process.exitCode = 1; // a failing todo test fails nothing
});
stream.compose(process.stdout.isTTY ? spec : tap).pipe(process.stdout);
