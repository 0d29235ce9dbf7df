import { isIP } from 'node:net';
import { pathsThrough, within } from '../config/workspacePaths';

/**
 * What a workspace's entry may widen its sandbox to: its folders, and hosts that are not this machine
 * or its network. The sandbox exists to contain a trusted folder's servers, so the folder's own entry
 * cannot open it: a `cwd` or `allowWrite` of `${userHome}`, `/` or another folder, or a host on
 * loopback, a private range or the cloud's metadata address, is refused by field (the user's own
 * settings may widen; the user may take a server out of its sandbox).
 */
export interface Bounds {
  /** The workspace's folders. */
  folders: readonly string[];
  home: string;
}

/** Where a path lands once the file system follows its links (a missing tail kept as written). */
const resolved = (path: string) => pathsThrough(path).at(-1) ?? path;

/** Why a workspace entry may not write `path`, or undefined when it may. */
export function writeRefusal(path: string, b: Bounds): string | undefined {
  const real = resolved(path);
  const home = resolved(b.home);
  if (real === '/' || within(real, home))
    return `${path} is ${real === '/' ? 'the root folder' : 'your home folder or holds it'}, outside the workspace: a workspace's entry may widen its sandbox only to the workspace's folders (your user settings may widen it)`;
  if (!b.folders.some((f) => within(resolved(f), real)))
    return `${path} is outside the workspace: a workspace's entry may widen its sandbox only to the workspace's folders (your user settings may widen it)`;
  return undefined;
}

/** Why a workspace entry may not reach `host` (`name[:port]`), or undefined when it may. */
export function hostRefusal(host: string): string | undefined {
  const name = host
    .replace(/:\d+$/, '')
    .replace(/^\[|\]$/g, '')
    .toLowerCase();
  if (onThisMachineOrNetwork(name))
    return `${host} is this machine or its network: only your user settings may let a sandboxed server reach it`;
  return undefined;
}

function onThisMachineOrNetwork(name: string): boolean {
  if (name === 'localhost' || name.endsWith('.localhost') || name.endsWith('.local') || name.endsWith('.internal'))
    return true;
  const kind = isIP(name);
  if (kind === 4) {
    const [a = 0, b = 0] = name.split('.').map(Number);
    return (
      a === 127 ||
      a === 10 ||
      a === 0 ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      (a === 169 && b === 254) ||
      (a === 100 && b >= 64 && b <= 127)
    );
  }
  if (kind === 6)
    return (
      name === '::1' || name === '::' || /^f[cd]/.test(name) || /^fe[89ab]/.test(name) || name.startsWith('::ffff:')
    );
  return false;
}
