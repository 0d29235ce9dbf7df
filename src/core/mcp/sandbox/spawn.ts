import type { Logger } from '../../base/logger';
import { commandExists } from '../transport/findCommand';
import { SpawnError, spawnError } from '../transport/spawnError';
import { describeNetwork, type SandboxPolicy } from './policy';
import { npmRegistry, withRegistry } from './npmRegistry';
import { sandboxRuntime, type SpawnRequest } from './runtime';
import type { NoSandbox } from './namespaces';

/**
 * Where a sandbox's denials are explained: the server's log names what was denied and how to allow
 * it; `denied` hears each too (the server's stderr tail, which a failure's message reads).
 */
export function sandboxedSpawn(asked: SandboxPolicy, log: Logger, denied: (what: string) => void = () => {}) {
  return async (spawn: SpawnRequest) => {
    const why = await sandboxRuntime.unavailable();
    if (why) throw new SandboxUnavailable(why);
    // Inside, a missing command would read as the sandbox's shell failing: said as it is outside.
    if (!(await commandExists(spawn.command, spawn.env, spawn.cwd)))
      throw await spawnError(Object.assign(new Error('spawn ENOENT'), { code: 'ENOENT' }), spawn);
    // An npx server installs its package: the registry the host's npm uses is reachable.
    const policy = asked.npmCache && !asked.npmRegistry ? withRegistry(asked, await npmRegistry()) : asked;
    for (const refused of policy.refused) log.warn(`sandbox: refused from its entry: ${refused}`);
    log.info(
      `sandbox: writes ${policy.allowWrite.join(', ')} and its own temp folder; network: ${describeNetwork(policy)}; ${policy.denyRead.length} secret locations unreadable`,
    );
    return sandboxRuntime.wrap(spawn, policy, (what, about) => {
      log.warn(`sandbox denied: ${what}${about.protectedPath ? PROTECTED : howToAllow(what)}`);
      denied(what);
    });
  };
}

/** No sandbox can be had on this machine; the server does not start without one. */
export class SandboxUnavailable extends SpawnError {
  constructor(readonly why: NoSandbox) {
    super(
      `cannot start in a sandbox: ${why.reason}; the server was not started without one (to run it: ${why.remedy})`,
    );
  }
}

const PROTECTED =
  ' (never writable in a sandbox, whatever its allowWrite says: git, the editor or a shell would run what is written there outside the sandbox; only a server run without its sandbox writes it)';

function howToAllow(line: string): string {
  if (/^deny (?:openat|open|creat|mkdir|rename|unlink|write)/i.test(line))
    return " (to allow it, add the folder to the entry's sandbox.filesystem.allowWrite)";
  if (/network|domain|connect|host/i.test(line))
    return " (to allow it, add the host to the entry's sandbox.network.allowedDomains)";
  return '';
}
