import { readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import * as vscode from 'vscode';
import { parseScript, type ChatModel } from '../../core/agent/model';
import { createModel } from '../../core/models/factory';
import { setupBaseUrl } from '../../core/models/modelSetup';
import {
  entryDetail,
  entryId,
  entryLabels,
  MODELS_SETTING,
  upgradeSelection,
  type ModelEntry,
} from '../../core/models/modelList';
import type { ModelChoice } from '../../shared/protocol';
import { ignoredNotice, setting, workspaceMinagentKeys } from '../trustedSettings';
import { KeyOrigins } from './keyOrigins';
import { LanguageModelAdapter } from './lmModel';
import { baseUrlFromWorkspace, userBaseUrls, userModels, workspaceModel } from './modelSettings';

const SELECTED_KEY = 'minagent.chat.selectedModel';
/** The Base URL last typed in Set Up a Model, per provider (user state, never a workspace's). */
const SETUP_TYPED_KEY = 'minagent.setup.baseUrl';

export const SETUP_HINT =
  'No model is available. Use Copilot (or any extension that provides a VS Code language model), or run MinAgent: Set Up a Model to add one to "minagent.chat.models": an OpenAI-compatible endpoint (for Ollama: http://localhost:11434/v1; LM Studio, vLLM, OpenAI, OpenRouter), or Anthropic with an API key (MinAgent: Set API Key).';

/** A model from settings: the user's list, or a trusted workspace's old provider settings. */
interface Configured {
  id: string;
  entry: ModelEntry;
  fromWorkspace: boolean;
}

/**
 * The models the picker offers: vscode.lm models, each model of the user's `minagent.chat.models`,
 * and a trusted workspace's model. The selection is kept per workspace and, as the default for a
 * workspace that has none, for the user.
 */
export class ModelChoices {
  private lmModels: vscode.LanguageModelChat[] = [];
  private ignored: string[] = [];
  private readonly keys: KeyOrigins;

  constructor(
    secrets: vscode.SecretStorage,
    private readonly memento: vscode.Memento,
    private readonly globalState: vscode.Memento,
  ) {
    this.keys = new KeyOrigins(secrets, globalState, (provider) => userBaseUrls(globalState, provider));
  }

  async refresh(): Promise<void> {
    try {
      this.lmModels = await vscode.lm.selectChatModels();
    } catch {
      this.lmModels = [];
    }
    this.ignored = vscode.workspace.isTrusted ? [] : await workspaceMinagentKeys().catch(() => []);
  }

  /** Says which workspace settings an untrusted window ignores, or undefined. */
  trustNotice(): string | undefined {
    return ignoredNotice(this.ignored);
  }

  /** The problems of `minagent.chat.models` (each names the entry and field), or undefined. */
  modelNotice(): string | undefined {
    const { problems } = userModels(this.globalState, scriptSetting());
    return problems.length ? `Skipped in your settings: ${problems.join('; ')}.` : undefined;
  }

  private configured(): Configured[] {
    const ws = workspaceModel();
    const user = userModels(this.globalState, scriptSetting()).entries.map((entry) => ({
      id: entryId(entry),
      entry,
      fromWorkspace: false,
    }));
    return [...(ws ? [{ id: `workspace:${entryId(ws)}`, entry: ws, fromWorkspace: true }] : []), ...user];
  }

  list(): ModelChoice[] {
    const out: ModelChoice[] = this.lmModels.map((m) => ({
      id: `lm:${m.id}`,
      label: `${m.name} (${m.vendor})`,
      detail: `vscode.lm: ${m.family}`,
    }));
    const configured = this.configured();
    const labels = entryLabels(configured.map((c) => c.entry));
    for (const [i, c] of configured.entries()) {
      const detail = entryDetail(c.entry, scriptSetting());
      out.push(
        c.fromWorkspace
          ? { id: c.id, label: `${labels[i]} (workspace)`, detail: `${detail}, from this workspace's settings` }
          : { id: c.id, label: labels[i]!, detail },
      );
    }
    return out;
  }

  /**
   * The workspace's own choice; else a trusted workspace's model; else the user's last choice; else
   * the first model of their list; else VS Code's first. An id stored by an older version (the
   * provider's name) means that provider's model.
   */
  selected(): string | undefined {
    const configured = this.configured().map((c) => c.id);
    const ids = new Set(this.list().map((m) => m.id));
    const workspace = configured.find((id) => id.startsWith('workspace:'));
    const candidates = [
      upgradeSelection(this.memento.get<string>(SELECTED_KEY), configured),
      workspace,
      upgradeSelection(this.globalState.get<string>(SELECTED_KEY), configured),
      configured[0],
      ...ids,
    ];
    return candidates.find((id): id is string => id !== undefined && ids.has(id));
  }

  async select(id: string): Promise<void> {
    await this.memento.update(SELECTED_KEY, id);
    await this.globalState.update(SELECTED_KEY, id);
  }

  /** The picker's entry for an id, for messages that name it. */
  choice(id: string | undefined): ModelChoice | undefined {
    return this.list().find((m) => m.id === id);
  }

  /**
   * The selected model, ready to call; throws a message saying what is missing. With `withKey`
   * false (the budget meter, which only counts and asks the window), no key is looked up, so
   * measuring never shows the key-origin modal and never carries a key; and the window is asked of
   * the server (Ollama's probe) only when its origin may be reached without asking.
   */
  async create({ withKey = true }: { withKey?: boolean } = {}): Promise<ChatModel> {
    const id = this.selected();
    if (!id) throw new Error(SETUP_HINT);
    if (id.startsWith('lm:')) {
      const lm = this.lmModels.find((m) => `lm:${m.id}` === id);
      if (!lm) throw new Error(`the model ${id.slice(3)} is no longer available`);
      return new LanguageModelAdapter(lm);
    }
    const chosen = this.configured().find((c) => c.id === id);
    if (!chosen) throw new Error(`the model ${id} is no longer configured`);
    const configured = setting<number>('chat.contextWindow', 0);
    const window = Number.isInteger(configured) && configured > 0 ? { contextWindow: configured } : {};
    const { entry } = chosen;
    if (entry.provider === 'scripted') {
      const file = resolvePath(entry.scriptFile ?? scriptSetting());
      return createModel({
        provider: 'scripted',
        script: parseScript(JSON.parse(readFileSync(file, 'utf8')), file),
        ...window,
      });
    }
    const { provider, baseUrl } = entry;
    const to = chosen.fromWorkspace
      ? { baseUrl, fromWorkspace: baseUrlFromWorkspace(), setting: 'minagent.chat.baseUrl' }
      : { baseUrl, fromWorkspace: false, setting: MODELS_SETTING };
    // The key goes only to the origin it was stored for, or one the user confirms now.
    const apiKey = withKey ? await this.keys.keyFor(provider, to) : undefined;
    const common = { baseUrl, model: entry.model, ...(apiKey ? { apiKey } : {}), ...window };
    const maxTokens = setting<number>('chat.maxOutputTokens', 0);
    const probe = withKey || (await this.keys.mayContact(provider, to)) ? {} : { probeWindow: false };
    return provider === 'openai'
      ? createModel({ provider, ...common, sendImages: setting('chat.sendImages', false), ...probe })
      : createModel({ provider, ...common, ...(maxTokens > 0 ? { maxTokens } : {}) });
  }

  /**
   * Asks for a provider's key and keeps it in SecretStorage (never in settings or logs), bound to one
   * origin: `target`'s (the model being set up), else the selected model's when it is the user's and
   * of this provider, else the user's first of this provider, else the vendor's.
   */
  async setApiKey(target?: { provider: 'openai' | 'anthropic'; baseUrl: string }): Promise<void> {
    const pick = target
      ? PROVIDER_PICKS.find((p) => p.provider === target.provider)
      : await vscode.window.showQuickPick(PROVIDER_PICKS, {
          title: 'MinAgent: Set API Key',
          placeHolder: 'Which provider is the key for?',
        });
    if (!pick) return;
    const selected = this.configured().find((c) => c.id === this.selected() && !c.fromWorkspace)?.entry;
    const preferred = target?.baseUrl ?? (selected?.provider === pick.provider ? selected.baseUrl : undefined);
    const origin = this.keys.userOrigin(pick.provider, preferred);
    const previous = await this.keys.keyOrigin(pick.provider);
    const replaces =
      previous && previous !== origin
        ? ` It replaces your ${pick.label} key for ${previous} (one key per provider).`
        : '';
    const key = await vscode.window.showInputBox({
      title: `API key for ${pick.label}`,
      password: true,
      ignoreFocusOut: true,
      prompt: `Kept in VS Code's secret storage and sent only to ${origin}; another address asks first.${replaces} Leave empty to remove the key.`,
    });
    if (key === undefined) return;
    if (key) await this.keys.store(pick.provider, key, origin);
    else await this.keys.delete(pick.provider);
    vscode.window.setStatusBarMessage(
      key ? `MinAgent: key for ${pick.label} saved` : `MinAgent: key for ${pick.label} removed`,
      3_000,
    );
  }

  /**
   * The Base URL Set Up a Model offers (see setupBaseUrl): the user's own from their last run or settings, never a
   * workspace's.
   */
  setupBaseUrl(provider: 'openai' | 'anthropic'): string {
    const selectedId = this.selected();
    const typedBefore = this.globalState.get<string>(`${SETUP_TYPED_KEY}.${provider}`);
    return setupBaseUrl(provider, {
      entries: userModels(this.globalState, scriptSetting()).entries,
      ...(selectedId ? { selectedId } : {}),
      ...(typedBefore ? { typedBefore } : {}),
    });
  }

  /** What the user typed as the Base URL in Set Up a Model, offered again by the next run. */
  async rememberSetupBaseUrl(provider: 'openai' | 'anthropic', baseUrl: string): Promise<void> {
    await this.globalState.update(`${SETUP_TYPED_KEY}.${provider}`, baseUrl);
  }

  /**
   * The stored key when it is bound to exactly `baseUrl`'s origin (the set-up lists that endpoint's models with it).
   */
  keyBoundTo(provider: 'openai' | 'anthropic', baseUrl: string): Promise<string | undefined> {
    return this.keys.keyBoundTo(provider, baseUrl);
  }
}

const PROVIDER_PICKS = [
  {
    label: 'OpenAI-compatible',
    description: 'OpenAI, OpenRouter, vLLM, LM Studio, Ollama…',
    provider: 'openai' as const,
  },
  { label: 'Anthropic', provider: 'anthropic' as const },
];

const scriptSetting = () => setting<string>('chat.scriptFile', '');

function resolvePath(p: string): string {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  const expanded = folder ? p.replace('${workspaceFolder}', folder) : p;
  return isAbsolute(expanded) || !folder ? expanded : join(folder, expanded);
}
