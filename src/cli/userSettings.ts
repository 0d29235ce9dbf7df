import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { readSettingsFile } from '../core/settingsFile';

/** VS Code's user settings file on this machine (where `--scope user` writes). */
export function userSettingsFile(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): string {
  const home = env.HOME || homedir();
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'Code', 'User', 'settings.json');
  if (platform === 'win32')
    return join(env.APPDATA || join(home, 'AppData', 'Roaming'), 'Code', 'User', 'settings.json');
  return join(env.XDG_CONFIG_HOME || join(home, '.config'), 'Code', 'User', 'settings.json');
}

/**
 * The user's own settings, where the CLI reads what VS Code reads from user settings only (scope
 * `application`: `minagent.registries`, `minagent.sampling.*`): the folder's settings file was written by
 * whoever wrote the repository. No file is no settings; a file that is not JSONC is an error naming it.
 */
export function readUserSettings(env: NodeJS.ProcessEnv = process.env): Record<string, unknown> {
  const file = userSettingsFile(env);
  return existsSync(file) ? readSettingsFile(file) : {};
}
