// Where a server's relative paths start, and which paths the untrusted workspace controls.
import { homedir } from 'node:os';
import { isAbsolute, resolve } from 'node:path';
import type { VariableContext } from './variables';
import { reachesInto } from './workspacePaths';

/** A path of the entry made absolute from where relative paths start (baseDir). */
export function resolvePath(p: string, ctx: VariableContext): string {
  return isAbsolute(p) ? p : resolve(baseDir(ctx), p);
}

/** Where relative paths start and servers run by default: the workspace, or home when it is untrusted. */
export function baseDir(ctx: VariableContext): string {
  if (ctx.untrusted) return ctx.userHome ?? homedir();
  return ctx.workspaceFolder ?? process.cwd();
}

/** Every workspace folder the context names. */
export function folders(ctx: VariableContext): string[] {
  return [
    ...new Set([...(ctx.workspaceFolder !== undefined ? [ctx.workspaceFolder] : []), ...(ctx.workspaceFolders ?? [])]),
  ];
}

/** Whether `path` is the untrusted workspace's: in any of its folders, directly or through a link (reachesInto). */
export function insideUntrusted(path: string, ctx: VariableContext): boolean {
  return !!ctx.untrusted && reachesInto(path, folders(ctx));
}
