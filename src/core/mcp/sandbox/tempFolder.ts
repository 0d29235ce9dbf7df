import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A sandboxed server's own temp folder, made for it under the host's temp folder and removed when it
 * stops: its TMPDIR inside the sandbox, and one of the folders it may write. (The sandbox library
 * names `/tmp/claude`, which it never makes: on a new machine every temp file failed.)
 */
export function makeTempFolder(): { path: string; remove(): void } {
  const host = tmpdir();
  if (!existsSync(host) || !statSync(host).isDirectory()) {
    throw new Error(
      `the host's temp folder ${host}${process.env.TMPDIR ? ' (TMPDIR)' : ''} does not exist: create it, or set TMPDIR to a folder that does`,
    );
  }
  const path = mkdtempSync(join(host, 'minagent-sandbox-'));
  return { path, remove: () => rmSync(path, { recursive: true, force: true, maxRetries: 2 }) };
}
