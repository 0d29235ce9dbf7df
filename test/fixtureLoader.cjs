'use strict';
// Runs a bundled fixture server (test/fixtureServers.ts) from V8's code cache: the cache is kept beside
// the bundle, one per Node version (the suites run the fixtures on Node 20, the editors on Node 24), and
// written by a start that found none (below). Outside a sandbox only: inside one the folder is not the
// server's to write, and a denied write would show in the server's log.
const { readFileSync, renameSync, writeFileSync } = require('node:fs');
const { dirname } = require('node:path');
const Module = require('node:module');
const vm = require('node:vm');

/**
 * Runs the CommonJS bundle `file` as Node's own loader would, with its compiled code from the cache when there is one.
 */
module.exports = function runFixture(file) {
  const cacheFile = `${file}.${process.version}.v8cache`;
  let cachedData;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    // none yet
  }
  // A bundle keeps its source's `#!` line, which Node's own loader skips too.
  const script = new vm.Script(Module.wrap(readFileSync(file, 'utf8').replace(/^#!.*/, '')), {
    filename: file,
    cachedData,
  });
  if ((!cachedData || script.cachedDataRejected) && process.env.MINAGENT_IN_SANDBOX !== '1') {
    // Once the start has compiled what it runs (the cache then holds that, not only the top level): a second
    // into the start, or at its exit if that comes first (the editor ends its servers with a signal).
    let saved = false;
    const save = () => {
      if (saved) return;
      saved = true;
      try {
        const partial = `${cacheFile}.${process.pid}`;
        writeFileSync(partial, script.createCachedData());
        renameSync(partial, cacheFile);
      } catch {
        // the folder is read-only here: the next start compiles again
      }
    };
    setTimeout(save, 1_000).unref();
    process.once('exit', save);
  }
  const module = new Module(file, null);
  module.filename = file;
  module.paths = Module._nodeModulePaths(dirname(file));
  script
    .runInThisContext()
    .call(module.exports, module.exports, Module.createRequire(file), module, file, dirname(file));
};
