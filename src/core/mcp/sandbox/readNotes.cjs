'use strict';
// Loaded by netPreload.cjs into every Node process of a sandboxed server. On Linux the sandbox hides a
// secret location by mounting an empty folder (or an empty file) over it: a read finds nothing, and
// nothing outside the process sees it try. Here each path the process opens, reads, lists or checks
// under a hidden location (MINAGENT_SANDBOX_DENY_READ, a JSON list; `*` at the end of a name matches
// a prefix, as `.env*`) is noted once on stderr, where the host's log reads it as a denial.
// Plain CommonJS, no dependencies; a process that is not Node (a shell, Python) is not noted.

const fs = require('node:fs');
const path = require('node:path');
const { fileURLToPath } = require('node:url');

const MAX_NOTES = 50;

function parse(text) {
  try {
    const list = JSON.parse(text || '[]');
    return Array.isArray(list) ? list.filter((p) => typeof p === 'string' && path.isAbsolute(p)) : [];
  } catch {
    return [];
  }
}

const hidden = parse(process.env.MINAGENT_SANDBOX_DENY_READ);
if (process.env.MINAGENT_IN_SANDBOX === '1' && hidden.length) install(hidden);

function install(locations) {
  const matchers = locations.map((p) =>
    p.endsWith('*')
      ? { where: p, dir: path.dirname(p), prefix: path.basename(p).slice(0, -1) }
      : { where: p, exact: path.resolve(p) },
  );
  /** The hidden location `abs` is in, if any. */
  const locationOf = (abs) => {
    for (const m of matchers) {
      if (
        m.exact !== undefined
          ? abs === m.exact || abs.startsWith(m.exact + path.sep)
          : path.dirname(abs) === m.dir && path.basename(abs).startsWith(m.prefix)
      )
        return m.where;
    }
    return undefined;
  };
  const noted = new Set();
  const note = (target) => {
    let abs;
    try {
      if (typeof target === 'string') abs = path.resolve(target);
      else if (target instanceof URL) abs = fileURLToPath(target);
      else if (Buffer.isBuffer(target)) abs = path.resolve(target.toString());
      else return;
    } catch {
      return;
    }
    const where = locationOf(abs);
    if (!where || noted.has(abs) || noted.size >= MAX_NOTES) return;
    noted.add(abs);
    process.stderr.write(
      `[minagent sandbox] read ${JSON.stringify(abs)}: hidden by the sandbox (under ${JSON.stringify(where)}; a location of the entry's sandbox.filesystem.denyRead can be removed from it, a default secret location is readable only without the sandbox)\n`,
    );
  };
  const watch = (owner, names) => {
    for (const name of names) {
      const original = owner[name];
      if (typeof original !== 'function') continue;
      owner[name] = function noted(target, ...rest) {
        note(target);
        return original.call(this, target, ...rest);
      };
    }
  };
  watch(fs, [
    'open',
    'openSync',
    'readFile',
    'readFileSync',
    'readdir',
    'readdirSync',
    'opendir',
    'opendirSync',
    'stat',
    'statSync',
    'lstat',
    'lstatSync',
    'access',
    'accessSync',
    'existsSync',
    'createReadStream',
    'copyFile',
    'copyFileSync',
    'cp',
    'cpSync',
  ]);
  watch(fs.promises, ['open', 'readFile', 'readdir', 'opendir', 'stat', 'lstat', 'access', 'copyFile', 'cp']);
  // `import { readFileSync } from 'node:fs'` sees the wrapped functions too.
  require('node:module').syncBuiltinESMExports();
}
