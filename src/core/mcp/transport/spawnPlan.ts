import { win32 } from 'node:path';
// cross-spawn's own escaping for cmd.exe (https://qntm.org/cmd), the same it applies to .cmd shims.
import * as cmdEscape from 'cross-spawn/lib/util/escape.js';
import resolveCommand from 'cross-spawn/lib/util/resolveCommand.js';

/** What to spawn: never a shell with unescaped arguments. */
export interface SpawnPlan {
  file: string;
  args: string[];
  /** Set when `args` are one cmd.exe command line already escaped for it. */
  windowsVerbatimArguments?: boolean;
}

export interface PlanContext {
  platform: NodeJS.Platform;
  /** The command's full path as Windows would find it (with its extension), if found. */
  resolve?: (command: string) => string | undefined;
  /** cmd.exe (`%ComSpec%`). */
  comspec?: string;
}

const EXECUTABLE = /\.(?:com|exe)$/i;
/** A cmd-shim in node_modules/.bin runs its target through cmd.exe once more: metacharacters are escaped twice. */
const NODE_MODULES_SHIM = /node_modules[\\/].bin[\\/][^\\/]+\.cmd$/i;

/**
 * How to start a server process. Everywhere but Windows, and for real executables on Windows, the
 * command runs without a shell, its arguments passed as they are. A `.cmd`/`.bat` shim (npx on
 * Windows) can only run through cmd.exe (Node refuses it without a shell since CVE-2024-27980),
 * so its command line is built with cross-spawn's escaping: every argument quoted and every cmd.exe
 * metacharacter (`& | < > ^ % ! ( ) " ;` and space) escaped with `^`, so nothing in an argument or
 * a folder name can start another command.
 */
export function planSpawn(command: string, args: readonly string[], ctx: PlanContext): SpawnPlan {
  if (ctx.platform !== 'win32') return { file: command, args: [...args] };
  const file = ctx.resolve?.(command) ?? command;
  if (EXECUTABLE.test(file)) return { file, args: [...args] };
  return {
    file: ctx.comspec ?? 'cmd.exe',
    args: ['/d', '/s', '/c', `"${cmdLine(command, args, NODE_MODULES_SHIM.test(file))}"`],
    windowsVerbatimArguments: true,
  };
}

/**
 * The cmd.exe command line for a command and its arguments, escaped as cross-spawn does (the
 * command as the entry gave it, for cmd.exe to find; the arguments quoted and escaped, twice for a
 * node_modules/.bin shim).
 */
export function cmdLine(command: string, args: readonly string[], twice = NODE_MODULES_SHIM.test(command)): string {
  return [cmdEscape.command(win32.normalize(command)), ...args.map((a) => cmdEscape.argument(a, twice))].join(' ');
}

/** The real context of this process: on Windows, cross-spawn's PATH/PATHEXT lookup. */
export function hostPlanContext(env: Record<string, string>, cwd: string): PlanContext {
  if (process.platform !== 'win32') return { platform: process.platform };
  return {
    platform: 'win32',
    resolve: (command) => resolveCommand({ command, options: { env, cwd } }) ?? undefined,
    comspec: env.ComSpec ?? env.COMSPEC ?? process.env.ComSpec ?? 'cmd.exe',
  };
}
