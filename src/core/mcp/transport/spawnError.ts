import { access } from 'node:fs/promises';

function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

/** The server process could not be started at all (missing command, cwd, permission). */
export class SpawnError extends Error {}

/** What keeps a server from starting at all, in words: a missing folder or command, or permission. */
export async function spawnError(
  err: NodeJS.ErrnoException,
  p: { command: string; cwd: string; env: Record<string, string> },
): Promise<Error> {
  if (err.code === 'ENOENT' && !(await exists(p.cwd)))
    return new SpawnError(`working directory does not exist: ${p.cwd} (for command "${p.command}")`);
  if (err.code === 'ENOENT') {
    return new SpawnError(
      `command not found: "${p.command}" (spawn ENOENT; cwd ${p.cwd}; PATH=${p.env.PATH ?? p.env.Path ?? '(unset)'})`,
    );
  }
  if (err.code === 'EACCES') return new SpawnError(`command "${p.command}" is not executable (spawn EACCES)`);
  return new SpawnError(`cannot start "${p.command}": ${err.message}`);
}
