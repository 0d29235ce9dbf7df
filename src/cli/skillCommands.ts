import { isFeatureError } from '../core/mcp/features/featureTypes';
import type { McpSkill } from '../core/mcp/features/skills';
import type { ServerHub } from '../core/mcp/hub/serverHub';
import { listStatus, NotFound, printTable, UsageError, type Output } from './commands';
import type { FailedServer } from './failures';
import { terminalLine } from './terminalText';

/** `skills`: every server's skills (the Skills extension), by server and name, with what they hold. */
export function skillsCommand(hub: ServerHub, json: boolean, io: Output, failed: readonly FailedServer[] = []): number {
  const rows = hub.catalog.skills().map((s) => ({
    server: s.server,
    name: s.name,
    uri: s.uri,
    description: s.description,
    files: s.files,
    bytes: s.bytes,
    ...(s.digest ? { digest: s.digest } : {}),
  }));
  if (json) io.out(JSON.stringify({ skills: rows, failed }, null, 2));
  else
    printTable(
      io,
      rows.map((r) => [`${r.server}/${r.name}`, r.description, `${r.files} files, ${r.bytes} bytes`]),
    );
  return listStatus(hub, failed, io);
}

/** `skill NAME` or `skill SERVER/NAME`: the skill whose name it is; two servers' skills of one name need the server. */
export function pickSkill(hub: ServerHub, name: string): McpSkill {
  const slash = name.indexOf('/');
  const [server, skill] = slash > 0 ? [name.slice(0, slash), name.slice(slash + 1)] : [undefined, name];
  const found = hub.catalog.skills().filter((s) => s.name === skill && (server === undefined || s.server === server));
  if (found.length > 1)
    throw new UsageError(
      `skill "${skill}" is offered by more than one server; name one: ${found.map((s) => `${s.server}/${s.name}`).join(', ')}`,
    );
  if (!found[0]) {
    const known = hub.catalog.skills().map((s) => `${s.server}/${s.name}`);
    throw new NotFound(`no server offers skill "${name}"; skills: ${known.length ? known.join(', ') : '(none)'}`);
  }
  return found[0];
}

/** `skill NAME`: its SKILL.md, read and checked against the skill's entry (a file that does not match is refused). */
export async function skillCommand(hub: ServerHub, name: string | undefined, io: Output): Promise<number> {
  if (!name) throw new UsageError('skill needs a name: minagent skill NAME (or SERVER/NAME)');
  const skill = pickSkill(hub, name);
  const file = await hub.catalog.readSkill(skill.server, skill.uri);
  if (isFeatureError(file)) {
    io.err(terminalLine(`error: ${file.error}`));
    return 1;
  }
  // A server's text: printed as text, every line made safe for the terminal.
  io.out(file.text.split('\n').map(terminalLine).join('\n'));
  return 0;
}
