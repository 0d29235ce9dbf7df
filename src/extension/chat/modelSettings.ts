import * as vscode from 'vscode';
import { DEFAULT_BASE_URLS } from '../../core/models/factory';
import {
  legacyEntry,
  migrateLegacy,
  parseModelList,
  withEntry,
  type LegacyModelSettings,
  type ModelEntry,
  type ParsedModels,
} from '../../core/models/modelList';

/** Set once the old provider settings moved into `minagent.chat.models`; the move never runs again. */
const MIGRATED_KEY = 'minagent.chat.modelsMigrated';

const chatConfig = () => vscode.workspace.getConfiguration('minagent.chat');

/** The user-scope values of the settings before the list: a workspace's never move into the user's list. */
function legacyUserSettings(): LegacyModelSettings {
  const c = chatConfig();
  return {
    provider: c.inspect<string>('provider')?.globalValue,
    baseUrl: c.inspect<string>('baseUrl')?.globalValue,
    model: c.inspect<string>('model')?.globalValue,
  };
}

/**
 * The user's models: `minagent.chat.models` from the user settings only (the setting is
 * application-scoped, and a workspace value is never read), plus, until the move has run, the model
 * of the old settings, so the picker shows the same list before and after it.
 */
export function userModels(state: vscode.Memento, scriptFile: string): ParsedModels {
  const parsed = parseModelList(chatConfig().inspect<unknown>('models')?.globalValue, { scriptFile });
  if (state.get<boolean>(MIGRATED_KEY)) return parsed;
  const list = migrateLegacy(parsed.entries, legacyUserSettings());
  return list ? { ...parsed, entries: list as ModelEntry[] } : parsed;
}

/**
 * Moves the old `minagent.chat.provider`/`baseUrl`/`model` of the user settings into the list, once
 * (an identical entry is reused). The old values stay where they are, ignored at user scope, so an
 * older version still loads them. Workspace values are not moved: see `workspaceModel`.
 */
export async function migrateModelSettings(state: vscode.Memento): Promise<boolean> {
  if (state.get<boolean>(MIGRATED_KEY)) return false;
  const list = migrateLegacy(chatConfig().inspect<unknown>('models')?.globalValue, legacyUserSettings());
  if (list) await chatConfig().update('models', list, vscode.ConfigurationTarget.Global);
  await state.update(MIGRATED_KEY, true);
  return list !== undefined;
}

/**
 * The model a trusted workspace's old settings choose (`minagent.chat.provider`, `baseUrl`, `model`
 * at workspace or folder scope, completed by the user's values as before): offered beside the
 * user's list, never added to it, and its base URL is the workspace's choice (its origin gets
 * nothing before the user confirms it). Undefined in an untrusted window.
 */
export function workspaceModel(): ModelEntry | undefined {
  if (!vscode.workspace.isTrusted) return undefined;
  const c = chatConfig();
  const fromWorkspace = (key: string) => {
    const i = c.inspect<string>(key);
    return i?.workspaceValue !== undefined || i?.workspaceFolderValue !== undefined;
  };
  if (!['provider', 'baseUrl', 'model'].some(fromWorkspace)) return undefined;
  const entry = legacyEntry({
    provider: c.get<string>('provider'),
    baseUrl: c.get<string>('baseUrl'),
    model: c.get<string>('model'),
  });
  return entry?.provider === 'scripted' ? undefined : entry;
}

/** Whether the workspace entry's base URL is the workspace's own value (not the user's, completed). */
export function baseUrlFromWorkspace(): boolean {
  const i = chatConfig().inspect<string>('baseUrl');
  return vscode.workspace.isTrusted && (i?.workspaceFolderValue ?? i?.workspaceValue) !== undefined;
}

/** Adds a model to the user's list (or finds the identical one already there). */
export async function addUserModel(entry: ModelEntry): Promise<{ added: boolean }> {
  const { list, added } = withEntry(chatConfig().inspect<unknown>('models')?.globalValue, entry);
  if (added) await chatConfig().update('models', list, vscode.ConfigurationTarget.Global);
  return { added };
}

/** The user's own base URLs for a provider (list first, then the old setting): where their key may belong. */
export function userBaseUrls(state: vscode.Memento, provider: 'openai' | 'anthropic'): string[] {
  const urls = userModels(state, '').entries.flatMap((e) => (e.provider === provider ? [e.baseUrl] : []));
  const legacy = legacyUserSettings();
  if (legacy.provider === provider) urls.push(legacy.baseUrl || DEFAULT_BASE_URLS[provider]);
  return urls;
}
