// Which paths an untrusted workspace controls, and reading a server's env file within a bound.
// A repository decides where every link inside it points: a path is the workspace's when the path as
// written, any link the OS follows on the way, or where it finally lands lies in a workspace folder
// (as given or as its real path). The env file is read only after that decision, and never past
// ENV_FILE_MAX_BYTES: a link to /dev/zero or a FIFO is refused before anything is read.
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readlinkSync,
  readSync,
  realpathSync,
  statSync,
  type Stats,
} from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { dirname, isAbsolute, join, parse, relative, resolve, sep } from 'node:path';

/** The largest env file read: a larger file (or one that grows past it while read) is refused. */
export const ENV_FILE_MAX_BYTES = 1024 * 1024;

/** Links followed before giving up, as the OS's own limit (ELOOP) does. */
const MAX_HOPS = 40;

const components = (p: string) => p.split(sep === '\\' ? /[\\/]+/ : /\/+/).filter(Boolean);

/**
 * Every path the OS passes through to reach `path`: the path as written (made absolute), the
 * location of each link it follows, and where it ends (the real path; for a missing file, the
 * rest as written from the last folder that exists).
 */
export function pathsThrough(path: string): string[] {
  const start = resolve(path);
  const seen = [start];
  let cur = parse(start).root;
  let rest = components(start.slice(cur.length));
  let hops = 0;
  while (rest.length) {
    const part = rest.shift()!;
    if (part === '.') continue;
    // `cur` holds no link, so its parent is the real parent, as the OS takes it.
    if (part === '..') {
      cur = dirname(cur);
      continue;
    }
    const next = join(cur, part);
    let target: string | undefined;
    try {
      if (lstatSync(next).isSymbolicLink()) target = readlinkSync(next);
    } catch {
      seen.push(join(next, ...rest));
      return seen;
    }
    if (target === undefined) {
      cur = next;
      continue;
    }
    seen.push(next);
    if (++hops > MAX_HOPS) return seen;
    if (isAbsolute(target)) {
      const abs = resolve(target);
      cur = parse(abs).root;
      rest = [...components(abs.slice(cur.length)), ...rest];
    } else {
      rest = [...components(target), ...rest];
    }
  }
  seen.push(cur);
  return seen;
}

/** Whether `p` is `folder` or lies below it (both absolute, compared as written). */
export function within(folder: string, p: string): boolean {
  const rel = relative(folder, p);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/**
 * Whether `path` belongs to one of `folders`: the path as written, a link followed on the way, or
 * the file it reaches lies in a folder, compared with each folder as given and with its real path.
 */
export function reachesInto(path: string, folders: readonly string[]): boolean {
  const roots = new Set<string>();
  for (const f of folders) {
    roots.add(resolve(f));
    try {
      roots.add(realpathSync(f));
    } catch {}
  }
  if (!roots.size) return false;
  return pathsThrough(path).some((p) => [...roots].some((root) => within(root, p)));
}

function refuse(st: Stats, what = 'env files'): Error | undefined {
  if (!st.isFile()) return new Error('it is not a regular file (a device, a FIFO or a folder)');
  if (st.size > ENV_FILE_MAX_BYTES) return new Error(`it is larger than the 1 MB limit for ${what} (${st.size} bytes)`);
  return undefined;
}

const tooLarge = (what = 'env files') => new Error(`it grew past the 1 MB limit for ${what} while being read`);

// Without O_NONBLOCK, opening a FIFO waits for a writer: the check after opening would never run.
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/**
 * An env file's text, refused (thrown) when it is not a regular file or passes ENV_FILE_MAX_BYTES; never reads more.
 */
export function readEnvFileSync(path: string): string {
  const before = refuse(statSync(path));
  if (before) throw before;
  const fd = openSync(path, OPEN_FLAGS);
  try {
    const after = refuse(fstatSync(fd));
    if (after) throw after;
    const buf = Buffer.alloc(ENV_FILE_MAX_BYTES + 1);
    let got = 0;
    for (let n: number; got < buf.length && (n = readSync(fd, buf, got, buf.length - got, null)) > 0; ) got += n;
    if (got > ENV_FILE_MAX_BYTES) throw tooLarge();
    return buf.toString('utf8', 0, got);
  } finally {
    closeSync(fd);
  }
}

/** readEnvFileSync without blocking. */
export async function readEnvFile(path: string, what = 'env files'): Promise<string> {
  const before = refuse(await stat(path), what);
  if (before) throw before;
  const handle = await open(path, OPEN_FLAGS);
  try {
    const after = refuse(await handle.stat(), what);
    if (after) throw after;
    const buf = Buffer.alloc(ENV_FILE_MAX_BYTES + 1);
    let got = 0;
    for (let n: number; got < buf.length && (n = (await handle.read(buf, got, buf.length - got, null)).bytesRead) > 0; )
      got += n;
    if (got > ENV_FILE_MAX_BYTES) throw tooLarge(what);
    return buf.toString('utf8', 0, got);
  } finally {
    await handle.close();
  }
}
