// Loaded with test/timeouts.cjs into every test process.
// Every temp folder a test makes (mkdtempSync under the system's temp folder) is removed when its
// process ends: the suites made some 40 a run and removed few, and a run's leftovers filled the disk.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const made = [];
const mkdtempSync = fs.mkdtempSync;
fs.mkdtempSync = function madeForTheTest(prefix, options) {
  const dir = mkdtempSync.call(this, prefix, options);
  if (typeof dir === 'string' && path.resolve(dir).startsWith(os.tmpdir() + path.sep)) made.push(dir);
  return dir;
};
process.on('exit', () => {
  for (const dir of made) {
    try {
      fs.rmSync(dir, { recursive: true, force: true });
    } catch {
      // not ours to remove (a sandboxed or other user's file inside): left as it is
    }
  }
});
require('node:module').syncBuiltinESMExports();
