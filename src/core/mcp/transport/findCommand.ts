import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import { delimiter, isAbsolute, join, resolve } from 'node:path';

async function executable(path: string): Promise<boolean> {
  return access(path, constants.X_OK).then(
    () => true,
    () => false,
  );
}

/**
 * Whether `command` would start: a path (relative to `cwd`) that is executable, or a name found on
 * `env`'s PATH, as a spawn would look it up. For a launcher that starts the command in its own
 * process (a sandbox), whose failure would otherwise read as the launcher's.
 */
export async function commandExists(command: string, env: Record<string, string>, cwd: string): Promise<boolean> {
  if (command.includes('/') || (process.platform === 'win32' && command.includes('\\')))
    return executable(isAbsolute(command) ? command : resolve(cwd, command));
  const path = env.PATH ?? env.Path ?? '';
  const exts = process.platform === 'win32' ? ['', ...(env.PATHEXT ?? '.EXE;.CMD;.BAT').split(';')] : [''];
  for (const dir of path.split(delimiter).filter(Boolean)) {
    for (const ext of exts) if (await executable(join(resolve(cwd, dir), command + ext))) return true;
  }
  return false;
}
