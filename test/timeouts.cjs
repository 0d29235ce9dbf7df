// Preloaded by `npm test` into every test process (it loads ./tempFolders.cjs too): a test that sets
// no timeout gets one, so a hung child fails that one test instead of hanging the run. (A file is not given a timeout:
// node:test
// would count the whole file as one test.) Tests that need longer say so themselves.
const nodeTest = require('node:test');
const { syncBuiltinESMExports } = require('node:module');
require('./tempFolders.cjs');

const DEFAULT_MS = Number(process.env.MINAGENT_TEST_TIMEOUT_MS ?? 120_000);

function withDefault(original) {
  const wrapped = function (...args) {
    const at = args.findIndex((a) => typeof a === 'object' && a !== null);
    const fnAt = args.findIndex((a) => typeof a === 'function');
    if (at === -1) args.splice(fnAt === -1 ? args.length : fnAt, 0, { timeout: DEFAULT_MS });
    else if (args[at].timeout === undefined) args[at] = { ...args[at], timeout: DEFAULT_MS };
    return original.apply(this, args);
  };
  for (const key of Object.keys(original)) wrapped[key] = original[key];
  return wrapped;
}

nodeTest.test = withDefault(nodeTest.test);
nodeTest.it = withDefault(nodeTest.it);
syncBuiltinESMExports();
