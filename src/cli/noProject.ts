import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { DEFAULT_SETTINGS } from './args';

/**
 * Why there is nothing to start in `cwd` (no `.vscode/settings.json` there): what was looked for, and
 * how to name a file. A project's settings file in a folder above is named, not read: which file
 * starts programs stays the user's choice, as in the editor, where a window opens one folder.
 */
export function noSettingsMessage(cwd: string, exists: (path: string) => boolean = existsSync): string {
  let above: string | undefined;
  for (let dir = dirname(cwd); !above && dir !== dirname(dir); dir = dirname(dir)) {
    if (exists(join(dir, DEFAULT_SETTINGS))) above = dir;
  }
  const looked = `no ${DEFAULT_SETTINGS} in ${cwd} (the current folder)`;
  if (above)
    return `${looked}; a folder above has one: run minagent in ${above}, or pass --settings ${join(above, DEFAULT_SETTINGS)} (--settings FILE names any VS Code settings file)`;
  return `${looked}: run minagent in your project's folder (the one holding .vscode), or name a VS Code settings file with --settings FILE`;
}
