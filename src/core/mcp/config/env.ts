/** Provider keys MinAgent itself reads: a server gets one only when its entry's `env` names it. */
export const PROVIDER_KEY_VARIABLES: readonly string[] = ['OPENAI_API_KEY', 'ANTHROPIC_API_KEY'];

/**
 * The environment a stdio server starts with: the host's own environment (so PATH, proxies and
 * version managers work as in a terminal), minus variables that belong to the editor's process
 * and the model providers' keys, with the entry's `env` on top.
 */
export function serverEnvironment(
  own: Record<string, string>,
  base: NodeJS.ProcessEnv = process.env,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(base)) {
    if (v === undefined) continue;
    if (k.startsWith('VSCODE_') || k === 'ELECTRON_RUN_AS_NODE' || k === 'ELECTRON_NO_ATTACH_CONSOLE') continue;
    if (PROVIDER_KEY_VARIABLES.includes(k.toUpperCase())) continue;
    env[k] = v;
  }
  return { ...env, ...own };
}
