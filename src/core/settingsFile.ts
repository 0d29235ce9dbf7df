import { readFileSync } from 'node:fs';
import { parseHubSettings, type HubSettings } from './mcp/config/hubSettings';
import { parseServers } from './mcp/config/parseServers';
import type { ConfigProblem, ParsedServers } from './mcp/config/serverConfig';
import type { VariableContext } from './mcp/config/variables';
import { parseSettingsText } from './base/jsonc';

/** Reads a VS Code settings file (JSONC). Throws one clear line for a missing file or bad JSONC. */
export function readSettingsFile(path: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new Error(
      code === 'ENOENT'
        ? `settings file not found: ${path}`
        : `cannot read settings file ${path}: ${(err as Error).message}`,
    );
  }
  return parseSettingsText(text, path);
}

/**
 * A `minagent.*` value from a settings object, as VS Code stores it (`"minagent.servers"`) or
 * nested (`"minagent": { "servers": ... }`).
 */
export function settingsValue(settings: Record<string, unknown>, key: string): unknown {
  if (`minagent.${key}` in settings) return settings[`minagent.${key}`];
  const nested = settings.minagent;
  if (nested && typeof nested === 'object' && key in nested) return (nested as Record<string, unknown>)[key];
  return undefined;
}

export interface LoadedConfig extends ParsedServers {
  settings: HubSettings;
}

/** Servers and hub settings from one settings object. */
export function loadConfig(settings: Record<string, unknown>, ctx: VariableContext): LoadedConfig {
  const parsed = parseServers(settingsValue(settings, 'servers'), ctx);
  const problems: ConfigProblem[] = parsed.problems;
  const hubSettings = parseHubSettings((k) => settingsValue(settings, k), problems);
  return { ...parsed, problems, settings: hubSettings };
}
