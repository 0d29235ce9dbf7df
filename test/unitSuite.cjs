// `npm test` runs the unit files in this one process: in a process each, every file paid again for
// Node, tsx and the imports the files share (58 files, measured: 42.7 CPU-seconds with a process
// each, 7.3 in one). Each file's tests are reported under its name, as in a process of its own. A file
// whose first line says "npm test: a process of its own" (its tests time the event loop) is left to
// scripts/test.mjs, which runs it alone. Any file still runs alone: `node --import tsx --test test/unit/x.test.ts`.
const { readdirSync, readFileSync } = require('node:fs');
const { join } = require('node:path');
const { describe } = require('node:test');

const dir = join(__dirname, 'unit');
const OWN_PROCESS = /^\/\/ npm test: a process of its own\b/;

/** The unit files that run here (the others run in a process each). */
function sharedFiles() {
  return readdirSync(dir).filter((f) => f.endsWith('.test.ts') && !OWN_PROCESS.test(readFileSync(join(dir, f), 'utf8'))).sort();
}

module.exports = { OWN_PROCESS };
// Run by node:test (scripts/test.mjs only reads OWN_PROCESS).
if (require.main === module) {
  for (const file of sharedFiles()) describe(`test/unit/${file}`, () => require(join(dir, file)));
}
