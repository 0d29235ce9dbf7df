import { createHash } from 'node:crypto';
import type { ServerConfig } from './serverConfig';

/**
 * Who a server is, for approvals: where its entry came from and what it runs or reaches (command,
 * arguments, or URL). A grant or a pinned call made for one identity does not
 * hold for another, so renaming a command, changing an argument or moving the entry to another
 * file takes back "Always allow". The working folder is left out: an untrusted window moves it to
 * the home folder, and that alone should not take back a grant. A hash: the arguments may hold substituted secrets, and
 * this
 * value is stored.
 */
export function serverIdentity(config: ServerConfig): string {
  let identity = known.get(config);
  if (identity === undefined) {
    identity = digest(config);
    known.set(config, identity);
  }
  return identity;
}

/** Identities of the entries seen (an entry is never changed in place: an edit is a new object). */
const known = new WeakMap<ServerConfig, string>();

function digest(config: ServerConfig): string {
  const what =
    config.type === 'stdio'
      ? { type: 'stdio', command: config.command, args: config.args }
      : { type: config.type, url: config.url };
  return createHash('sha256')
    .update(JSON.stringify({ origin: config.origin ?? '', ...what }))
    .digest('hex')
    .slice(0, 32);
}
