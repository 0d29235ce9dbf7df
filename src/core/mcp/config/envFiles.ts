import { insideUntrusted, resolvePath } from './trust';
import { expandVariables, type VariableContext } from './variables';
import { readEnvFile, readEnvFileSync } from './workspacePaths';

/** An env file's text while an entry is parsed: read ahead (`ctx.envFiles`), or else read now. */
export function envFileText(path: string, ctx: VariableContext): string {
  if (!ctx.envFiles) return readEnvFileSync(path);
  const text = ctx.envFiles.get(path) ?? new Error('it was not read ahead');
  if (text instanceof Error) throw text;
  return text;
}

/**
 * Reads the env files that the enabled entries of a `minagent.servers` object name, without
 * blocking; pass the result as `ctx.envFiles`. The trust decision comes first (a file of an
 * untrusted workspace is never opened), and each read is bounded (readEnvFile).
 */
export async function readEnvFiles(raw: unknown, ctx: VariableContext): Promise<Map<string, string | Error>> {
  const files = new Map<string, string | Error>();
  if (!raw || typeof raw !== 'object') return files;
  const paths = Object.values(raw as Record<string, unknown>).flatMap((entry) => {
    if (!entry || typeof entry !== 'object' || (entry as { disabled?: unknown }).disabled === true) return [];
    const envFile = (entry as { envFile?: unknown }).envFile;
    return typeof envFile === 'string'
      ? [
          resolvePath(
            expandVariables(envFile, ctx, () => {}),
            ctx,
          ),
        ]
      : [];
  });
  const readable = [...new Set(paths)].filter((path) => !insideUntrusted(path, ctx));
  await Promise.all(readable.map(async (path) => files.set(path, await readEnvFile(path).catch((err: Error) => err))));
  return files;
}
