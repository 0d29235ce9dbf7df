// `npm test` runs the unit files in this one process: in a process each, every file paid again for
// Node, tsx and the imports the files share (58 files, measured: 42.7 CPU-seconds with a process
// each, 7.3 in one). Each file's tests are reported under its name, as in a process of its own. A file
// whose first line says "npm test: a process of its own" (its tests time the event loop) is left to
// scripts/test.mjs, which runs it alone. Any file still runs alone: `node --import tsx --test test/unit/x.test.ts`.
const { readdirSync, readFileSync } = require('node:fs');
const { join } = require('node:path');
const { describe } = require('node:test');

const dir = join(__dirname, 'unit');
const files = () =>
  readdirSync(dir)
    .filter((f) => f.endsWith('.test.ts'))
    .sort();
const ownProcess = (file) => /^\/\/ npm test: a process of its own\b/.test(readFileSync(join(dir, file), 'utf8'));

/** The unit files that need a process of their own (scripts/test.mjs runs them beside this one). */
const ownProcessFiles = () =>
  files()
    .filter(ownProcess)
    .map((f) => `test/unit/${f}`);

module.exports = { ownProcessFiles };
// Run by node:test: every other unit file, each under its name.
if (require.main === module) {
  for (const file of files().filter((f) => !ownProcess(f)))
    describe(`test/unit/${file}`, () => require(join(dir, file)));
}
