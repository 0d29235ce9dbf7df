import { homedir } from 'node:os';
import { join } from 'node:path';

/** VS Code's user settings file on this machine (where `--scope user` writes). */
export function userSettingsFile(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  const home = env.HOME || homedir();
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'Code', 'User', 'settings.json');
  if (platform === 'win32') return join(env.APPDATA || join(home, 'AppData', 'Roaming'), 'Code', 'User', 'settings.json');
  return join(env.XDG_CONFIG_HOME || join(home, '.config'), 'Code', 'User', 'settings.json');
}
