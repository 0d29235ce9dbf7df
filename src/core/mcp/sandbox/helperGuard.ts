import { readdir, readFile } from 'node:fs/promises';
import { enableOrphanGuard, guardProcessGroup, releaseProcessGroup } from '../transport/orphanGuard';

/**
 * The sandbox library starts helper processes of its own on Linux (socat bridges between its
 * proxies and the sockets its sandboxes see), as children of the host. They are the host's, not a
 * server's: if the host is killed outright they would outlive it, so the orphan guard ends them too,
 * in every host: the CLI, which otherwise closes its servers itself, left a bridge running for good
 * when it was killed or its terminal closed. Returns a release for when the library has stopped them itself.
 */
export async function guardSandboxHelpers(): Promise<() => void> {
  if (process.platform !== 'linux') return () => {};
  enableOrphanGuard();
  const pids: number[] = [];
  for (const name of await readdir('/proc').catch(() => [] as string[])) {
    if (!/^\d+$/.test(name)) continue;
    const [stat, cmdline] = await Promise.all([
      readFile(`/proc/${name}/stat`, 'utf8').catch(() => ''),
      readFile(`/proc/${name}/cmdline`, 'utf8').catch(() => ''),
    ]);
    // The parent pid is the second field after the command's closing parenthesis.
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (
      ppid === process.pid &&
      /^(?:[^\0]*\/)?socat\0/.test(cmdline) &&
      /claude-(http|socks)-[0-9a-f]+\.sock/.test(cmdline)
    )
      pids.push(Number(name));
  }
  for (const pid of pids) guardProcessGroup(pid);
  return () => {
    for (const pid of pids) releaseProcessGroup(pid);
  };
}
